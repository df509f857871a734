import { describe, expect, it } from 'vitest';
import { staleRevision } from '../../../../../src/areas/content/emails/writes.js';
import type { RecordFiles } from '../../../../../src/areas/content/shared/record-files.js';
import { RejectedError } from '../../../../../src/base/errors.js';

const record = (kind: RecordFiles['kind'], path: string) => ({ kind, path, name: 'x', files: new Map() }) as RecordFiles;

describe('a stale revision on a push', () => {
  it('speaks of drafts for a campaign alone: a transactional email changed meanwhile is only that', () => {
    const stale = () => new RejectedError('contentRevisionId is stale', { status: 409 });
    const transactional = staleRevision(stale(), record('transactional', 'transactional/password-reset--c1')) as RejectedError;
    expect(transactional.message).toBe('transactional/password-reset--c1: contentRevisionId is stale');
    expect(transactional.hint).toBe('the record changed in the account while it was being pushed: run `loopsctl content diff` to see what moved');
    const campaign = staleRevision(stale(), record('campaigns', 'campaigns/november--c2')) as RejectedError;
    expect(campaign.hint).toBe(
      'a campaign can be edited only while it is a draft; otherwise the record changed in the account while it was being pushed: run `loopsctl content diff` to see what moved',
    );
  });
});
