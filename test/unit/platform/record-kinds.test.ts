/**
 * The kinds of record, declared once (src/platform/record-kinds.ts): every configuration write
 * changes a record of one of them, but where its row declares no kind: an email message's, which
 * is a part of the email it belongs to, and a resource described whole by its row that keeps no
 * place in a content tree (docs/development.md, "Adding a resource"); a workflow's node is a part
 * of its workflow.
 */
import { describe, expect, it } from 'vitest';
import { CONFIGURATION_WRITES } from '../../../src/platform/configuration-writes.js';
import { nounOf, RESOURCES } from '../../../src/platform/operations.js';
import { RECORD_KINDS } from '../../../src/platform/record-kinds.js';

describe('the kinds of record', () => {
  it("name the record of every configuration write whose row declares a kind: an email message's row declares none, nor need a resource described whole by its row", () => {
    const kindless = RESOURCES.flatMap((row) => ('kind' in row ? [] : [row.noun as string]));
    const unnamed = [...new Set(Object.keys(CONFIGURATION_WRITES).map((operation) => nounOf(operation)))].filter(
      (noun) => noun === undefined || !Object.hasOwn(RECORD_KINDS, noun),
    );
    expect(unnamed).toContain('email message');
    expect(unnamed.filter((noun) => noun === undefined || !kindless.includes(noun))).toEqual([]);
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
