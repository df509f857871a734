/**
 * A workflow's graph as every rule reads it, whoever holds it: the nodes by key (a file's local
 * keys, the API's ids) with the keys each leads to. The walks the rules, the push planner and the
 * sandbox share are here, once: reachability, parents, the order from the root, loops, and what a
 * recursive delete removes.
 */

/** Each node's key, with the keys it leads to (its `nextNodeIds`, a file's `next`). */
export type Graph = ReadonlyMap<string, readonly string[]>;

/** The graph of nodes of any shape, by how each names itself and where it leads. */
export function graphOf<Node>(nodes: Iterable<Node>, key: (node: Node) => string, next: (node: Node) => readonly string[]): Map<string, readonly string[]> {
  const graph = new Map<string, readonly string[]>();
  for (const node of nodes) graph.set(key(node), next(node));
  return graph;
}

/** The graph of a file's nodes (or a planner's copy of them), by key. */
export function graphOfKeyed(nodes: Record<string, { next: readonly string[] }> | ReadonlyMap<string, { next: readonly string[] }>): Graph {
  const entries = nodes instanceof Map ? [...nodes] : Object.entries(nodes);
  return graphOf(
    entries as [string, { next: readonly string[] }][],
    ([key]) => key,
    ([, node]) => node.next,
  );
}

/** The graph of the API's nodes, by id. */
export function graphOfNodes(nodes: Iterable<{ id: string; nextNodeIds: readonly string[] }>): Graph {
  return graphOf(
    nodes,
    (node) => node.id,
    (node) => node.nextNodeIds,
  );
}

/** The nodes that lead to `key`. */
export function parentsOf(graph: Graph, key: string): string[] {
  const parents: string[] = [];
  for (const [parent, next] of graph) if (next.includes(key)) parents.push(parent);
  return parents;
}

/** The keys reachable from `start` along the edges (start included), never passing through `skip`; keys no node has are left out. */
export function reachableFrom(graph: Graph, start: string | null, skip?: string): Set<string> {
  const seen = new Set<string>();
  const pending = start === null || start === skip ? [] : [start];
  while (pending.length > 0) {
    const key = pending.pop()!;
    if (seen.has(key) || !graph.has(key)) continue;
    seen.add(key);
    for (const next of graph.get(key)!) if (next !== skip && !seen.has(next)) pending.push(next);
  }
  return seen;
}

/**
 * What a recursive delete of `key` removes: "a node and its downstream subtree" (the description),
 * where the subtree is what only it leads to: a node the root still reaches without passing
 * through it stays, as other paths still lead there.
 */
export function removedWith(graph: Graph, root: string | null, key: string): string[] {
  const stillReached = reachableFrom(graph, root, key);
  return [...reachableFrom(graph, key)].filter((reached) => !stillReached.has(reached));
}

/**
 * The keys from the root along the edges, depth first, each path's nodes in the order its edges
 * list them: parents before children on every path. Further starts are walked after, each from
 * where it is, skipping what an earlier walk reached (the nodes the root does not reach).
 */
export function depthFirstFrom(graph: Graph, ...starts: string[]): string[] {
  const order: string[] = [];
  const seen = new Set<string>();
  for (const start of starts) {
    const pending = [start];
    while (pending.length > 0) {
      const key = pending.pop()!;
      if (seen.has(key) || !graph.has(key)) continue;
      seen.add(key);
      order.push(key);
      pending.push(...[...graph.get(key)!].reverse());
    }
  }
  return order;
}

/** The keys at which a walk from the root comes back to a node it is still on (one per loop), without recursion. */
export function loopsFrom(graph: Graph, root: string): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const found: string[] = [];
  const stack: { key: string; index: number }[] = [{ key: root, index: 0 }];
  state.set(root, 'open');
  while (stack.length > 0) {
    const top = stack.at(-1)!;
    const next = graph.get(top.key) ?? [];
    if (top.index >= next.length) {
      state.set(top.key, 'done');
      stack.pop();
      continue;
    }
    const child = next[top.index++]!;
    if (!graph.has(child)) continue;
    const seen = state.get(child);
    if (seen === 'open') found.push(child);
    else if (seen === undefined) {
      state.set(child, 'open');
      stack.push({ key: child, index: 0 });
    }
  }
  return [...new Set(found)];
}

/**
 * The nodes of one path of a branch: those reachable from `path` that no sibling path reaches
 * (where the paths meet again, the nodes after are no one path's own).
 */
export function ownNodesOf(graph: Graph, path: string, siblings: readonly string[]): Set<string> {
  const shared = new Set<string>();
  for (const sibling of siblings) if (sibling !== path) for (const key of reachableFrom(graph, sibling)) shared.add(key);
  return new Set([...reachableFrom(graph, path)].filter((key) => !shared.has(key)));
}

/** A connection to no node (`from` a node), or a root that is no node (no `from`): what no graph the API holds has. */
export interface Dangling {
  from?: string;
  to: string;
}

/** The connections of a graph that lead to no node, and its root when it is none. */
export function danglingOf(graph: Graph, root: string | null): Dangling[] {
  const found: Dangling[] = root !== null && !graph.has(root) ? [{ to: root }] : [];
  for (const [from, next] of graph) for (const to of next) if (!graph.has(to)) found.push({ from, to });
  return found;
}
