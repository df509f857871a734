/**
 * What the API makes when a node is created or a branch added: the settings a new node starts
 * with, the paths a new branch brings, the node cap, and where a node may be inserted. The sandbox
 * plays these to answer, and the push planner to foresee the graph each call leaves.
 */
import { type CreatableNodeType, type DefaultPath, facetsOf, isTrigger } from './node-facets.js';

/** The settings a new node of a type starts with, by the API's field names (node-facets.ts), without the ids the platform makes. */
export function newNodeSettings(type: CreatableNodeType, isControl = false): Record<string, unknown> {
  return facetsOf(type)!.settings?.({ isControl, mailingListId: null }) ?? {};
}

/** The paths a new branch of `type` brings, in order; every other type brings none. */
export function defaultPathsOf(type: string): DefaultPath[] {
  return [...(facetsOf(type)?.paths?.made ?? [])];
}

/** The type of the path add-branch makes on a node of `branchType`; undefined for a node that takes no branch. */
export function addedPathOf(branchType: string): DefaultPath['type'] | undefined {
  return facetsOf(branchType)?.paths?.added;
}

/** "Public workflows can have up to 400 nodes. Generated children count toward that limit." */
export const MAX_WORKFLOW_NODES = 400;

/** "A normal create adds 1 node, `BranchNode` adds 3, and `ExperimentBranchNode` adds 4." */
export function nodesAddedBy(type: string): number {
  return 1 + defaultPathsOf(type).length;
}

/** Why adding `adding` nodes to a workflow of `count` is refused, or undefined when the cap allows it. */
export function nodeCapProblem(count: number, adding: number): string | undefined {
  if (count + adding <= MAX_WORKFLOW_NODES) return undefined;
  return `a workflow can have up to ${MAX_WORKFLOW_NODES} nodes; this one has ${count} and the change adds ${adding}`;
}

/**
 * Why a node of `type` cannot be inserted between parents of `parentTypes` and a node of `toType`.
 * The description: "When `fromNodeId` is an `ExperimentBranchNode`, `nodeTypeName` must be
 * `VariantNode`, and `toNodeId` cannot already be a `VariantNode`; use add-branch to add sibling
 * variants", and "For experiments, use create-node only to insert a missing `VariantNode` before
 * non-variant content".
 */
export function insertionProblem(parentTypes: readonly string[], toType: string, type: string): string | undefined {
  const underExperiment = parentTypes.includes('ExperimentBranchNode');
  if (underExperiment && (type !== 'VariantNode' || toType === 'VariantNode'))
    return 'after an experiment branch only a VariantNode can be inserted, and only before a node that is not one; use add-branch for another variant';
  if (type === 'VariantNode' && !underExperiment)
    return 'a VariantNode can only be inserted right after an experiment branch (an ExperimentBranchNode), before a node that is not a variant; use "between" with the experiment branch as fromNodeId';
  return undefined;
}

/** A node as the insertion rules read it. */
export interface PlacedNode {
  id: string;
  typeName: string;
  nextNodeIds: readonly string[];
}

/** Where a new node goes (the nodes that will lead to it, the node it will lead to), or why not: a node the request names that the workflow lacks, or a 400. */
export type InsertionPoint = { parents: PlacedNode[]; to: PlacedNode } | { missing: string } | { refused: string };

/**
 * Where create-node puts a node of `type`, by the request's `insertMode`, as the description says:
 * "Insert a new node between two existing nodes, `fromNodeId` and `toNodeId`" (from "must
 * currently point to `toNodeId`"); "Insert a new node before `toNodeId`" ("The target must have at
 * least one incoming parent and cannot be a trigger node"; "`VariantNode` cannot use `insertMode:
 * "before"`"; `beforeNodeId` "Deprecated. Use `toNodeId` instead."); "Insert a new node after
 * `fromNodeId`. This is valid only when `fromNodeId` has exactly one outgoing node. It is invalid
 * when `fromNodeId` has no outgoing nodes, multiple outgoing nodes, or is an exit node." Then the
 * experiment rules of `insertionProblem`.
 */
