/**
 * A live count while a long listing pages in ("fetched 1,200 of 10,000 themes") or many requests
 * run (metrics of many emails), on one line of stderr, redrawn as it goes. Only on a terminal (a log or a pipe gets nothing), only once a
 * listing takes more than one page, and cleared before anything else is written. Never while a
 * pager shows stdout: the terminal is the pager's then.
 */
import type { Writable } from 'node:stream';
import type { Pagination } from '../base/shapes.js';
import { formatCount } from './numbers.js';

const CLEAR_LINE = '\r\x1b[2K';

export function progressText(fetched: number, total: number, noun: string): string {
  return total >= fetched ? `fetched ${formatCount(fetched)} of ${formatCount(total)} ${noun}` : `fetched ${formatCount(fetched)} ${noun}`;
}

export type ProgressStream = Writable & { isTTY?: boolean };

/**
 * One line of stderr, redrawn in place; only on a terminal that no pager owns. The stream is asked
 * for when there is a line to show: a run that never shows one never opens stderr.
 */
export class ProgressLine {
  private shown = false;

  constructor(
    private readonly stream: () => ProgressStream,
    /** stdout goes to a pager (Runtime.paged): no line is drawn. */
    private readonly paged = false,
  ) {}

  /** Whether a line would be drawn: a caller with costly text to build asks first. */
  get visible(): boolean {
    return !this.paged && this.stream().isTTY === true;
  }

  show(text: string): void {
    if (!this.visible) return;
    this.stream().write(`${CLEAR_LINE}${text}`);
    this.shown = true;
  }

  /** Removes the line, so that output, notes and errors start on a clean line. */
  clear(): void {
    if (!this.shown) return;
    this.stream().write(CLEAR_LINE);
    this.shown = false;
  }
}

export class PaginationProgress {
  private readonly line: ProgressLine;

  constructor(
    stream: () => ProgressStream,
    paged: boolean,
    private readonly noun: string,
    /** --limit: the count stops there, whatever the API's total. */
    private readonly limit = Infinity,
  ) {
    this.line = new ProgressLine(stream, paged);
  }

  /** After each page; nothing when stderr is not a terminal or the listing fit in one page. */
  update(fetched: number, pagination: Pagination): void {
    if (pagination.nextCursor === null) return;
    this.line.show(progressText(fetched, Math.min(pagination.totalResults, this.limit), this.noun));
  }

  clear(): void {
    this.line.clear();
  }
}
