/**
 * A streaming CSV reader (RFC 4180): comma-separated fields, fields in double quotes may hold
 * commas, line breaks and doubled quotes (""), lines end with LF or CRLF, a leading byte-order mark
 * is dropped, and blank lines are skipped. It holds one record at a time, so memory stays flat
 * whatever the file's size.
 */

export interface CsvRow {
  /** The line the record starts on, from 1. */
  line: number;
  fields: string[];
}

export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`);
  }
}

export async function* csvRows(chunks: AsyncIterable<string>): AsyncGenerator<CsvRow> {
  let fields: string[] = [];
  let field = '';
  /** The record has a field or a character so far (a blank line has neither). */
  let started = false;
  let inQuotes = false;
  /** Inside quotes, a quote was just read: the next character says whether it was an escape. */
  let quotePending = false;
  /** A quoted field closed: only a comma or the end of the line may follow. */
  let closed = false;
  let skipNewline = false;
  let line = 1;
  let recordLine = 1;
  let first = true;

  for await (const chunk of chunks) {
    const text = first && chunk.charCodeAt(0) === 0xfeff ? chunk.slice(1) : chunk;
    first = false;
    const rows: CsvRow[] = [];
    for (let index = 0; index < text.length; index += 1) {
      const char = text[index]!;
      if (skipNewline) {
        skipNewline = false;
        if (char === '\n') continue;
      }
      if (inQuotes) {
        if (quotePending) {
          quotePending = false;
          if (char === '"') {
            field += '"';
            continue;
          }
          inQuotes = false;
          closed = true;
        } else {
          if (char === '"') quotePending = true;
          else {
            if (char === '\n') line += 1;
            field += char;
          }
          continue;
        }
      }
      if (char === ',') {
        fields.push(field);
        field = '';
        closed = false;
        started = true;
      } else if (char === '\n' || char === '\r') {
        skipNewline = char === '\r';
        if (started || field !== '') rows.push({ line: recordLine, fields: [...fields, field] });
        fields = [];
        field = '';
        started = false;
        closed = false;
        line += 1;
        recordLine = line;
      } else if (closed) {
        throw new CsvSyntaxError(line, 'text after the closing quote of a field');
      } else if (char === '"') {
        if (field !== '') throw new CsvSyntaxError(line, 'a quote inside an unquoted field (quote the whole field, and double the quotes in it)');
        inQuotes = true;
        started = true;
      } else {
        field += char;
        started = true;
      }
    }
    yield* rows;
  }
  if (inQuotes && !quotePending) throw new CsvSyntaxError(recordLine, 'a quoted field is not closed');
  if (started || field !== '') yield { line: recordLine, fields: [...fields, field] };
}
