/**
 * The blocks of two sides of an email paired as a diff pairs lines: first the longest common
 * subsequence of the blocks drawn the same, then, between two such anchors, the blocks that are the
 * same block edited, by their identity: a component by its `componentId`, any other block by its
 * tag and how alike its words are (the pairing of most weight, again a common subsequence). So a
 * paragraph inserted is added, the paragraph after it that was reworded is changed, and a component
 * edited is changed wherever it stands; a block drawn the same in another place has moved. What is
 * left is removed or added.
 */
import { diffArrays } from 'diff';
import type { DrawnBlock } from '../../../lmx/render.js';
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
  /** Each block's words, counted: how alike two blocks read. */
  words: Map<string, number>[];
}

function sideOf(blocks: readonly DrawnBlock[]): Side {
  const words = blocks.map((block) => {
    const counts = new Map<string, number>();
    for (const word of plainTextOf(block.html).toLowerCase().split(/\s+/)) if (word !== '') counts.set(word, (counts.get(word) ?? 0) + 1);
    return counts;
  });
  return { blocks, words };
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

/** The stretches between the blocks both sides draw the same: the indexes removed and added in each. */
function gapsOf(before: readonly DrawnBlock[], after: readonly DrawnBlock[]): { removed: number[]; added: number[] }[] {
  const parts = diffArrays(
    before.map((block) => comparable(block.html)),
    after.map((block) => comparable(block.html)),
  );
  const gaps: { removed: number[]; added: number[] }[] = [];
  let open: { removed: number[]; added: number[] } | undefined;
  const at = { before: 0, after: 0 };
  for (const part of parts) {
    const count = part.count ?? part.value.length;
    if (!part.added && !part.removed) {
      open = undefined;
      at.before += count;
      at.after += count;
      continue;
    }
    if (open === undefined) {
      open = { removed: [], added: [] };
      gaps.push(open);
    }
    const side = part.removed ? 'before' : 'after';
    for (let offset = 0; offset < count; offset += 1) (part.removed ? open.removed : open.added).push(at[side] + offset);
    at[side] += count;
  }
  return gaps;
}

/** The blocks that differ between two sides, in the order the after side reads (a removed block where it stood). */
export function changedBlocks(beforeBlocks: readonly DrawnBlock[], afterBlocks: readonly DrawnBlock[]): BlockChange[] {
  const before = sideOf(beforeBlocks);
  const after = sideOf(afterBlocks);
  const gaps = gapsOf(beforeBlocks, afterBlocks);
  const pairs = gaps.flatMap((gap) => pairGap(before, gap.removed, after, gap.added));
  const pairedBefore = new Set(pairs.map(([at]) => at));
  const pairedAfter = new Set(pairs.map(([, to]) => to));
  const removed = gaps.flatMap((gap) => gap.removed).filter((at) => !pairedBefore.has(at));
  const added = gaps.flatMap((gap) => gap.added).filter((to) => !pairedAfter.has(to));
  // Blocks that left one place and stand at another: drawn the same (moved), or the same component edited.
  const moves: [number, number][] = [];
  for (const at of removed) {
    const was = beforeBlocks[at]!;
    const to =
      added.find((index) => !pairedAfter.has(index) && comparable(afterBlocks[index]!.html) === comparable(was.html)) ??
      (was.tag === 'Component' ? added.find((index) => !pairedAfter.has(index) && weight(before, at, after, index) > 0) : undefined);
    if (to === undefined) continue;
    moves.push([at, to]);
    pairedBefore.add(at);
    pairedAfter.add(to);
  }
  const changes: (BlockChange & { order: number })[] = [];
  const describe = (block: DrawnBlock) => ({ tag: block.tag, ...(block.componentId === undefined ? {} : { componentId: block.componentId }) });
  for (const [at, to] of pairs)
    changes.push({ change: 'changed', before: at, after: to, ...describe(afterBlocks[to]!), text: textOf(afterBlocks[to]!.html), order: to });
  for (const [at, to] of moves) {
    const same = comparable(beforeBlocks[at]!.html) === comparable(afterBlocks[to]!.html);
    changes.push({
      change: same ? 'moved' : 'changed',
      before: at,
      after: to,
      ...describe(afterBlocks[to]!),
      ...(same ? {} : { moved: true as const }),
      text: textOf(afterBlocks[to]!.html),
      order: to,
    });
  }
  for (const to of added.filter((index) => !pairedAfter.has(index)))
    changes.push({ change: 'added', after: to, ...describe(afterBlocks[to]!), text: textOf(afterBlocks[to]!.html), order: to });
  for (const at of removed.filter((index) => !pairedBefore.has(index)))
    changes.push({
      change: 'removed',
      before: at,
      ...describe(beforeBlocks[at]!),
      text: textOf(beforeBlocks[at]!.html),
      order: placeAfter(at, gaps, afterBlocks.length),
    });
  return changes.sort((a, b) => a.order - b.order || (a.before ?? 0) - (b.before ?? 0)).map(({ order: _, ...change }) => change);
}

/** Where a removed block stood, read on the after side: just before the first block after it there. */
function placeAfter(at: number, gaps: readonly { removed: number[]; added: number[] }[], length: number): number {
  const gap = gaps.find((candidate) => candidate.removed.includes(at))!;
  const next = gap.added.length > 0 ? gap.added[0]! : nextAfter(gap, gaps, length);
  return next - 0.5;
}

/** The after side's index of the first block after a gap with nothing added. */
function nextAfter(gap: { removed: number[] }, gaps: readonly { removed: number[]; added: number[] }[], length: number): number {
  // Blocks before the gap on the before side less those removed, plus those added, are those that stand before it on the after side.
  const first = gap.removed[0]!;
  let shift = 0;
  for (const other of gaps) {
    if (other === gap) break;
    shift += other.added.length - other.removed.length;
  }
  return Math.min(length, first + shift);
}
