/**
 * Which edits of a graph the API takes: a reroute and a delete, each refused with its reason.
 * The sandbox answers 400 with these; the push planner plans only the edits they allow.
 */
import { withArticle } from '../words.js';
import { type Graph, parentsOf, reachableFrom } from './graph.js';
import { isBranch, isTrigger } from './node-facets.js';

/** The type of a node by its key, undefined for none. */
export type TypeOf = (key: string) => string | undefined;

/**
 * Why `source`'s connection cannot be rerouted to `target`, or undefined when the API takes it.
 * The description: "The source node must have exactly one outgoing connection. Branch and
 * experiment branch nodes cannot be rerouted with this endpoint because they have multiple
 * branch-specific outputs. The current target must still have another incoming connection after
 * the reroute, and the new target must be valid for the source node."
 */
export function rerouteProblem(graph: Graph, typeOf: TypeOf, root: string | null, source: string, target: string): string | undefined {
  const type = typeOf(source) ?? '';
  if (isBranch(type)) return `${source} is ${withArticle(type)}, whose connections are its branches; it cannot be rerouted`;
  const next = graph.get(source) ?? [];
  if (next.length !== 1) return `only a node with exactly one outgoing connection can be rerouted; ${source} has ${next.length}`;
  const current = next[0]!;
  if (target === current) return `${source} already leads to ${target}`;
  if (target === source || isTrigger(typeOf(target) ?? '') || target === root) return `${target} is not a valid target for ${source}`;
  if (parentsOf(graph, current).length < 2) return `${current} would have no incoming connection left; reroute another connection to it first, or delete it`;
  if (reachableFrom(graph, target).has(source)) return `${target} leads back to ${source}: the reroute would make a loop`;
  return undefined;
}

/**
 * Why a node cannot be deleted, alone or with what only it leads to (`recursive`), or undefined.
 * The trigger stays (a workflow starts at it); a node alone has its parents reconnected to its
 * child, so one with several children goes only with its subtree ("Delete a node and its
 * downstream subtree", the description).
 */
export function deleteProblem(key: string, type: string, root: string | null, outgoing: number, recursive: boolean): string | undefined {
  if (key === root || isTrigger(type)) return 'the trigger node cannot be deleted';
  if (!recursive && outgoing > 1)
    return `${key} has ${outgoing} outgoing connections, so its parent cannot be reconnected; delete it with its subtree (recursive)`;
  return undefined;
}
