/**
 * A write the system cuts short is continued, not left as part of what was meant: the helper, and
 * each file loopsctl writes with it that is read back later as whole (a change's journal line, its
 * before-image, a lock). Every write here takes at most 7 bytes (test/support/patch-builtin.ts).
 */
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockFileFor, takeFileLock } from '../../../src/base/lock.js';
import { writeWholeSync } from '../../../src/base/write-whole.js';
import { keepImage, newImageId, readImage } from '../../../src/config/before-images.js';
import { appendEntry, readEntries, type JournalEntry } from '../../../src/config/change-journal.js';
import { cutWritesShort } from '../../support/patch-builtin.js';
import { tempDir } from '../../support/temp.js';

function writtenBy(write: (fd: number) => void): string {
  const file = join(tempDir(), 'written');
  const fd = openSync(file, 'w');
  try {
    write(fd);
  } finally {
    closeSync(fd);
  }
  return readFileSync(file, 'utf8');
}

describe('writeWholeSync', () => {
  it('writes all of a text, a character of several bytes cut between writes included', () => {
    cutWritesShort();
    const text = 'Grüße, 👋 and “quotes” across the seven-byte writes\n';
    expect(writtenBy((fd) => writeWholeSync(fd, text))).toBe(text);
  });

  it('writes all of a buffer', () => {
    cutWritesShort();
    const bytes = Buffer.from('0123456789'.repeat(10));
    expect(writtenBy((fd) => writeWholeSync(fd, bytes))).toBe(bytes.toString());
  });
});

describe('the files read back as whole, when the system writes a few bytes at a time', () => {
  const entry: JournalEntry = {
    at: '2026-11-01T00:00:00.000Z',
    run: 'r',
    baseUrl: 'https://app.loops.so/api',
    who: 'ana',
    via: 'terminal',
    command: 'themes update',
    method: 'POST',
    path: '/v1/themes/t1',
    operation: 'updateTheme',
    kind: 'theme',
    ids: { themeId: 't1' },
    revisions: {},
    outcome: 'done',
    status: 200,
  };

  it('a line of the journal of changes', () => {
    const dir = tempDir();
    cutWritesShort();
    appendEntry(dir, entry);
    appendEntry(dir, { ...entry, path: '/v1/themes/t2' });
    expect(readEntries(dir).map((each) => each.path)).toEqual(['/v1/themes/t1', '/v1/themes/t2']);
  });

  it('a before-image, which an undo puts back', () => {
    const dir = tempDir();
    const id = newImageId(new Date(Date.UTC(2026, 10, 1)));
    const image = { records: [{ id: 't1', name: 'A theme whose image is longer than a write' }] };
    cutWritesShort();
    keepImage(dir, id, image);
    expect(readImage(dir, id)).toEqual(image);
  });

  it('a lock, which a run that waits for it reads', () => {
    const target = join(tempDir(), 'change.json');
    cutWritesShort();
    const release = takeFileLock(target);
    try {
      expect(JSON.parse(readFileSync(lockFileFor(target), 'utf8'))).toMatchObject({ pid: process.pid });
    } finally {
      release();
    }
    expect(readdirSync(join(target, '..'))).toEqual([]);
  });
});
