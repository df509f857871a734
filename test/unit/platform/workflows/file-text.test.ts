/** One reader of workflow.yaml: every problem, placed; the throwing reader stops at the first of the same. */
import { describe, expect, it } from 'vitest';
import { LocalFileError } from '../../../../src/base/errors.js';
import { parseWorkflowFile, readWorkflowText } from '../../../../src/platform/workflows/file-text.js';

const GOOD = 'name: Welcome\nroot: start\nnodes:\n  start:\n    type: SignupTrigger\n    next: []\n';

const BROKEN: [what: string, text: string, rule: string, line: number][] = [
  ['a node key given twice', `${GOOD}  start:\n    type: SignupTrigger\n    next: []\n`, 'key-once', 7],
  ['YAML that does not parse', 'name: [unclosed\nroot: start\n', 'yaml', 2],
  ['a field no workflow file has', `${GOOD}colour: blue\n`, 'shape', 7],
  ['a root that is no key', GOOD.replace('root: start', 'root: [start]'), 'shape', 2],
  // A workflow is created with its name, and a push would send an empty one.
  ['an empty name', GOOD.replace('name: Welcome', "name: ''"), 'shape', 1],
  ['an empty root', GOOD.replace('root: start', "root: ''"), 'shape', 2],
  ['a node of an empty type', GOOD.replace('type: SignupTrigger', "type: ''"), 'shape', 4],
];

describe('readWorkflowText', () => {
  it('reads a good file with no problem', () => {
    const read = readWorkflowText(GOOD);
    expect(read.problems).toEqual([]);
    expect(read.file?.root).toBe('start');
    expect(read.place({ key: 'start' })).toMatchObject({ line: 4, column: 3 });
  });

  it.each(BROKEN)('%s: one problem placed, and parseWorkflowFile throws the same first problem', (_what, text, rule, line) => {
    const read = readWorkflowText(text);
    expect(read.file).toBeUndefined();
    expect(read.problems[0]).toMatchObject({ rule, line });
    const first = read.problems[0]!;
    let thrown: unknown;
    try {
      parseWorkflowFile('w/workflow.yaml', text);
    } catch (fault) {
      thrown = fault;
    }
    expect(thrown).toBeInstanceOf(LocalFileError);
    expect((thrown as LocalFileError).message).toBe(`w/workflow.yaml:${first.line}:${first.column}: ${first.message}`);
    expect((thrown as LocalFileError).hint).toBe(first.fix);
  });
});

describe('parseWorkflowFile', () => {
  it('hands each reader of the same text a file of its own to change', () => {
    const first = parseWorkflowFile('a/workflow.yaml', GOOD);
    first.nodes.start!.next.push('changed');
    first.root = 'elsewhere';
    const second = parseWorkflowFile('b/workflow.yaml', GOOD);
    expect(second.root).toBe('start');
    expect(second.nodes.start!.next).toEqual([]);
    second.nodes.start!.next.push('again');
    expect(parseWorkflowFile('c/workflow.yaml', GOOD)).toEqual(readWorkflowText(GOOD).file);
  });

  it('throws for a text each time it is read, naming the file it was read from', () => {
    const text = BROKEN[0]![1];
    expect(() => parseWorkflowFile('a/workflow.yaml', text)).toThrow(/^a\/workflow\.yaml:7:/);
    expect(() => parseWorkflowFile('b/workflow.yaml', text)).toThrow(/^b\/workflow\.yaml:7:/);
  });
});
