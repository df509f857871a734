/** The import journal refuses what it cannot trust: another version's journal, a line broken in the middle. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalFileError } from '../../../src/api/errors.js';
import { Journal, recordDigest } from '../../../src/core/journal.js';
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
        `the journal ${path} does not match its input: record 1 (line 1) is not the one it recorded`,
      );
    } finally {
      journal.close();
    }
  });
});
