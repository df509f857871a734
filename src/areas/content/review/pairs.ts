/**
 * The blocks of two sides of an email paired as a diff pairs lines: first the longest common
 * subsequence of the blocks drawn the same, then, between two such anchors, the blocks that are the
 * same block edited, by their identity: a component by its `componentId`, any other block by its
 * tag and how alike its words are (the pairing of most weight, again a common subsequence). So a
 * paragraph inserted is added, the paragraph after it that was reworded is changed, and a component
 * edited is changed wherever it stands; a block of the same tag drawn the same in another place has
 * moved. What is left is removed or added.
 */
import { diffArrays } from 'diff';
import type { DrawnBlock } from '../../../lmx/render/index.js';
import { comparable, plainTextOf, textOf } from './blocks.js';

/** A block that differs between the sides: where it stands on each (an index into that side's blocks). */
export interface BlockChange {
  change: 'added' | 'removed' | 'changed' | 'moved';
  before?: number;
  after?: number;
  /** The LMX tag that drew it (`Paragraph`, `Component`…). */
  tag: string;
  /** A component's id. */
  componentId?: string;
  /** A block changed that also stands elsewhere among the others than it did. */
  moved?: true;
  /** The block's text as read, cut short: which block it is, for a person. */
  text: string;
}

/** Two blocks of the same tag are one block edited when at least this share of their words are the same. */
export const ALIKE = 0.5;

/** Past this many cells (blocks removed times blocks added between two anchors), blocks are paired by identity in order, not by a weighed subsequence. */
const MAX_CELLS = 40_000;

interface Side {
  blocks: readonly DrawnBlock[];
  /**
   * Each block as compared: its tag (a component's id with it) and its HTML (comparable). Two blocks
   * are the same block drawn the same when these are equal: a `<Section>` can draw what a component does,
   * and is still not that component.
   */
  drawn: string[];
  /** Each block's words, counted: how alike two blocks read. */
  words: Map<string, number>[];
}

function sideOf(blocks: readonly DrawnBlock[]): Side {
  const words = blocks.map((block) => {
    const counts = new Map<string, number>();
    for (const word of plainTextOf(block.html).toLowerCase().split(/\s+/)) if (word !== '') counts.set(word, (counts.get(word) ?? 0) + 1);
    return counts;
  });
  return { blocks, drawn: blocks.map((block) => `${block.tag} ${block.componentId ?? ''}\n${comparable(block.html)}`), words };
}

/** How alike two blocks' words are, 0 to 1: twice the words they share over the words of both (two blocks without words are alike). */
export function likeness(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  let shared = 0;
  let total = 0;
  for (const [word, count] of a) {
    shared += Math.min(count, b.get(word) ?? 0);
    total += count;
  }
  for (const count of b.values()) total += count;
  return total === 0 ? 1 : (2 * shared) / total;
}

/** The weight of pairing two blocks as one edited: 0 when they are not the same block; a component by its id outweighs likeness. */
function weight(before: Side, at: number, after: Side, to: number): number {
  const was = before.blocks[at]!;
  const is = after.blocks[to]!;
  if (was.tag !== is.tag) return 0;
  if (was.tag === 'Component') return was.componentId === is.componentId ? 3 : 0;
  const alike = likeness(before.words[at]!, after.words[to]!);
  return alike >= ALIKE ? 1 + alike : 0;
}

/** The pairs of most weight among the blocks removed and added between two anchors, in order on both sides. */
function pairGap(before: Side, removed: readonly number[], after: Side, added: readonly number[]): [number, number][] {
  if (removed.length === 0 || added.length === 0) return [];
  if (removed.length * added.length > MAX_CELLS) return pairInOrder(before, removed, after, added);
  const rows = removed.length + 1;
  const columns = added.length + 1;
  const best = new Float64Array(rows * columns);
  for (let i = removed.length - 1; i >= 0; i -= 1)
    for (let j = added.length - 1; j >= 0; j -= 1) {
      const paired = weight(before, removed[i]!, after, added[j]!);
      const skip = Math.max(best[(i + 1) * columns + j]!, best[i * columns + j + 1]!);
      best[i * columns + j] = paired > 0 ? Math.max(skip, paired + best[(i + 1) * columns + j + 1]!) : skip;
    }
  const pairs: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < removed.length && j < added.length) {
    const paired = weight(before, removed[i]!, after, added[j]!);
    if (paired > 0 && best[i * columns + j] === paired + best[(i + 1) * columns + j + 1]!) {
      pairs.push([removed[i]!, added[j]!]);
      i += 1;
      j += 1;
    } else if (best[i * columns + j] === best[(i + 1) * columns + j]) i += 1;
    else j += 1;
  }
  return pairs;
}

