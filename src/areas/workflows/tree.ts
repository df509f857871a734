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
import { sanitize } from '../../base/sanitize.js';
import { describeNode, type NodeLike } from '../../platform/workflows/node-types.js';
import { paintedWidth } from '../../render/width.js';
import type { NodeNotes } from './graph.js';

export interface TreeGraph {
  rootNodeId: string | null;
  nodes: Record<string, NodeLike>;
}

/** How a change marks a node: added, changed, or (for a dry run) about to be removed. */
export type ChangeMark = 'added' | 'changed' | 'removed';

/** The colour of each kind of text; none without colour. */
interface TreePaint {
  type?: (text: string) => string;
  id?: (text: string) => string;
  reference?: (text: string) => string;
  missing?: (text: string) => string;
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
  annotations?: NodeNotes;
  /** The terminal's width: labels that do not fit wrap under their node. Unset: one line a node. */
  width?: number;
}

/** A part of a label: its text, its colour, and whether it sits one space after the part before rather than two. */
interface Part {
  text: string;
  paint?: (text: string) => string;
  close?: boolean;
}

/** A word of a label, painted, with the spacing before it on its line. */
interface Word {
  text: string;
  gap: string;
}

const SPACE = /\s/;
/** Spacing a label's layout would change: at either end, doubled, or other than a plain space. */
const UNEVEN_SPACING = /^\s|\s$|\s\s|[^\S ]/;

/** A part's words, each painted alone so a break between them never splits a colour. */
function partWords(part: Part): string[] {
  // Most parts (a type, an id) are one word: only text with spacing in it is split.
  const words = SPACE.test(part.text) ? part.text.split(/\s+/).filter(Boolean) : part.text === '' ? [] : [part.text];
  const paint = part.paint;
  return paint ? words.map((word) => paint(word)) : words;
}

/** The parts' words, for filling into lines. */
function labelWords(parts: Part[]): Word[] {
  const words: Word[] = [];
  for (const part of parts) {
    partWords(part).forEach((text, index) => words.push({ text, gap: index > 0 || part.close ? ' ' : '  ' }));
  }
  if (words.length > 0) words[0]!.gap = '';
  return words;
}

