/** The pager: which command runs, when paging is off, and quitting it early. */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Output } from '../../../src/render/output.js';
import { isOnPath, pagerCommand, splitCommand, startPager } from '../../../src/render/pager.js';
import { tempDir } from '../../support/temp.js';

function stream(isTTY: boolean, columns?: number) {
  let text = '';
  const writable = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return Object.assign(writable, { isTTY, columns, text: () => text });
}

const tty = stream(true);
const withLess = () => true;
const withoutLess = () => false;

describe('which pager', () => {
  it('is LOOPSCTL_PAGER, else PAGER, else less -FRX when less is on the PATH', () => {
    expect(pagerCommand({ stdout: tty, env: { LOOPSCTL_PAGER: 'most', PAGER: 'more' }, enabled: true, onPath: withLess })).toBe('most');
    expect(pagerCommand({ stdout: tty, env: { PAGER: 'more -s' }, enabled: true, onPath: withLess })).toBe('more -s');
    expect(pagerCommand({ stdout: tty, env: {}, enabled: true, onPath: withLess })).toBe('less -FRX');
    expect(pagerCommand({ stdout: tty, env: {}, enabled: true, onPath: withoutLess })).toBeUndefined();
  });

  it('is not less on a dumb terminal, which less cannot draw on; a pager the person chose still runs', () => {
    expect(pagerCommand({ stdout: tty, env: { TERM: 'dumb' }, enabled: true, onPath: withLess })).toBeUndefined();
    expect(pagerCommand({ stdout: tty, env: { TERM: 'dumb', PAGER: 'cat' }, enabled: true, onPath: withLess })).toBe('cat');
    expect(pagerCommand({ stdout: tty, env: { TERM: 'xterm' }, enabled: true, onPath: withLess })).toBe('less -FRX');
  });

  it('is none under --no-pager, with an empty LOOPSCTL_PAGER or PAGER, or when stdout is not a terminal', () => {
    expect(pagerCommand({ stdout: tty, env: { PAGER: 'more' }, enabled: false, onPath: withLess })).toBeUndefined();
    expect(pagerCommand({ stdout: tty, env: { LOOPSCTL_PAGER: '', PAGER: 'more' }, enabled: true, onPath: withLess })).toBeUndefined();
    expect(pagerCommand({ stdout: tty, env: { PAGER: ' ' }, enabled: true, onPath: withLess })).toBeUndefined();
    expect(pagerCommand({ stdout: stream(false), env: { LOOPSCTL_PAGER: 'most' }, enabled: true, onPath: withLess })).toBeUndefined();
  });

  it('finds a program only as an executable file in a PATH directory', () => {
    const dir = tempDir('loopsctl-path-');
    writeFileSync(join(dir, 'pager-here'), '#!/bin/sh\n');
    chmodSync(join(dir, 'pager-here'), 0o755);
    writeFileSync(join(dir, 'not-executable'), '');
    expect(isOnPath('pager-here', { PATH: `/nonexistent:${dir}` })).toBe(true);
    expect(isOnPath('not-executable', { PATH: dir })).toBe(process.platform === 'win32');
    expect(isOnPath('pager-here', { PATH: '' })).toBe(false);
  });

  it('splits a command line into words, with quotes and backslashes', () => {
    expect(splitCommand('less -R')).toEqual(['less', '-R']);
    expect(splitCommand(`"/opt/my pager/p" --title 'a "b"' c\\ d ""`)).toEqual(['/opt/my pager/p', '--title', 'a "b"', 'c d', '']);
    expect(splitCommand('  ')).toEqual([]);
  });
});

/** A pager written in Node: copies its input (and $LESS) to a file, or quits after its first read, as a person pressing q. */
function fakePager(behaviour: 'copy' | 'quit'): { command: string; file: string } {
  const dir = tempDir('loopsctl-pager-');
  const file = join(dir, 'paged.txt');
  const script = join(dir, 'pager.mjs');
  writeFileSync(
    script,
    behaviour === 'copy'
      ? `import { createWriteStream } from 'node:fs';
const out = createWriteStream(process.argv[2]);
out.write('LESS=' + process.env.LESS + '\\n');
process.stdin.pipe(out);`
      : `process.stdin.once('data', () => process.exit(0));`,
  );
  return { command: `"${process.execPath}" "${script}" "${file}"`, file };
}

describe('startPager', () => {
  it('sends the output through the pager, which sees a terminal of the same width and LESS=FRX', async () => {
    const { command, file } = fakePager('copy');
    const stdout = stream(true, 132);
    const pager = await startPager({ stdout, stderr: stream(false), env: { LOOPSCTL_PAGER: command }, enabled: true });
    expect(pager.stream).not.toBe(stdout);
    const out = new Output({ json: false, color: false, stdout: pager.stream, env: {} });
    expect(out.tty).toBe(true);
    expect(out.columns).toBe(132);
    await out.write('first line\n');
    await out.write('second line\n');
    await pager.close();
    expect(readFileSync(file, 'utf8')).toBe('LESS=FRX\nfirst line\nsecond line\n');
    expect(stdout.text()).toBe('');
  });

  it('keeps a LESS that is set', async () => {
    const { command, file } = fakePager('copy');
    const pager = await startPager({ stdout: stream(true), stderr: stream(false), env: { PAGER: command, LESS: 'R' }, enabled: true });
    await pager.close();
    expect(readFileSync(file, 'utf8')).toBe('LESS=R\n');
  });

  it('ends quietly when the pager is quit before the output is all written', async () => {
    const { command } = fakePager('quit');
    const pager = await startPager({ stdout: stream(true), stderr: stream(false), env: { LOOPSCTL_PAGER: command }, enabled: true });
    const out = new Output({ json: false, color: false, stdout: pager.stream, env: {} });
    // Far more than a pipe holds, so writes are still pending when the pager goes.
    const chunk = `${'x'.repeat(1023)}\n`.repeat(64);
    expect(pager.signal.aborted).toBe(false);
    for (let index = 0; index < 64; index++) await out.write(chunk);
    await pager.close();
    expect(pager.closed).toBe(true);
    // A long listing watches the signal to stop fetching pages nobody will see.
    expect(pager.signal.aborted).toBe(true);
  });

  it('writes straight to stdout without a terminal, under --no-pager, or when the pager cannot start', async () => {
    const { command } = fakePager('copy');
    const pipe = stream(false);
    const direct = await startPager({ stdout: pipe, stderr: stream(false), env: { LOOPSCTL_PAGER: command }, enabled: true });
    expect(direct.stream).toBe(pipe);
    await direct.close();
    expect([direct.closed, direct.signal.aborted]).toEqual([false, false]);
    expect((await startPager({ stdout: tty, stderr: stream(false), env: { LOOPSCTL_PAGER: command }, enabled: false })).stream).toBe(tty);
    const stderr = stream(false);
    const missing = await startPager({ stdout: tty, stderr, env: { LOOPSCTL_PAGER: '/nonexistent/pager --flag' }, enabled: true });
    expect(missing.stream).toBe(tty);
    expect(stderr.text()).toBe('Warning: could not start the pager "/nonexistent/pager --flag"; printing directly.\n');
    await missing.close();
  });
});
