/**
 * The kinds of record, declared once (src/platform/record-kinds.ts): every configuration write
 * changes a record of one of them, but an email message's, which is a part of the email it
 * belongs to; a workflow's node is a part of its workflow.
 */
import { describe, expect, it } from 'vitest';
import { CONFIGURATION_WRITES } from '../../../src/platform/configuration-writes.js';
import { RECORD_KINDS } from '../../../src/platform/record-kinds.js';
import { nounOf } from '../../../src/platform/operations.js';

describe('the kinds of record', () => {
  it('name the record of every configuration write but an email message', () => {
    const unnamed = [...new Set(Object.keys(CONFIGURATION_WRITES).map((operation) => nounOf(operation)!))].filter((noun) => !Object.hasOwn(RECORD_KINDS, noun));
    expect(unnamed).toEqual(['email message']);
  });

  it("take a node's edit for its workflow's, and each other write for its own record's", () => {
    expect(nounOf('updateWorkflowNode')).toBe('workflow');
    expect(nounOf('updateWorkflowProperties')).toBe('workflow');
    expect(nounOf('updateTransactionalGroup')).toBe('transactional group');
    expect(nounOf('createContact')).toBeUndefined();
  });

  it('keep each kind in a directory of its own', () => {
    const directories = Object.values(RECORD_KINDS).map((kind) => kind.directory);
    expect(new Set(directories).size).toBe(directories.length);
  });
});
