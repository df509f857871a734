import { describe, expect, it } from 'vitest';
import { controlsReplacedBy, insertionPointOf, type PlacedNode } from '../../../../src/platform/workflows/creation.js';

/** trigger -> split -> (a, b) -> exit; experiment -> (v1, control) -> exit */
const nodes = new Map<string, PlacedNode & { isControl?: boolean }>(
  [
    { id: 'trigger', typeName: 'EventTrigger', nextNodeIds: ['split'] },
    { id: 'split', typeName: 'BranchNode', nextNodeIds: ['a', 'b'] },
    { id: 'a', typeName: 'AudienceFilter', nextNodeIds: ['exit'] },
    { id: 'b', typeName: 'AudienceFilter', nextNodeIds: ['exit'] },
    { id: 'experiment', typeName: 'ExperimentBranchNode', nextNodeIds: ['v1', 'control'] },
    { id: 'v1', typeName: 'VariantNode', nextNodeIds: ['exit'], isControl: false },
    { id: 'control', typeName: 'VariantNode', nextNodeIds: ['exit'], isControl: true },
    { id: 'exit', typeName: 'ExitAction', nextNodeIds: [] },
  ].map((node) => [node.id, node]),
);
const place = (request: Record<string, unknown>, type = 'TimerAction') => {
  const point = insertionPointOf(request, nodes, 'trigger', type);
  return 'parents' in point ? { parents: point.parents.map((node) => node.id), to: point.to.id } : point;
};

describe('where create-node puts a node', () => {
  // "This is valid only when `fromNodeId` has exactly one outgoing node. It is invalid when
  // `fromNodeId` has no outgoing nodes, multiple outgoing nodes, or is an exit node."
  it('after: a node with exactly one outgoing connection, never an exit', () => {
    expect(place({ insertMode: 'after', fromNodeId: 'trigger' })).toEqual({ parents: ['trigger'], to: 'split' });
    expect(place({ insertMode: 'after', fromNodeId: 'split' })).toEqual({
      refused: 'insertMode "after" needs a node with exactly one outgoing connection; split has 2: use "between" with the exact toNodeId',
    });
    expect(place({ insertMode: 'after', fromNodeId: 'exit' })).toEqual({ refused: 'nothing can be inserted after an exit node' });
    expect(place({ insertMode: 'after', fromNodeId: 'nowhere' })).toEqual({ missing: 'nowhere' });
  });

  // "The target must have at least one incoming parent and cannot be a trigger node."
  it('before: every parent of the target leads to the new node; never before a trigger or with a variant', () => {
    expect(place({ insertMode: 'before', toNodeId: 'exit' })).toEqual({ parents: ['a', 'b', 'v1', 'control'], to: 'exit' });
    expect(place({ insertMode: 'before', beforeNodeId: 'split' })).toEqual({ parents: ['trigger'], to: 'split' });
    expect(place({ insertMode: 'before', toNodeId: 'trigger' })).toEqual({ refused: 'nothing can be inserted before a trigger node' });
    expect(place({ insertMode: 'before', toNodeId: 'experiment' })).toEqual({ refused: 'experiment has no incoming connection to insert into' });
    expect(place({ insertMode: 'before', toNodeId: 'v1' }, 'VariantNode')).toMatchObject({ refused: expect.stringContaining('insertMode "before"') });
  });

  // "When `fromNodeId` is an `ExperimentBranchNode`, `nodeTypeName` must be `VariantNode`, and
  // `toNodeId` cannot already be a `VariantNode`."
  it('between: an existing connection, with the experiment rules', () => {
    expect(place({ insertMode: 'between', fromNodeId: 'split', toNodeId: 'b' }, 'AudienceFilter')).toEqual({ parents: ['split'], to: 'b' });
    expect(place({ insertMode: 'between', fromNodeId: 'a', toNodeId: 'b' })).toEqual({ refused: 'a does not lead to b' });
    expect(place({ insertMode: 'between', fromNodeId: 'experiment', toNodeId: 'v1' }, 'VariantNode')).toMatchObject({
      refused: expect.stringContaining('only a VariantNode can be inserted, and only before a node that is not one'),
    });
    expect(place({ insertMode: 'between', fromNodeId: 7, toNodeId: 'b' })).toEqual({ refused: 'fromNodeId must be a string' });
    expect(place({ insertMode: 'sideways' })).toEqual({ refused: 'insertMode must be "after", "before" or "between"' });
  });
});

describe('an experiment has one control', () => {
  it('a variant made the control takes the mark from its siblings', () => {
    expect(controlsReplacedBy('v1', nodes)).toEqual(['control']);
    expect(controlsReplacedBy('control', nodes)).toEqual([]);
  });
});
