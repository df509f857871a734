import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalFileError } from '../../../src/base/errors.js';
import { appendEntry, checkJournal, type JournalEntry, journalFiles, KEEP_FILES, readEntries } from '../../../src/config/change-journal-files.js';
import { cutWritesShort } from '../../support/patch-builtin.js';
import { tempDir } from '../../support/temp.js';

const mode = (path: string) => statSync(path).mode & 0o777;

function entry(n: number): JournalEntry {
  return {
    at: new Date(Date.UTC(2026, 10, 1, 0, n)).toISOString(),
    run: 'r',
    baseUrl: 'https://app.loops.so/api',
    who: 'ana',
    via: 'terminal',
    command: 'themes update',
    method: 'POST',
    path: `/v1/themes/t${n}`,
    operation: 'updateTheme',
    kind: 'theme',
    ids: { themeId: `t${n}` },
    revisions: {},
    outcome: 'done',
    status: 200,
  };
}

describe('the journal of changes', () => {
  it('is made private: 0600 files in a 0700 directory, one line per entry, read back oldest first', () => {
    const dir = tempDir();
    appendEntry(dir, entry(1));
    appendEntry(dir, entry(2));
    const [live] = journalFiles(dir);
    expect(mode(join(dir, 'journal'))).toBe(0o700);
    expect(mode(live!)).toBe(0o600);
    expect(readFileSync(live!, 'utf8').split('\n')).toHaveLength(3);
    expect(readEntries(dir).map(({ path }) => path)).toEqual(['/v1/themes/t1', '/v1/themes/t2']);
  });

  it('writes each line whole when the system takes a few bytes at a time', () => {
    const dir = tempDir();
    cutWritesShort();
    appendEntry(dir, entry(1));
    appendEntry(dir, entry(2));
    expect(readEntries(dir).map(({ path }) => path)).toEqual(['/v1/themes/t1', '/v1/themes/t2']);
  });

  it('rotates by size, keeping KEEP_FILES files, the oldest lines dropped, every line whole', () => {
    const dir = tempDir();
    const size = Buffer.byteLength(`${JSON.stringify(entry(10))}\n`);
    // Two entries a file.
    for (let n = 10; n < 10 + 2 * (KEEP_FILES + 2); n += 1) appendEntry(dir, entry(n), size * 2);
    const files = readdirSync(join(dir, 'journal')).filter((name) => name.endsWith('.jsonl'));
    expect(files.sort()).toEqual(
      journalFiles(dir)
        .map((file) => file.split('/').at(-1)!)
        .sort(),
    );
    const kept = readEntries(dir).map(({ path }) => Number(path.slice('/v1/themes/t'.length)));
    expect(kept).toEqual(Array.from({ length: 2 * KEEP_FILES }, (_unused, index) => 10 + 4 + index));
    for (const file of journalFiles(dir)) expect(mode(file)).toBe(0o600);
  });

  it('refuses a journal that is a symbolic link, before anything is written, and writes nothing through it', () => {
    const dir = tempDir();
    const target = join(tempDir(), 'elsewhere');
    writeFileSync(target, '');
    mkdirSync(join(dir, 'journal'), { mode: 0o700 });
    symlinkSync(target, journalFiles(dir)[0]!);
    expect(() => checkJournal(dir)).toThrow(LocalFileError);
    expect(() => checkJournal(dir)).toThrow(/symbolic link; nothing was sent/);
    expect(() => appendEntry(dir, entry(1))).toThrow(LocalFileError);
    expect(readFileSync(target, 'utf8')).toBe('');
    expect(lstatSync(journalFiles(dir)[0]!).isSymbolicLink()).toBe(true);
  });

  it('refuses a journal directory that is a symbolic link', () => {
    const dir = tempDir();
    symlinkSync(tempDir(), join(dir, 'journal'));
    expect(() => checkJournal(dir)).toThrow(/directory is a symbolic link/);
  });

  // Root writes any file: as root (CI) this is skipped, and test/spawned/config/change-journal.test.ts runs it as the user nobody.
  const root = process.getuid?.() === 0;
  it.skipIf(root)(
    `refuses a journal that cannot be written${root ? ' (skipped as root, who writes any file: the spawned journal test runs it as another user)' : ''}`,
    () => {
      const dir = tempDir();
      appendEntry(dir, entry(1));
      chmodSync(journalFiles(dir)[0]!, 0o400);
      expect(() => checkJournal(dir)).toThrow(/cannot be written; nothing was sent/);
    },
  );

  it('refuses a journal that is not a regular file', () => {
    const dir = tempDir();
    mkdirSync(journalFiles(dir)[0]!, { recursive: true });
    expect(() => checkJournal(dir)).toThrow(/not a regular file/);
  });

  it('skips a line cut short, and reads no file through a link', () => {
    const dir = tempDir();
    appendEntry(dir, entry(1));
    writeFileSync(journalFiles(dir)[0]!, '{"at": "2026', { flag: 'a' });
    const elsewhere = join(tempDir(), 'x.jsonl');
    writeFileSync(elsewhere, `${JSON.stringify(entry(7))}\n`);
    symlinkSync(elsewhere, journalFiles(dir)[1]!);
    expect(readEntries(dir).map(({ path }) => path)).toEqual(['/v1/themes/t1']);
  });
});