/** A gap too large to weigh: each removed block paired with the next added one it is the same block as. */
function pairInOrder(before: Side, removed: readonly number[], after: Side, added: readonly number[]): [number, number][] {
  const pairs: [number, number][] = [];
  let from = 0;
  for (const at of removed) {
    for (let j = from; j < added.length && j < from + 50; j += 1)
      if (weight(before, at, after, added[j]!) > 0) {
        pairs.push([at, added[j]!]);
        from = j + 1;
        break;
      }
  }
  return pairs;
}

/** A stretch between two blocks both sides draw the same: the blocks removed and added there, and where it starts on the after side. */
interface Gap {
  removed: number[];
  added: number[];
  afterStart: number;
}

function gapsOf(before: Side, after: Side): Gap[] {
  const gaps: Gap[] = [];
  let open: Gap | undefined;
  const at = { before: 0, after: 0 };
  for (const part of diffArrays(before.drawn, after.drawn)) {
    const count = part.count ?? part.value.length;
    if (!part.added && !part.removed) {
      open = undefined;
      at.before += count;
      at.after += count;
      continue;
    }
    if (open === undefined) {
      open = { removed: [], added: [], afterStart: at.after };
      gaps.push(open);
    }
    const side = part.removed ? 'before' : 'after';
    for (let offset = 0; offset < count; offset += 1) (part.removed ? open.removed : open.added).push(at[side] + offset);
    at[side] += count;
  }
  return gaps;
}

/**
 * Among the blocks left unpaired, those that left one place and stand at another: drawn the same
 * (moved), else a component of the same id (edited and moved).
 */
function movesOf(before: Side, removed: readonly number[], after: Side, added: readonly number[]): [number, number][] {
  const waiting = new Map<string, number[]>();
  for (const to of added) waiting.set(after.drawn[to]!, [...(waiting.get(after.drawn[to]!) ?? []), to]);
  const taken = new Set<number>();
  const moves: [number, number][] = [];
  const take = (at: number, to: number | undefined) => {
    if (to === undefined) return false;
    moves.push([at, to]);
    taken.add(to);
    return true;
  };
  const unmoved = removed.filter(
    (at) =>
      !take(
        at,
        waiting.get(before.drawn[at]!)?.find((to) => !taken.has(to)),
      ),
  );
  for (const at of unmoved)
    if (before.blocks[at]!.tag === 'Component')
      take(
        at,
        added.find((to) => !taken.has(to) && weight(before, at, after, to) > 0),
      );
  return moves;
}

/** The blocks that differ between two sides, in the order the after side reads them (a removed block where it stood). */
export function changedBlocks(beforeBlocks: readonly DrawnBlock[], afterBlocks: readonly DrawnBlock[]): BlockChange[] {
  const before = sideOf(beforeBlocks);
  const after = sideOf(afterBlocks);
  const gaps = gapsOf(before, after);
  const pairs = gaps.flatMap((gap) => pairGap(before, gap.removed, after, gap.added));
  const paired = { before: new Set(pairs.map(([at]) => at)), after: new Set(pairs.map(([, to]) => to)) };
  const pairedWith = new Map(pairs);
  const moves = movesOf(
    before,
    gaps.flatMap((gap) => gap.removed).filter((at) => !paired.before.has(at)),
    after,
    gaps.flatMap((gap) => gap.added).filter((to) => !paired.after.has(to)),
  );
  for (const [at, to] of moves) {
    paired.before.add(at);
    paired.after.add(to);
  }
  const change = (side: Side, index: number, order: number, fields: Omit<BlockChange, 'tag' | 'text'>) => {
    const block = side.blocks[index]!;
    return { ...fields, tag: block.tag, ...(block.componentId === undefined ? {} : { componentId: block.componentId }), text: textOf(block.html), order };
  };
  const changes = [
    ...pairs.map(([at, to]) => change(after, to, to, { change: 'changed', before: at, after: to })),
    ...moves.map(([at, to]) =>
      before.drawn[at] === after.drawn[to]
        ? change(after, to, to, { change: 'moved', before: at, after: to })
        : change(after, to, to, { change: 'changed', before: at, after: to, moved: true }),
    ),
    ...gaps.flatMap((gap) => gap.added.filter((to) => !paired.after.has(to)).map((to) => change(after, to, to, { change: 'added', after: to }))),
    ...gaps.flatMap((gap) => {
      // Where it stood: just after the block of its stretch paired before it, else where the stretch starts.
      let place = gap.afterStart - 0.5;
      return gap.removed.flatMap((at) => {
        const to = pairedWith.get(at);
        if (to !== undefined) place = to + 0.5;
        return paired.before.has(at) ? [] : [change(before, at, place, { change: 'removed', before: at })];
      });
    }),
  ];
  return changes.sort((a, b) => a.order - b.order || (a.before ?? 0) - (b.before ?? 0)).map(({ order: _, ...fields }) => fields);
}
