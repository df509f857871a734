/**
 * The kinds of record, declared once (src/platform/record-kinds.ts): every configuration write
 * changes a record of one of them, but an email message's, which is a part of the email it
 * belongs to; a workflow's node is a part of its workflow.
 */
import { describe, expect, it } from 'vitest';
import { CONFIGURATION_WRITES } from '../../../src/platform/configuration-writes.js';
import { RECORD_KINDS, recordKindOfWrite } from '../../../src/platform/record-kinds.js';

describe('the kinds of record', () => {
  it('name the record of every configuration write but an email message', () => {
    const unnamed = [...new Set(Object.values(CONFIGURATION_WRITES).map((write) => write.kind))].filter((kind) => recordKindOfWrite(kind) === undefined);
    expect(unnamed).toEqual(['email message']);
  });

  it('take a node of a workflow for its workflow, and each kind for itself', () => {
    expect(recordKindOfWrite('workflow node')).toBe('workflow');
    expect(recordKindOfWrite('workflow')).toBe('workflow');
    expect(recordKindOfWrite('transactional group')).toBe('transactional group');
    expect(recordKindOfWrite('contact')).toBeUndefined();
  });

  it('keep each kind in a directory of its own', () => {
    const directories = Object.values(RECORD_KINDS).map((kind) => kind.directory);
    expect(new Set(directories).size).toBe(directories.length);
  });
});
