/**
 * Which browser `content review --screenshots` runs: the one LOOPSCTL_CHROMIUM names, else the
 * first on PATH, the whole browser before the build of Chromium made to run headless alone.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findChromium, lastError, startChromium } from '../../../../../src/areas/content/review/chromium.js';
import { UsageError } from '../../../../../src/base/errors.js';
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

/** A program that says `lines` on stderr and exits with `code`, as a browser that cannot start does. */
function failing(lines: string[], code: number): string {
  const file = join(tempDir(), 'chromium');
  writeFileSync(file, `#!/bin/sh\n${lines.map((line) => `echo '${line}' >&2\n`).join('')}exit ${code}\n`, { mode: 0o755 });
  return file;
}

async function refusal(program: string): Promise<UsageError> {
  const error = await startChromium(program, process.env).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UsageError);
  return error as UsageError;
}

describe('startChromium, when the browser found does not start', () => {
  it('says the exit code and its last line, and how to see why rather than what to install', async () => {
    const program = failing(['starting', 'no display found'], 3);
    const error = await refusal(program);
    expect(error.message).toBe(`${program} was found but did not start (exit code 3): no display found`);
    expect(error.hint).toContain(`${program} --headless`);
    expect(error.hint).not.toContain('install');
  });

  it('says nothing more than the exit code of one that said nothing', async () => {
    const error = await refusal('/bin/false');
    expect(error.message).toBe('/bin/false was found but did not start (exit code 1)');
    expect(error.hint).not.toContain('install');
  });
});

describe('lastError', () => {
  it("takes Chromium's last fatal line over the crash reporter's lines after it, else the last line", () => {
    const said = [
      '/usr/bin/chromium: 9: [: 1: unexpected operator',
      '[1:1:FATAL:a.cc:315] Socket path too long: /x',
      '[1:ERROR:file_io_posix.cc:145] open /sys',
      '',
    ];
    expect(lastError(said.join('\n'))).toBe('[1:1:FATAL:a.cc:315] Socket path too long: /x');
    expect(lastError('one\n  two  \n\n')).toBe('two');
    expect(lastError('')).toBeUndefined();
  });
});
