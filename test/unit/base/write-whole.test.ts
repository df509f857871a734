/**
 * A write the system cuts short is continued, not left as part of what was meant (the files
 * written with it have tests of their own: the journal of changes, the before-images, the locks).
 * Every write here takes at most 7 bytes (test/support/patch-builtin.ts).
 */
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeWholeSync } from '../../../src/base/write-whole.js';
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
    expect(writtenBy((fd) => writeWholeSync(fd, text, 'written'))).toBe(text);
  });

  it('writes all of a buffer', () => {
    cutWritesShort();
    const bytes = Buffer.from('0123456789'.repeat(10));
    expect(writtenBy((fd) => writeWholeSync(fd, bytes, 'written'))).toBe(bytes.toString());
  });
});
