/** The import journal refuses what it cannot trust: another version's journal, a line broken in the middle. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalFileError } from '../../../src/base/errors.js';
import { numericDigest } from '../../../src/core/digest-set.js';
import { Journal, recordDigest } from '../../../src/core/import-journal.js';
import { tempDir } from '../../support/temp.js';

const NOW = new Date('2025-06-29T07:47:39.370Z');
const header = (version: number) =>
  JSON.stringify({ journal: 'loopsctl-import', version, kind: 'events', runId: 'r1', input: 'events.jsonl', startedAt: NOW.toISOString() });
const finished = (n: number, source: string) => JSON.stringify({ n, line: n, d: recordDigest(source), status: 'sent' });

function journalFile(lines: string[]): string {
  const path = join(tempDir('loopsctl-journal-'), 'events.jsonl.journal.jsonl');
  writeFileSync(path, lines.map((line) => `${line}\n`).join(''));
  return path;
}

async function refusal(path: string): Promise<LocalFileError> {
  const error = await Journal.open(path, 'events', 'events.jsonl', NOW).then(
    (journal) => {
      journal.close();
      return undefined;
    },
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(LocalFileError);
  return error as LocalFileError;
}

describe('the import journal', () => {
  it('refuses a journal written by another version of loopsctl, leaving it as it was, rather than replaying it', async () => {
    for (const version of [1, 3]) {
      const lines = [header(version), finished(1, 'a'), finished(2, 'b')];
      const path = journalFile(lines);
      const error = await refusal(path);
      expect(error.message).toBe(`the journal ${path} cannot be used: it was written by another version of loopsctl (journal version ${version})`);
      expect(error.hint).toBe('finish the import with the version that started it');
      expect(readFileSync(path, 'utf8')).toBe(lines.map((line) => `${line}\n`).join(''));
    }
  });

  it('refuses a line broken in the middle, naming it; only a last line cut short is repaired', async () => {
    const path = journalFile([header(2), finished(1, 'a'), '{"n": 2, "line": 2, "d": "', finished(3, 'c')]);
    const error = await refusal(path);
    expect(error.message).toBe(`the journal ${path} cannot be used: line 3 is not JSON`);

    const cut = journalFile([header(2), finished(1, 'a')]);
    writeFileSync(cut, `${readFileSync(cut, 'utf8')}{"n": 2, "line": 2, "d": "`);
    const journal = await Journal.open(cut, 'events', 'events.jsonl', NOW);
    try {
      expect(journal.check({ n: 1, line: 1, digest: recordDigest('a') })).toBe('done');
      expect(journal.check({ n: 2, line: 2, digest: recordDigest('b') })).toBe('new');
    } finally {
      journal.close();
    }
    expect(readFileSync(cut, 'utf8')).toBe(`${header(2)}\n${finished(1, 'a')}\n`);
  });

  it('takes a record as done only when its number and digest both match', async () => {
    const path = journalFile([
      header(2),
      finished(1, 'a'),
      JSON.stringify({ n: 2, line: 2, d: recordDigest('b'), status: 'sending' }),
      JSON.stringify({ n: 3, line: 3, d: recordDigest('c'), status: 'failed', message: 'refused' }),
    ]);
    const journal = await Journal.open(path, 'events', 'events.jsonl', NOW);
    try {
      expect(journal.check({ n: 1, line: 1, digest: recordDigest('a') })).toBe('done');
      expect(journal.check({ n: 2, line: 2, digest: recordDigest('b') })).toBe('in-flight');
      expect(journal.check({ n: 3, line: 3, digest: recordDigest('c') })).toBe('failed');
      expect(() => journal.check({ n: 1, line: 1, digest: recordDigest('other') })).toThrow(
        expect.objectContaining({
          message: `the journal ${path} does not match its input: record 1 (line 1) is not the one it recorded`,
          hint: 'a journal goes with the input it was written for, records neither removed nor reordered; give another file with --journal to import this input anew',
        }),
      );
    } finally {
      journal.close();
    }
  });

  it('refuses a file that does not start with a journal header, or holds none', async () => {
    const notJournals = [
      [finished(1, 'a')],
      [JSON.stringify({ journal: 'loopsctl-import', version: 2, kind: 'events' })],
      [JSON.stringify({ journal: 'other', version: 2, kind: 'events', runId: 'r1' })],
      [''],
    ];
    for (const lines of notJournals) {
      const path = journalFile(lines);
      expect((await refusal(path)).message).toBe(`the journal ${path} cannot be used: it is not a loopsctl import journal`);
    }
    // A header cut short by a crash is no header.
    const torn = journalFile([]);
    writeFileSync(torn, header(2).slice(0, 20));
    expect((await refusal(torn)).message).toBe(`the journal ${torn} cannot be used: it is not a loopsctl import journal`);
  });

  it('passes over blank lines, before the header too', async () => {
    const path = journalFile(['', header(2), '  ', finished(1, 'a'), '', finished(2, 'b')]);
    const journal = await Journal.open(path, 'events', 'events.jsonl', NOW);
    try {
      expect(journal.check({ n: 2, line: 2, digest: recordDigest('b') })).toBe('done');
    } finally {
      journal.close();
    }
  });

  it('gives a last whole line its lost line end back, and adds none where it is there', async () => {
    const path = journalFile([header(2)]);
    writeFileSync(path, `${header(2)}\n${finished(1, 'a')}`);
    const journal = await Journal.open(path, 'events', 'events.jsonl', NOW);
    journal.sending({ n: 2, line: 2, digest: recordDigest('b') });
    journal.close();
    const sending = JSON.stringify({ n: 2, line: 2, d: recordDigest('b'), status: 'sending' });
    expect(readFileSync(path, 'utf8')).toBe(`${header(2)}\n${finished(1, 'a')}\n${sending}\n`);
    (await Journal.open(path, 'events', 'events.jsonl', NOW)).close();
    expect(readFileSync(path, 'utf8')).toBe(`${header(2)}\n${finished(1, 'a')}\n${sending}\n`);
  });

  it('keeps what the API returned and why a record failed', async () => {
    const contacts = join(tempDir('loopsctl-journal-'), 'contacts.csv.journal.jsonl');
    const written = await Journal.open(contacts, 'contacts', 'contacts.csv', NOW);
    written.outcome({ n: 1, line: 2, digest: recordDigest('a') }, { status: 'created', id: 'cnt_1' });
    written.outcome({ n: 2, line: 3, digest: recordDigest('b') }, { status: 'failed', message: 'Invalid email', exitCode: 5 });
    written.close();
    expect(
      readFileSync(contacts, 'utf8')
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((line) => JSON.parse(line)),
    ).toEqual([
      { n: 1, line: 2, d: recordDigest('a'), status: 'created', id: 'cnt_1' },
      { n: 2, line: 3, d: recordDigest('b'), status: 'failed', message: 'Invalid email' },
    ]);
  });

  it('writes each line as JSON.stringify writes the entry, a message that needs escaping included', async () => {
    const path = join(tempDir('loopsctl-journal-'), 'contacts.csv.journal.jsonl');
    const written = await Journal.open(path, 'contacts', 'contacts.csv', NOW);
    const record = { n: 12, line: 40, digest: recordDigest('c') };
    const message = 'the "email" field\nis \u0007 wrong: ü \ud83d';
    written.sending(record);
    written.outcome(record, { status: 'skipped', message, id: 'c"1' });
    written.outcome(record, { status: 'created' });
    written.close();
    expect(readFileSync(path, 'utf8').split('\n').slice(1)).toEqual([
      JSON.stringify({ n: 12, line: 40, d: record.digest, status: 'sending' }),
      JSON.stringify({ n: 12, line: 40, d: record.digest, status: 'skipped', id: 'c"1', message }),
      JSON.stringify({ n: 12, line: 40, d: record.digest, status: 'created' }),
      '',
    ]);
  });

  it('digests a record as every version of journal 2 has, the start of its SHA-256 in hex', () => {
    // SHA-256 of "a": ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb. A journal
    // written by an earlier run must still match its input.
    expect(recordDigest('a')).toBe('ca978112ca1b');
    expect(numericDigest('a')).toBe(0xca978112ca1bb);
  });
});
