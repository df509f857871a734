import { describe, expect, it } from 'vitest';
import { deleteProblem, rerouteProblem } from '../../../../src/platform/workflows/edits.js';
import { danglingOf, depthFirstFrom, type Graph, loopsFrom, ownNodesOf, parentsOf, removedWith } from '../../../../src/platform/workflows/graph.js';

// trigger -> split -> a -> mail-a -> join -> exit; split -> b -> join
const GRAPH: Graph = new Map([
  ['trigger', ['split']],
  ['split', ['a', 'b']],
  ['a', ['mail-a']],
  ['mail-a', ['join']],
  ['b', ['join']],
  ['join', ['exit']],
  ['exit', []],
]);
const TYPES: Record<string, string> = {
  trigger: 'SignupTrigger',
  split: 'ExperimentBranchNode',
  a: 'VariantNode',
  b: 'VariantNode',
  'mail-a': 'SendEmailAction',
  join: 'TimerAction',
  exit: 'ExitAction',
};
const typeOf = (key: string) => TYPES[key];

describe('the graph walks', () => {
  it('orders from the root, parents before children, and finds parents', () => {
    expect(depthFirstFrom(GRAPH, 'trigger')).toEqual(['trigger', 'split', 'a', 'mail-a', 'join', 'exit', 'b']);
    expect(parentsOf(GRAPH, 'join')).toEqual(['mail-a', 'b']);
  });

  it("a path's own nodes stop where the paths meet", () => {
    expect([...ownNodesOf(GRAPH, 'a', ['a', 'b'])]).toEqual(['a', 'mail-a']);
    expect([...ownNodesOf(GRAPH, 'b', ['a', 'b'])]).toEqual(['b']);
  });

  it('a recursive delete removes only what no other path reaches', () => {
    expect(removedWith(GRAPH, 'trigger', 'a').sort()).toEqual(['a', 'mail-a']);
    expect(removedWith(GRAPH, 'trigger', 'split').sort()).toEqual(['a', 'b', 'exit', 'join', 'mail-a', 'split']);
  });

  it('finds loops and connections to no node', () => {
    expect(loopsFrom(GRAPH, 'trigger')).toEqual([]);
    const looped: Graph = new Map([...GRAPH, ['join', ['split']]]);
    expect(loopsFrom(looped, 'trigger')).toEqual(['split']);
    expect(danglingOf(new Map([...GRAPH, ['b', ['gone']]]), 'start')).toEqual([{ to: 'start' }, { from: 'b', to: 'gone' }]);
  });
});

describe('the edits the API takes', () => {
  it('reroutes a node of one connection whose target keeps another, to a node that does not lead back', () => {
    expect(rerouteProblem(GRAPH, typeOf, 'trigger', 'b', 'exit')).toBeUndefined();
    expect(rerouteProblem(GRAPH, typeOf, 'trigger', 'split', 'exit')).toContain('whose connections are its branches');
    expect(rerouteProblem(GRAPH, typeOf, 'trigger', 'a', 'join')).toContain('mail-a would have no incoming connection left');
    expect(rerouteProblem(GRAPH, typeOf, 'trigger', 'b', 'trigger')).toBe('trigger is not a valid target for b');
    expect(rerouteProblem(new Map([...GRAPH, ['exit', ['b']]]), typeOf, 'trigger', 'b', 'exit')).toContain('exit leads back to b');
  });

  it('deletes any node but the trigger, one with several children only with its subtree', () => {
    expect(deleteProblem('trigger', 'SignupTrigger', 'trigger', 1, true)).toBe('the trigger node cannot be deleted');
    expect(deleteProblem('split', 'ExperimentBranchNode', 'trigger', 2, false)).toContain('delete it with its subtree');
    expect(deleteProblem('split', 'ExperimentBranchNode', 'trigger', 2, true)).toBeUndefined();
    expect(deleteProblem('exit', 'ExitAction', 'trigger', 0, false)).toBeUndefined();
  });
});
