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

const COMMA = 0x2c;
const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

export async function* csvRows(chunks: AsyncIterable<string>): AsyncGenerator<CsvRow> {
  const reader = new CsvReader();
  for await (const chunk of chunks) yield* reader.read(chunk);
  const last = reader.end();
  if (last !== undefined) yield last;
}

/**
 * The reader's state between chunks, and the scan of one chunk: a plain method, apart from the
 * generator, so that the engine optimizes the scan once, on its own.
 */
class CsvReader {
  private fields: string[] = [];
  private field = '';
  /** The record has a field or a character so far (a blank line has neither). */
  private started = false;
  private inQuotes = false;
  /** Inside quotes, a quote was just read: the next character says whether it was an escape. */
  private quotePending = false;
  /** A quoted field closed: only a comma or the end of the line may follow. */
  private closed = false;
  /** Characters are being taken into the field, in a run that a chunk's end carries over. */
  private taking = false;
  private skipNewline = false;
  private line = 1;
  private recordLine = 1;
  private first = true;

  /** The records that end in this chunk. */
  read(chunk: string): CsvRow[] {
    const text = this.first && chunk.charCodeAt(0) === 0xfeff ? chunk.slice(1) : chunk;
    this.first = false;
    const rows: CsvRow[] = [];
    let { fields, field, started, inQuotes, quotePending, closed, taking, skipNewline, line, recordLine } = this;
    // A field's characters are taken as slices of the chunk, from `run` to where the run ends,
    // rather than one character at a time.
    let run = taking ? 0 : -1;
    for (let index = 0; index < text.length; index += 1) {
      const code = text.charCodeAt(index);
      if (skipNewline) {
        skipNewline = false;
        if (code === LF) continue;
      }
      if (inQuotes) {
        if (quotePending) {
          quotePending = false;
          if (code === QUOTE) {
            // A doubled quote: the second one is the field's character, and a run starts with it.
            run = index;
            taking = true;
            continue;
          }
          inQuotes = false;
          closed = true;
        } else {
          if (code === QUOTE) {
            if (run >= 0) field += text.slice(run, index);
            run = -1;
            taking = false;
            quotePending = true;
          } else if (code === LF) line += 1;
          continue;
        }
      }
      if (code === COMMA) {
        if (run >= 0) field += text.slice(run, index);
        run = -1;
        taking = false;
        fields.push(field);
        field = '';
        closed = false;
        started = true;
      } else if (code === LF || code === CR) {
        if (run >= 0) field += text.slice(run, index);
        run = -1;
        taking = false;
        skipNewline = code === CR;
        if (started || field !== '') {
          fields.push(field);
          rows.push({ line: recordLine, fields });
        }
        fields = [];
        field = '';
        started = false;
        closed = false;
        line += 1;
        recordLine = line;
      } else if (closed) {
        throw new CsvSyntaxError(line, 'text after the closing quote of a field');
      } else if (code === QUOTE) {
        if (field !== '' || (run >= 0 && run < index))
          throw new CsvSyntaxError(line, 'a quote inside an unquoted field (quote the whole field, and double the quotes in it)');
        inQuotes = true;
        started = true;
        run = index + 1;
        taking = true;
      } else {
        if (run < 0) {
          run = index;
          taking = true;
        }
        started = true;
      }
    }
    if (run >= 0) field += text.slice(run);
    Object.assign(this, { fields, field, started, inQuotes, quotePending, closed, taking, skipNewline, line, recordLine });
    return rows;
  }

  /** The last record, when the input does not end with a line end. */
  end(): CsvRow | undefined {
    if (this.inQuotes && !this.quotePending) throw new CsvSyntaxError(this.recordLine, 'a quoted field is not closed');
    if (!this.started && this.field === '') return undefined;
    this.fields.push(this.field);
    return { line: this.recordLine, fields: this.fields };
  }
}
