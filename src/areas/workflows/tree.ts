/**
 * A workflow graph drawn as a tree from its trigger along nextNodeIds. A graph is not a tree:
 * a node reached a second time (a merge) is drawn once and referenced where it recurs, an edge
 * back to an ancestor is marked as a loop, an id with no node is marked missing, and nodes the
 * trigger cannot reach are drawn after.
 *
 * The output stays linear in nodes plus edges: the walk is iterative (no recursion, whatever the
 * depth), and indentation stops growing at FOLD_DEPTH: a path that goes deeper is cut with a
 * "continues below" line and drawn again from the left margin after the tree, so a chain of any
 * length costs a bounded width per line.
 */
import { sanitize } from '../../render/sanitize.js';
import { describeNode, type NodeLike } from './node-types.js';

export interface TreeGraph {
  rootNodeId: string | null;
  nodes: Record<string, NodeLike>;
}

/** How a change marks a node: added, changed, or (for a dry run) about to be removed. */
export type ChangeMark = 'added' | 'changed' | 'removed';

export interface TreePaint {
  type: (text: string) => string;
  id: (text: string) => string;
  reference: (text: string) => string;
  missing: (text: string) => string;
  /** Colours of marked nodes; the sign (+ ~ -) is there without colour. */
  mark?: Partial<Record<ChangeMark, (text: string) => string>>;
}

export interface TreeOptions {
  /** Box-drawing characters and arrows on a terminal; plain ASCII elsewhere. */
  unicode: boolean;
  paint?: TreePaint;
  /** Marks for nodes a change touched, by id. */
  marks?: Map<string, ChangeMark>;
}

/** Levels of indentation before a path is folded back to the left margin. */
export const FOLD_DEPTH = 16;

export const MARK_SIGNS: Record<ChangeMark, string> = { added: '+', changed: '~', removed: '-' };

const plain: TreePaint = { type: (t) => t, id: (t) => t, reference: (t) => t, missing: (t) => t };

const GLYPHS = {
  unicode: { branch: '├─ ', last: '└─ ', pipe: '│  ', space: '   ', merge: '↪', loop: '↻', missing: '✗', fold: '↳' },
  ascii: { branch: '|-- ', last: '`-- ', pipe: '|   ', space: '    ', merge: '->', loop: '<-', missing: '!', fold: '=>' },
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
  const marks = options.marks;
  const lines: string[] = [];
  const drawn = new Set<string>();
  /** Nodes cut at the fold depth, waiting to be drawn from the left margin. */
  const folded: string[] = [];
  const pending = new Set<string>();
  const nodes = graph.nodes;
  const has = (id: string) => Object.hasOwn(nodes, id);
  const name = (id: string) => `${sanitize(nodes[id]!.typeName)} ${sanitize(id)}`;

  const label = (id: string) => {
    const node = nodes[id]!;
    const description = describeNode(node);
    const text = [paint.type(sanitize(node.typeName)), paint.id(sanitize(id)), description && sanitize(description)].filter(Boolean).join('  ');
    const mark = marks?.get(id);
    if (mark === undefined) return text;
    const colour = paint.mark?.[mark] ?? ((t: string) => t);
    return `${colour(MARK_SIGNS[mark])} ${text}`;
  };

  const walk = (start: string) => {
    const stack: Frame[] = [{ id: start, depth: 0, prefix: '', connector: '' }];
    // The ancestors of the frame being drawn; never longer than FOLD_DEPTH + 1.
    const path: string[] = [];
    while (stack.length > 0) {
      const frame = stack.pop()!;
      path.length = frame.depth;
      const head = frame.prefix + frame.connector;
      if (!has(frame.id)) {
        lines.push(head + paint.missing(`${glyph.missing} ${sanitize(frame.id)} (missing node)`));
      } else if (path.includes(frame.id)) {
        lines.push(head + paint.reference(`${glyph.loop} ${name(frame.id)} (loops back)`));
      } else if (drawn.has(frame.id)) {
        lines.push(head + paint.reference(`${glyph.merge} ${name(frame.id)} (shown above)`));
      } else if (pending.has(frame.id)) {
        lines.push(head + paint.reference(`${glyph.merge} ${name(frame.id)} (continues below)`));
      } else if (frame.depth > FOLD_DEPTH) {
        lines.push(head + paint.reference(`${glyph.fold} continues below: ${name(frame.id)}`));
        pending.add(frame.id);
        folded.push(frame.id);
      } else {
        drawn.add(frame.id);
        lines.push(head + label(frame.id));
        path.push(frame.id);
        const childPrefix = frame.depth === 0 ? '' : frame.prefix + (frame.connector === glyph.last ? glyph.space : glyph.pipe);
        const next = nodes[frame.id]!.nextNodeIds;
        // Pushed in reverse so that the first child is drawn first.
        for (let index = next.length - 1; index >= 0; index -= 1) {
          stack.push({ id: next[index]!, depth: frame.depth + 1, prefix: childPrefix, connector: index === next.length - 1 ? glyph.last : glyph.branch });
        }
      }
    }
  };

  /** Draws the paths cut at the fold depth, each from the left margin, until none is left. */
  const drawFolded = () => {
    for (let index = 0; index < folded.length; index += 1) {
      const id = folded[index]!;
      pending.delete(id);
      walk(id);
    }
    folded.length = 0;
  };

  if (graph.rootNodeId === null) lines.push('(no trigger node)');
  else walk(graph.rootNodeId);
  drawFolded();

  let heading = false;
  for (const id of Object.keys(nodes)) {
    if (drawn.has(id)) continue;
    if (!heading) lines.push('', 'Not reachable from the trigger:');
    heading = true;
    walk(id);
    drawFolded();
  }
  return `${lines.join('\n')}\n`;
}
