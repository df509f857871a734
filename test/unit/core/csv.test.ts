import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvSyntaxError, csvRows } from '../../../src/core/csv.js';

async function rows(text: string, chunkSize = text.length || 1) {
  async function* chunks() {
    for (let index = 0; index < text.length; index += chunkSize) yield text.slice(index, index + chunkSize);
  }
  const out = [];
  for await (const row of csvRows(chunks())) out.push(row);
  return out;
}

describe('the streaming CSV reader', () => {
  const text = '\ufeffemail,name,note\r\na@example.com,"Smith, Jo","said ""hi"""\r\n\r\nb@example.com,"two\nlines",\n,,\nc@example.com,plain,last';
  const expected = [
    { line: 1, fields: ['email', 'name', 'note'] },
    { line: 2, fields: ['a@example.com', 'Smith, Jo', 'said "hi"'] },
    { line: 4, fields: ['b@example.com', 'two\nlines', ''] },
    { line: 6, fields: ['', '', ''] },
    { line: 7, fields: ['c@example.com', 'plain', 'last'] },
  ];

  it('reads quoted commas, doubled quotes, line breaks in quotes, CRLF, a BOM and blank lines', async () => {
    expect(await rows(text)).toEqual(expected);
  });

  it('gives the same records whatever the chunk boundaries', async () => {
    for (const size of [1, 2, 3, 7]) expect(await rows(text, size)).toEqual(expected);
  });

  it('refuses a stray quote, text after a closing quote, and an unclosed quote, with the line', async () => {
    await expect(rows('a,b\nx"y,z\n')).rejects.toThrow(
      new CsvSyntaxError(2, 'a quote inside an unquoted field (quote the whole field, and double the quotes in it)'),
    );
    await expect(rows('"a"b,c')).rejects.toThrow(CsvSyntaxError);
    await expect(rows('a\n"open,\nstill')).rejects.toMatchObject({ line: 2, reason: 'a quoted field is not closed' });
  });

  it('keeps a quoted empty field as a record', async () => {
    expect(await rows('""\n')).toEqual([{ line: 1, fields: [''] }]);
  });

  it('reads back any records written out, quoted as needed, whatever the chunk boundaries', async () => {
    const cell = fc.string({ unit: fc.constantFrom('a', 'b', ' ', ',', '"', '\n', '\r', 'é', '😀') });
    const quoted = (value: string) => (/[",\r\n]/.test(value) || value === '' ? `"${value.replaceAll('"', '""')}"` : value);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(cell, { minLength: 1, maxLength: 4 }), { maxLength: 6 }),
        fc.constantFrom('\n', '\r\n'),
        fc.integer({ min: 1, max: 9 }),
        async (records, newline, chunkSize) => {
          const text = records.map((fields) => fields.map(quoted).join(',')).join(newline);
          const read = (await rows(text, chunkSize)).map((row) => row.fields);
          expect(read).toEqual(records);
        },
      ),
    );
  });
});
