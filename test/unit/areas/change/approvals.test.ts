/**
 * An approval is for one proposal's digest: the change the person read, and the calls it binds.
 * Named for the bug it guards against: an approval matched to its proposal by id alone, so that a
 * proposal rewritten under the same id (a new digest written, as anyone who can write the file can)
 * would be made on the yes given to another.
 */
import { describe, expect, it } from 'vitest';
import { propose, readProposal, recordApproval, takeApproval } from '../../../../src/areas/change/approvals.js';
import { tempDir } from '../../../support/temp.js';

const NOW = new Date('2026-11-25T12:00:00Z');
const ID = 'p-abcdefghijkl';
const fields = (to: string) => ({
  by: 'agent (MCP)',
  account: 'the sandbox',
  binding: 'sandbox',
  words: [`loopsctl transactional send t1 --to ${to}`],
  call: { tool: 'transactional_send', input: { to } },
  bound: { calls: [{ method: 'POST', target: '/v1/transactional', body: to }] },
});

describe('an approval matched to its proposal by id, not digest', () => {
  it('is refused: a proposal rewritten under the id the person approved is another change', () => {
    const config = tempDir();
    const approved = propose(config, fields('ada@example.com'), NOW, ID);
    recordApproval(config, approved, 'ana', NOW);
    // The same id, another change, its digest written anew.
    const rewritten = propose(config, fields('eve@example.com'), NOW, ID);
    expect(rewritten.digest).not.toBe(approved.digest);
    expect(() => takeApproval(config, readProposal(config, ID, NOW), NOW, 'sandbox')).toThrow(
      `the approval beside ${ID} is for another change (another digest); nothing was sent`,
    );
  });

  it('is taken once, for the proposal it was given for', () => {
    const config = tempDir();
    const proposal = propose(config, fields('ada@example.com'), NOW, ID);
    recordApproval(config, proposal, 'ana', NOW);
    expect(takeApproval(config, proposal, NOW, 'sandbox')).toMatchObject({ id: ID, digest: proposal.digest });
    expect(() => readProposal(config, ID, NOW)).toThrow(`the change ${ID} was applied already`);
  });
});
