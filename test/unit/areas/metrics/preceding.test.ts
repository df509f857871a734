import { describe, expect, it } from 'vitest';
import { precedingChange } from '../../../../src/areas/metrics/preceding.js';
import type { KeptEmail } from '../../../../src/areas/metrics/store.js';
import { keepImage } from '../../../../src/config/before-images.js';
import { appendEntry, type JournalEntry } from '../../../../src/config/change-journal-files.js';
import { tempDir } from '../../../support/main.js';

const EMAIL: KeptEmail = { key: 'transactional/t1', kind: 'transactional', recordId: 't1', nodeId: null, name: 'Welcome', workflowName: null };
const DAY = 86_400_000;
const T0 = Date.UTC(2027, 0, 10);

function entry(run: string, accountAt: number | undefined, ids: Record<string, string>, fields: Partial<JournalEntry> = {}): JournalEntry {
  return {
    // This machine's clock, a month behind the account's.
    at: new Date((accountAt ?? T0) - 30 * DAY).toISOString(),
    ...(accountAt === undefined ? {} : { accountAt: new Date(accountAt).toISOString() }),
    run,
    baseUrl: 'http://sandbox.invalid',
    who: 'ada',
    via: 'terminal',
    command: 'content push',
    method: 'POST',
    path: '/v1/email-messages/m1',
    operation: 'updateEmailMessage',
    kind: 'email message',
    ids,
    revisions: {},
    outcome: 'done',
    ...fields,
  };
}

describe('the change of loopsctl that preceded a move', () => {
  it("is the latest run that changed the email between the baseline's end and the move's first day, by the account's clock", () => {
    const config = tempDir();
    appendEntry(config, entry('before-baseline-end', T0 - 2 * DAY, { transactionalId: 't1' }));
    appendEntry(config, entry('the-push', T0 + DAY, { emailMessageId: 'm1', transactionalId: 't1' }));
    appendEntry(config, entry('the-push', T0 + DAY + 1000, { transactionalId: 't1' }, { operation: 'publishTransactionalEmail', kind: 'transactional email' }));
    appendEntry(config, entry('another-email', T0 + 2 * DAY, { transactionalId: 't2' }));
    appendEntry(config, entry('refused', T0 + 2 * DAY, { transactionalId: 't1' }, { outcome: 'refused' }));
    appendEntry(config, entry('after-the-move', T0 + 5 * DAY, { transactionalId: 't1' }));
    const found = precedingChange(config, EMAIL, T0, T0 + 4 * DAY);
    expect(found).toMatchObject({
      run: 'the-push',
      at: new Date(T0 + DAY + 1000).toISOString(),
      who: 'ada',
      command: 'content push',
      writes: [{ operation: 'updateEmailMessage' }, { operation: 'publishTransactionalEmail' }],
    });
    expect(found).not.toHaveProperty('undoId');
    expect(precedingChange(config, EMAIL, T0 + 3 * DAY, T0 + 4 * DAY)).toBeUndefined();
  });

  it('names the before-image kept just before the run, which `loopsctl undo` takes', () => {
    const config = tempDir();
    const first = entry('the-push', T0 + DAY, { transactionalId: 't1' });
    const keptAt = new Date(Date.parse(first.at) - 5_000);
    const id = `${keptAt
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z')}-abc123`;
    keepImage(config, id, { records: [{ id: 't1' }] });
    // An image of another record, and one kept long before: neither is the change's.
    keepImage(
      config,
      `${keptAt
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d+Z$/, 'Z')}-def456`,
      { records: [{ id: 't9' }] },
    );
    appendEntry(config, first);
    expect(precedingChange(config, EMAIL, T0, T0 + 2 * DAY)?.undoId).toBe(id);
  });

  it("reads a line written before the account's time was kept by its own time", () => {
    const config = tempDir();
    appendEntry(config, { ...entry('old', undefined, { transactionalId: 't1' }), at: new Date(T0 + DAY).toISOString() });
    expect(precedingChange(config, EMAIL, T0, T0 + 2 * DAY)?.run).toBe('old');
  });
});