export function insertionPointOf(request: Record<string, unknown>, nodes: ReadonlyMap<string, PlacedNode>, root: string | null, type: string): InsertionPoint {
  const found = (field: string, id: unknown): PlacedNode | InsertionPoint => {
    if (typeof id !== 'string') return { refused: `${field} must be a string` };
    return nodes.get(id) ?? { missing: id };
  };
  const place = (parents: PlacedNode[], to: PlacedNode): InsertionPoint => {
    const refused = insertionProblem(
      parents.map((parent) => parent.typeName),
      to.typeName,
      type,
    );
    return refused === undefined ? { parents, to } : { refused };
  };
  const mode = request.insertMode;
  if (mode === 'after') {
    if (request.toNodeId !== undefined || request.beforeNodeId !== undefined) return { refused: 'insertMode "after" takes fromNodeId only' };
    const from = found('fromNodeId', request.fromNodeId);
    if (!('typeName' in from)) return from;
    if (from.typeName === 'ExitAction') return { refused: 'nothing can be inserted after an exit node' };
    if (from.nextNodeIds.length !== 1)
      return {
        refused: `insertMode "after" needs a node with exactly one outgoing connection; ${from.id} has ${from.nextNodeIds.length}: use "between" with the exact toNodeId`,
      };
    const to = found('toNodeId', from.nextNodeIds[0]);
    return 'typeName' in to ? place([from], to) : to;
  }
  if (mode === 'before') {
    if (request.fromNodeId !== undefined) return { refused: 'insertMode "before" takes toNodeId only' };
    const to = found('toNodeId', request.toNodeId ?? request.beforeNodeId);
    if (!('typeName' in to)) return to;
    if (type === 'VariantNode')
      return { refused: 'a VariantNode cannot be inserted with insertMode "before"; use "between" with the experiment branch as fromNodeId' };
    if (isTrigger(to.typeName) || to.id === root) return { refused: 'nothing can be inserted before a trigger node' };
    const parents = [...nodes.values()].filter((node) => node.nextNodeIds.includes(to.id));
    if (parents.length === 0) return { refused: `${to.id} has no incoming connection to insert into` };
    return place(parents, to);
  }
  if (mode === 'between') {
    if (request.beforeNodeId !== undefined) return { refused: 'insertMode "between" takes fromNodeId and toNodeId' };
    const from = found('fromNodeId', request.fromNodeId);
    if (!('typeName' in from)) return from;
    const to = found('toNodeId', request.toNodeId);
    if (!('typeName' in to)) return to;
    if (!from.nextNodeIds.includes(to.id)) return { refused: `${from.id} does not lead to ${to.id}` };
    return place([from], to);
  }
  return { refused: 'insertMode must be "after", "before" or "between"' };
}

/**
 * The variants of the experiments leading to `variant` that stop being the control when it becomes
 * one: an experiment has one control branch at most ("The remaining percentage will be sent to the
 * control branch", the description of `samplingRate`).
 */
export function controlsReplacedBy(variant: string, nodes: ReadonlyMap<string, PlacedNode & { isControl?: unknown }>): string[] {
  const experiments = [...nodes.values()].filter((node) => node.nextNodeIds.includes(variant));
  return experiments.flatMap((experiment) => experiment.nextNodeIds.filter((sibling) => sibling !== variant && nodes.get(sibling)?.isControl === true));
}

/**
 * Where a path add-branch makes leads: to the workflow's exit, where the workflow ends, so that it
 * can be built on with create-node and reroute; nowhere when the workflow has no exit.
 */
export function addedPathNext(exit: string | undefined): string[] {
  return exit === undefined ? [] : [exit];
}

/**
 * The settings a trigger starts with when another trigger is turned into its kind (an update with
 * `typeName`): no event or property yet, not re-eligible; a list trigger watches the workflow's list.
 */
export function newTriggerSettings(type: string, mailingListId: string | null): Record<string, unknown> {
  const settings = isTrigger(type) ? facetsOf(type)!.settings : undefined;
  return settings?.({ isControl: false, mailingListId }) ?? {};
}
