/**
 * Writes a paginated listing as it arrives: a JSON array streamed item by item, tab-separated rows
 * page by page, or, on a terminal, a table page by page, its columns fitted to the terminal from
 * the first page (later pages keep those widths; longer cells are cut). With --cursor, exactly one
 * page is shown and `--json` prints its envelope so a script can go on from pagination.nextCursor.
 * While pages come in, a terminal's stderr shows how many items have arrived.
 * `--jsonl` prints one compact JSON item per line, page by page, with or without --cursor.
 */
import type { Page } from '../base/shapes.js';
import { JsonArrayWriter, type Output } from './output.js';
import { PaginationProgress } from './progress.js';
import { shellWord } from './shell-word.js';
import { type Style, styleFor } from './style.js';
import { type Cell, type Column, renderRows, TableLayout } from './table.js';

export interface ListView<T> {
  /** Plural noun for notes: "themes". */
  noun: string;
  columns: Column[];
  /** The item's cells; `style` paints what a cell's own paint needs (a swatch). */
  row: (item: T, style: Style) => Cell[];
}

export interface ListMode {
  /** --cursor: the one page asked for, with its envelope under --json. */
  singlePage?: boolean;
  /** --jsonl: one compact item per line. */
  jsonl?: boolean;
  /** --limit: no more items will come than this. */
  limit?: number;
}

export async function writeList<T>(out: Output, pages: AsyncIterable<Page<T>>, view: ListView<T>, mode: ListMode = {}): Promise<void> {
  const singlePage = mode.singlePage === true;
  const progress = new PaginationProgress(() => out.stderr, out.paged, view.noun, mode.limit);
  // Each page: the progress line is cleared, the page written, then the line redrawn.
  async function* tracked(): AsyncGenerator<Page<T>> {
    let fetched = 0;
    for await (const page of pages) {
      progress.clear();
      yield page;
      fetched += page.data.length;
      progress.update(fetched, page.pagination);
    }
    // Before the table that follows the last page.
    progress.clear();
  }
  try {
    // One page asked for by --cursor is not a long listing.
    await writePages(out, singlePage ? pages : tracked(), view, singlePage, mode.jsonl === true);
  } finally {
    progress.clear();
  }
}

async function writePages<T>(out: Output, pages: AsyncIterable<Page<T>>, view: ListView<T>, singlePage: boolean, jsonl: boolean): Promise<void> {
  if (jsonl) {
    for await (const page of pages) if (page.data.length > 0) await out.writeJsonLines(page.data);
    return;
  }
  if (out.json) {
    if (singlePage) {
      for await (const page of pages) await out.writeJson(page);
      return;
    }
    await new JsonArrayWriter(out).writeAll(pages);
    return;
  }

  const style = styleFor(out);
  let count = 0;
  let nextCursor: string | null = null;
  let table: TableLayout | undefined;
  let headerWritten = false;
  for await (const page of pages) {
    const rows = page.data.map((item) => view.row(item, style));
    nextCursor = page.pagination.nextCursor;
    if (!out.tty) await out.write(renderRows(view.columns, rows, !headerWritten, out));
    else if (rows.length > 0) {
      table ??= new TableLayout(out, view.columns, rows);
      await out.write(table.render(rows));
    }
    headerWritten = true;
    count += rows.length;
  }
  if (count === 0) {
    out.note(`No ${view.noun} found.`);
    return;
  }
  if (singlePage && nextCursor !== null) out.note(`More ${view.noun}: run again with --cursor ${shellWord(nextCursor)}`);
}

export { jsonLines } from './output.js';
