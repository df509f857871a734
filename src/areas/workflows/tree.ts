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
 *
 * Given a width (a terminal's), a label that does not fit goes on under its node, at word
 * boundaries, indented so the tree's lines carry on beside it: nothing is cut, and an id is never
 * broken.
 */
import { sanitize } from '../../render/sanitize.js';
import { paintedWidth } from '../../render/width.js';
import { describeNode, type NodeLike } from '../../platform/workflows/node-types.js';

export interface TreeGraph {
  rootNodeId: string | null;
  nodes: Record<string, NodeLike>;
}

/** How a change marks a node: added, changed, or (for a dry run) about to be removed. */
export type ChangeMark = 'added' | 'changed' | 'removed';

interface TreePaint {
  type: (text: string) => string;
  id: (text: string) => string;
  reference: (text: string) => string;
  missing: (text: string) => string;
  /** Colours of marked nodes; the sign (+ ~ -) is there without colour. */
  mark?: Partial<Record<ChangeMark, (text: string) => string>>;
  /** Colour of a node's annotation (its metrics). */
  annotation?: (text: string) => string;
}

export interface TreeOptions {
  /** Box-drawing characters and arrows on a terminal; plain ASCII elsewhere. */
  unicode: boolean;
  paint?: TreePaint;
  /** Marks for nodes a change touched, by id. */
  marks?: Map<string, ChangeMark>;
  /** Said after a node's own description, by id: a send-email node's metrics. */
  annotations?: Map<string, string>;
  /** The terminal's width: labels that do not fit wrap under their node. Unset: one line a node. */
  width?: number;
}

/** A word of a label, painted, with the spacing before it on its line. */
interface Word {
  text: string;
  gap: string;
}

/** Each part's words, painted word by word so a break between them never splits a colour. */
function labelWords(parts: { text: string; paint?: (text: string) => string }[]): Word[] {
  const words: Word[] = [];
  for (const part of parts) {
    part.text
      .split(/\s+/)
      .filter(Boolean)
      .forEach((word, index) => words.push({ text: part.paint ? part.paint(word) : word, gap: index === 0 ? '  ' : ' ' }));
  }
  if (words.length > 0) words[0]!.gap = '';
  return words;
}

/** Words filled into lines: the first `first` columns wide, the others `rest`; a word wider than its line has it to itself. */
function fill(words: Word[], first: number, rest: number): string[] {
  const lines: string[] = [];
  let line = '';
  let used = 0;
  for (const word of words) {
    const width = paintedWidth(word.text);
    const room = lines.length === 0 ? first : rest;
    if (line !== '' && used + word.gap.length + width > room) {
      lines.push(line);
      line = '';
      used = 0;
    }
    line += line === '' ? word.text : word.gap + word.text;
    used += (used === 0 ? 0 : word.gap.length) + width;
  }
  lines.push(line);
  return lines;
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

  /** The node's label, as lines: the first after the tree's connector, the others after `continuation`. */
  const label = (id: string, head: string, continuation: string): string[] => {
    const node = nodes[id]!;
    const description = describeNode(node);
    const annotation = options.annotations?.get(id);
    const mark = marks?.get(id);
    const words = labelWords([
      ...(mark === undefined ? [] : [{ text: MARK_SIGNS[mark], paint: paint.mark?.[mark] }]),
      { text: sanitize(node.typeName), paint: paint.type },
      { text: sanitize(id), paint: paint.id },
      ...(description ? [{ text: sanitize(description) }] : []),
      ...(annotation ? [{ text: `[${sanitize(annotation)}]`, paint: paint.annotation }] : []),
    ]);
    // The mark's sign and the type are one unit: "+ TimerAction".
    if (mark !== undefined && words.length > 1) words[1]!.gap = ' ';
    return lay(words, head, continuation);
  };

  const lay = (words: Word[], head: string, continuation: string): string[] => {
    if (options.width === undefined) return [words.map((word) => word.gap + word.text).join('')];
    return fill(words, options.width - paintedWidth(head), options.width - paintedWidth(continuation));
  };

  /** A line that stands for a node drawn elsewhere (or none), wrapped like a label; nothing hangs under it. */
  const reference = (frame: Frame, head: string, text: string, colour: (text: string) => string) => {
    const continuation = (frame.depth === 0 ? '' : frame.prefix + (frame.connector === glyph.last ? glyph.space : glyph.pipe)) + glyph.space;
    const [first, ...more] = lay(labelWords([{ text, paint: colour }]), head, continuation);
    lines.push(head + first);
    for (const line of more) lines.push(continuation + line);
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
        reference(frame, head, `${glyph.missing} ${sanitize(frame.id)} (missing node)`, paint.missing);
      } else if (path.includes(frame.id)) {
        reference(frame, head, `${glyph.loop} ${name(frame.id)} (loops back)`, paint.reference);
      } else if (drawn.has(frame.id)) {
        reference(frame, head, `${glyph.merge} ${name(frame.id)} (shown above)`, paint.reference);
      } else if (pending.has(frame.id)) {
        reference(frame, head, `${glyph.merge} ${name(frame.id)} (continues below)`, paint.reference);
      } else if (frame.depth > FOLD_DEPTH) {
        reference(frame, head, `${glyph.fold} continues below: ${name(frame.id)}`, paint.reference);
        pending.add(frame.id);
        folded.push(frame.id);
      } else {
        drawn.add(frame.id);
        path.push(frame.id);
        const childPrefix = frame.depth === 0 ? '' : frame.prefix + (frame.connector === glyph.last ? glyph.space : glyph.pipe);
        const next = nodes[frame.id]!.nextNodeIds;
        // A label's further lines sit under it, with the line down to its children beside them.
        const continuation = childPrefix + (next.length > 0 ? glyph.pipe : glyph.space);
        const [first, ...more] = label(frame.id, head, continuation);
        lines.push(head + first);
        for (const line of more) lines.push(continuation + line);
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
