/**
 * Which browser `content review --screenshots` runs: the one LOOPSCTL_CHROMIUM names, else the
 * first on PATH, the whole browser before the build of Chromium made to run headless alone.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../../../src/base/errors.js';
import { findChromium } from '../../../../../src/areas/content/review/chromium.js';
import { tempDir } from '../../../../support/temp.js';

function program(dir: string, name: string): string {
  const file = join(dir, name);
  writeFileSync(file, '#!/bin/sh\n', { mode: 0o755 });
  return file;
}

describe('findChromium', () => {
  it('takes the whole browser before the headless build in a directory of PATH, and the headless build alone', () => {
    const empty = tempDir();
    const dir = tempDir();
    const headless = program(dir, 'chromium-headless-shell');
    const whole = program(dir, 'chromium');
    expect(findChromium({ PATH: `${empty}:${dir}` })).toBe(whole);
    rmSync(whole);
    expect(findChromium({ PATH: `${empty}:${dir}` })).toBe(headless);
  });

  it('runs the one LOOPSCTL_CHROMIUM names, whatever PATH holds', () => {
    const dir = tempDir();
    program(dir, 'chromium-headless-shell');
    const named = program(tempDir(), 'my-chrome');
    expect(findChromium({ PATH: dir, LOOPSCTL_CHROMIUM: named })).toBe(named);
  });

  it('says what to install when none is found', () => {
    const refusal = (() => {
      try {
        findChromium({ PATH: tempDir() });
      } catch (error) {
        return error as UsageError;
      }
    })();
    expect(refusal).toBeInstanceOf(UsageError);
    expect(refusal?.message).toBe('screenshots need Chromium, and none was found (on PATH, nor LOOPSCTL_CHROMIUM)');
    expect(refusal?.hint).toContain('apt-get install chromium-headless-shell');
  });
});