/** The parts on one line, as labelWords and fill would lay them out with room to spare, without a word object each. */
function labelLine(parts: Part[]): string {
  const pieces: string[] = [];
  for (const part of parts) {
    let text = part.text;
    // Text with no colour, spaced as joining its words would space it, is already its own piece: most parts, and every reference.
    if (part.paint !== undefined || UNEVEN_SPACING.test(text)) {
      const words = partWords(part);
      if (words.length === 0) continue;
      text = words.length === 1 ? words[0]! : words.join(' ');
    } else if (text === '') continue;
    if (pieces.length > 0) pieces.push(part.close ? ' ' : '  ');
    pieces.push(text);
  }
  // One flat string: a line built with += is a tree of pieces, which joining the lines then walks.
  return pieces.join('');
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

// One piece: its steps (put, label, walk, the folded paths) share the drawing's state, the lines and the nodes drawn, pending and folded.
export function renderWorkflowTree(graph: TreeGraph, options: TreeOptions): string {
  const glyph = options.unicode ? GLYPHS.unicode : GLYPHS.ascii;
  const paint: TreePaint = options.paint ?? {};
  const marks = options.marks;
  const lines: string[] = [];
  const drawn = new Set<string>();
  /** Nodes cut at the fold depth, waiting to be drawn from the left margin. */
  const folded: string[] = [];
  const pending = new Set<string>();
  const nodes = graph.nodes;
  /** Each node's type and id as a reference shows them, made once: a dense graph refers to a node once an edge that reaches it. */
  const names = new Map<string, string>();
  const name = (node: NodeLike, id: string) => {
    let named = names.get(id);
    if (named === undefined) names.set(id, (named = `${sanitize(node.typeName)} ${sanitize(id)}`));
    return named;
  };

  /**
   * Adds a label's lines: the first after `head`, any others (a label wrapped to the width) after
   * `indent` and `tail`, which are joined only then.
   */
  const put = (head: string, parts: Part[], indent: string, tail: string) => {
    if (options.width === undefined) {
      lines.push(head + labelLine(parts));
      return;
    }
    const continuation = indent + tail;
    const [first, ...more] = fill(labelWords(parts), options.width - paintedWidth(head), options.width - paintedWidth(continuation));
    lines.push(head + first);
    for (const line of more) lines.push(continuation + line);
  };

  /** A node's label: its type, id, description and annotation, with its mark if a change touched it. */
  const label = (node: NodeLike, id: string): Part[] => {
    const description = describeNode(node);
    const annotation = options.annotations?.get(id);
    const mark = marks?.get(id);
    const parts: Part[] = [];
    if (mark !== undefined) parts.push({ text: MARK_SIGNS[mark], paint: paint.mark?.[mark] });
    // The mark's sign and the type are one unit: "+ TimerAction".
    parts.push({ text: sanitize(node.typeName), paint: paint.type, close: mark !== undefined }, { text: sanitize(id), paint: paint.id });
    if (description) parts.push({ text: sanitize(description) });
    if (annotation) parts.push({ text: `[${sanitize(annotation)}]`, paint: paint.annotation });
    return parts;
  };

  /** Each reference's label on one line, by its text (which names its kind, and so its colour): laid out once, however many edges draw it. */
  const referenceLabels = new Map<string, string>();

  /** A line that stands for a node drawn elsewhere (or none), wrapped like a label; nothing hangs under it. */
  const reference = (frame: Frame, head: string, text: string, colour?: (text: string) => string) => {
    if (options.width === undefined) {
      let label = referenceLabels.get(text);
      if (label === undefined) referenceLabels.set(text, (label = labelLine([{ text, paint: colour }])));
      lines.push(head + label);
      return;
    }
    const indent = frame.depth === 0 ? '' : frame.prefix + (frame.connector === glyph.last ? glyph.space : glyph.pipe);
    put(head, [{ text, paint: colour }], indent, glyph.space);
  };

  const walk = (start: string) => {
    const stack: Frame[] = [{ id: start, depth: 0, prefix: '', connector: '' }];
    // The ancestors of the frame being drawn; never longer than FOLD_DEPTH + 1.
    const path: string[] = [];
    while (stack.length > 0) {
      const frame = stack.pop()!;
      path.length = frame.depth;
      const head = frame.prefix + frame.connector;
      // Looked up once: own properties only, so an id such as "constructor" is a missing node, not Object's.
      const node = Object.hasOwn(nodes, frame.id) ? nodes[frame.id]! : undefined;
      if (node === undefined) {
        reference(frame, head, `${glyph.missing} ${sanitize(frame.id)} (missing node)`, paint.missing);
      } else if (path.includes(frame.id)) {
        reference(frame, head, `${glyph.loop} ${name(node, frame.id)} (loops back)`, paint.reference);
      } else if (drawn.has(frame.id)) {
        reference(frame, head, `${glyph.merge} ${name(node, frame.id)} (shown above)`, paint.reference);
      } else if (pending.has(frame.id)) {
        reference(frame, head, `${glyph.merge} ${name(node, frame.id)} (continues below)`, paint.reference);
      } else if (frame.depth > FOLD_DEPTH) {
        reference(frame, head, `${glyph.fold} continues below: ${name(node, frame.id)}`, paint.reference);
        pending.add(frame.id);
        folded.push(frame.id);
      } else {
        drawn.add(frame.id);
        path.push(frame.id);
        const childPrefix = frame.depth === 0 ? '' : frame.prefix + (frame.connector === glyph.last ? glyph.space : glyph.pipe);
        const next = node.nextNodeIds;
        // A label's further lines sit under it, with the line down to its children beside them.
        put(head, label(node, frame.id), childPrefix, next.length > 0 ? glyph.pipe : glyph.space);
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
