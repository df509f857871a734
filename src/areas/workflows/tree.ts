/**
 * A workflow graph drawn as a tree from its trigger along nextNodeIds. A graph is not a tree:
 * a node reached a second time (a merge) is drawn once and referenced where it recurs, an edge
 * back to an ancestor is marked as a loop, an id with no node is marked missing, and nodes the
 * trigger cannot reach are drawn after. The walk is iterative, so any depth and any cycle ends.
 */
import { sanitize } from '../../render/sanitize.js';
import { describeNode } from './labels.js';

type Node = { typeName: string; nextNodeIds: string[] } & Record<string, unknown>;

export interface TreeGraph {
  rootNodeId: string | null;
  nodes: Record<string, Node>;
}

export interface TreePaint {
  type: (text: string) => string;
  id: (text: string) => string;
  reference: (text: string) => string;
  missing: (text: string) => string;
}

export interface TreeOptions {
  /** Box-drawing characters and arrows on a terminal; plain ASCII elsewhere. */
  unicode: boolean;
  paint?: TreePaint;
}

const plain: TreePaint = { type: (t) => t, id: (t) => t, reference: (t) => t, missing: (t) => t };

const GLYPHS = {
  unicode: { branch: '├─ ', last: '└─ ', pipe: '│  ', space: '   ', merge: '↪', loop: '↻', missing: '✗' },
  ascii: { branch: '|-- ', last: '`-- ', pipe: '|   ', space: '    ', merge: '->', loop: '<-', missing: '!' },
};

interface Frame {
  id: string;
  depth: number;
  /** The tree drawing before this node's connector. */
  prefix: string;
  connector: string;
}

export function renderWorkflowTree(graph: TreeGraph, options: TreeOptions): string {
  const glyph = options.unicode ? GLYPHS.unicode : GLYPHS.ascii;
  const paint = options.paint ?? plain;
  const lines: string[] = [];
  const drawn = new Set<string>();
  const nodes = graph.nodes;
  const has = (id: string) => Object.hasOwn(nodes, id);

  const label = (id: string) => {
    const node = nodes[id]!;
    const description = describeNode(node);
    return [paint.type(sanitize(node.typeName)), paint.id(sanitize(id)), description && sanitize(description)].filter(Boolean).join('  ');
  };

  const walk = (start: string) => {
    const stack: Frame[] = [{ id: start, depth: 0, prefix: '', connector: '' }];
    const path: string[] = [];
    while (stack.length > 0) {
      const frame = stack.pop()!;
      path.length = frame.depth;
      const head = frame.prefix + frame.connector;
      if (!has(frame.id)) {
        lines.push(head + paint.missing(`${glyph.missing} ${sanitize(frame.id)} (missing node)`));
        continue;
      }
      if (path.includes(frame.id)) {
        lines.push(head + paint.reference(`${glyph.loop} ${sanitize(nodes[frame.id]!.typeName)} ${sanitize(frame.id)} (loops back)`));
        continue;
      }
      if (drawn.has(frame.id)) {
        lines.push(head + paint.reference(`${glyph.merge} ${sanitize(nodes[frame.id]!.typeName)} ${sanitize(frame.id)} (shown above)`));
        continue;
      }
      drawn.add(frame.id);
      lines.push(head + label(frame.id));
      path.push(frame.id);
      const childPrefix = frame.depth === 0 ? '' : frame.prefix + (frame.connector === glyph.last ? glyph.space : glyph.pipe);
      const next = nodes[frame.id]!.nextNodeIds;
      // Pushed in reverse so that the first child is drawn first.
      for (let index = next.length - 1; index >= 0; index -= 1) {
        stack.push({
          id: next[index]!,
          depth: frame.depth + 1,
          prefix: childPrefix,
          connector: index === next.length - 1 ? glyph.last : glyph.branch,
        });
      }
    }
  };

  if (graph.rootNodeId === null) lines.push('(no trigger node)');
  else walk(graph.rootNodeId);

  const unreachable = Object.keys(nodes).filter((id) => !drawn.has(id));
  if (unreachable.length > 0) {
    lines.push('', 'Not reachable from the trigger:');
    for (const id of unreachable) if (!drawn.has(id)) walk(id);
  }
  return `${lines.join('\n')}\n`;
}
