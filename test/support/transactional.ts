/** A transactional email as the API lists it, for tests that build an account by hand. */
import type { TransactionalEmail } from '../../src/platform/transactional/schemas.js';

export const listedEmail = (id: string, name: string, dataVariables: string[] = [], published = true): TransactionalEmail => ({
  id,
  name,
  draftEmailMessageId: null,
  publishedEmailMessageId: published ? `${id}-message` : null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  dataVariables,
});
