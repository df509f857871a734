/**
 * The update notice in this process (src/core/update-notice.ts, update-check.ts): which versions
 * it announces, how often it asks the feed, and that a feed that fails is asked no more often than
 * one that answers. Its feed is a server on 127.0.0.1 that counts the requests it gets; the clock
 * is the runtime's. test/spawned/core/update-notice.test.ts runs it on a real terminal.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../../../src/base/version.js';
import type { Runtime } from '../../../src/core/runtime.js';
import { compareVersions } from '../../../src/core/update-check.js';
import { noticeUpdate } from '../../../src/core/update-notice.js';
import { countingFeedForTests, latestVersion } from '../../support/release-feed.js';
import { tempDir } from '../../support/temp.js';

const feed = countingFeedForTests();

const failing = (response: ServerResponse) => response.writeHead(503).end('down');

const DAY_MS = 24 * 60 * 60 * 1000;
const NOON = new Date('2026-11-24T12:00:00.000Z');

/** One run's notice, on a terminal, at `now`, with this cache directory: what it wrote on stderr, and how many requests the feed got. */
async function notice(
  cache: string,
  now = NOON,
  {
    tty = true,
    env = {},
    argv = ['themes', 'list'],
    installed = true,
  }: { tty?: boolean; env?: Record<string, string>; argv?: string[]; installed?: boolean } = {},
): Promise<{ stderr: string; requests: number }> {
  let stderr = '';
  const terminal = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        stderr += String(chunk);
        done();
      },
    }),
    { isTTY: tty },
  );
  const runtime = {
    stderr: terminal,
    env: { XDG_CACHE_HOME: cache, LOOPSCTL_UPDATE_URL: feed.url(), HOME: cache, ...env },
    now: () => now,
    signal: new AbortController().signal,
    platform: process.platform,
    installation: installed ? { method: 'clone', directory: cache, node: process.version } : undefined,
  } as unknown as Runtime;
  const before = feed.requests();
  await noticeUpdate(runtime, argv);
  return { stderr, requests: feed.requests() - before };
}

const lastCheckFile = (cache: string) => join(cache, 'loopsctl', 'update-check.json');

function checkedAt(cache: string, at: Date, latest: string | null = VERSION): void {
  mkdirSync(join(cache, 'loopsctl'), { recursive: true });
  writeFileSync(lastCheckFile(cache), JSON.stringify({ checkedAt: at.toISOString(), latest }));
}

describe('the versions it announces', () => {
  it('this version is the one the tests are built as', () => {
    expect(VERSION).toMatch(/^0\.1\.\d+$/);
  });

  it.each(['1.0.0', '0.2.0', '0.10.0', '0.1.99'])('announces %s, newer in its major, minor or patch number', async (version) => {
    feed.answer(latestVersion(version));
    const result = await notice(tempDir('loopsctl-cache-'));
    expect(result.requests).toBe(1);
    expect(result.stderr).toBe(`A newer loopsctl is out: ${version} (this is ${VERSION}). Upgrade with: git pull && npm ci && npm run build\n`);
  });

  it.each(['0.0.9', '0.1.0', VERSION])('says nothing of %s, which is not newer', async (version) => {
    feed.answer(latestVersion(version));
    const result = await notice(tempDir('loopsctl-cache-'));
    expect(result).toEqual({ stderr: '', requests: 1 });
  });

  it('reads a GitHub release’s tag (v0.2.0) as a version', async () => {
    feed.answer((response) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ tag_name: 'v0.2.0' })));
    const result = await notice(tempDir('loopsctl-cache-'));
    expect(result.stderr).toContain('A newer loopsctl is out: 0.2.0 ');
  });

  // A version goes to the terminal as it is: only three numbers are one (no escape sequence, no pre-release).
  it.each([
    ['a pre-release', '1.0.0-beta.1'],
    ['a word', 'latest'],
    ['a version followed by escape sequences', '99.0.0\u001b]0;title\u0007\u001b[2J'],
    ['a version in a sentence', 'now 99.0.0'],
    ['four numbers', '99.0.0.1'],
    ['a v after the numbers', '99.0.0v'],
  ])('says nothing of %s', async (_kind, version) => {
    feed.answer(latestVersion(version));
    const cache = tempDir('loopsctl-cache-');
    expect(await notice(cache)).toEqual({ stderr: '', requests: 1 });
    expect(JSON.parse(readFileSync(lastCheckFile(cache), 'utf8'))).toEqual({ checkedAt: NOON.toISOString(), latest: null });
  });

  it('says nothing of an answer that is not JSON', async () => {
    feed.answer((response) => response.writeHead(200).end('<html>not json'));
    expect(await notice(tempDir('loopsctl-cache-'))).toEqual({ stderr: '', requests: 1 });
  });

  it('says nothing of a version named in an error’s answer', async () => {
    for (const status of [404, 500]) {
      feed.answer((response) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ version: '99.0.0' })));
      expect(await notice(tempDir('loopsctl-cache-'))).toEqual({ stderr: '', requests: 1 });
    }
  });

  it('compares each of the three numbers, as numbers', () => {
    expect(compareVersions('0.2.0', '0.1.0')).toBeGreaterThan(0);
    expect(compareVersions('0.1.1', '0.1.0')).toBeGreaterThan(0);
    expect(compareVersions('0.1.10', '0.1.9')).toBeGreaterThan(0);
    expect(compareVersions('1.0.0', '0.9.9')).toBeGreaterThan(0);
    expect(compareVersions('0.1.0', '0.2.0')).toBeLessThan(0);
    expect(compareVersions('0.1.0', '0.1.0')).toBe(0);
  });
});

describe('how often it asks', () => {
  it('asks once a day: not a moment before the last check is a day old, and again once it is', async () => {
    feed.answer(latestVersion('0.2.0'));
    const cache = tempDir('loopsctl-cache-');
    checkedAt(cache, NOON);
    expect(await notice(cache)).toEqual({ stderr: '', requests: 0 });
    checkedAt(cache, new Date(NOON.getTime() - DAY_MS + 1));
    expect(await notice(cache)).toEqual({ stderr: '', requests: 0 });
    checkedAt(cache, new Date(NOON.getTime() - DAY_MS));
    expect((await notice(cache)).requests).toBe(1);
    expect(JSON.parse(readFileSync(lastCheckFile(cache), 'utf8'))).toEqual({ checkedAt: NOON.toISOString(), latest: '0.2.0' });
    expect((await notice(cache, new Date(NOON.getTime() + DAY_MS - 1))).requests).toBe(0);
  });

  it('asks again when the last check is from the future (a clock set back)', async () => {
    feed.answer(latestVersion(VERSION));
    const cache = tempDir('loopsctl-cache-');
    checkedAt(cache, new Date(NOON.getTime() + 60_000));
    expect((await notice(cache)).requests).toBe(1);
  });

  it('asks a feed that fails no more often than one that answers: once a day', async () => {
    feed.answer(failing);
    const cache = tempDir('loopsctl-cache-');
    expect(await notice(cache)).toEqual({ stderr: '', requests: 1 });
    expect(JSON.parse(readFileSync(lastCheckFile(cache), 'utf8'))).toEqual({ checkedAt: NOON.toISOString(), latest: null });
    expect(await notice(cache, new Date(NOON.getTime() + 60_000))).toEqual({ stderr: '', requests: 0 });
    expect((await notice(cache, new Date(NOON.getTime() + DAY_MS))).requests).toBe(1);
  });

  it('gives up on a feed that never answers, and asks it again no sooner than a day later', async () => {
    // The run ends on its own (a notice that waited for the feed would hold the command past its output).
    feed.answer(() => {});
    const cache = tempDir('loopsctl-cache-');
    expect(await notice(cache)).toEqual({ stderr: '', requests: 1 });
    expect(JSON.parse(readFileSync(lastCheckFile(cache), 'utf8'))).toEqual({ checkedAt: NOON.toISOString(), latest: null });
    expect((await notice(cache, new Date(NOON.getTime() + 60_000))).requests).toBe(0);
  });

  it('does not ask when stderr is not a terminal, in CI, or with LOOPSCTL_NO_UPDATE_NOTIFIER or DO_NOT_TRACK set', async () => {
    feed.answer(latestVersion('0.2.0'));
    expect(await notice(tempDir('loopsctl-cache-'), NOON, { tty: false })).toEqual({ stderr: '', requests: 0 });
    expect(await notice(tempDir('loopsctl-cache-'), NOON, { env: { CI: '1' } })).toEqual({ stderr: '', requests: 0 });
    expect(await notice(tempDir('loopsctl-cache-'), NOON, { env: { LOOPSCTL_NO_UPDATE_NOTIFIER: '1' } })).toEqual({ stderr: '', requests: 0 });
    expect(await notice(tempDir('loopsctl-cache-'), NOON, { env: { DO_NOT_TRACK: '1' } })).toEqual({ stderr: '', requests: 0 });
  });

  it('does not ask for output a program reads, for the completion script, for help, or for a copy it cannot say how to upgrade', async () => {
    feed.answer(latestVersion('0.2.0'));
    for (const argv of [
      ['themes', 'list', '--json'],
      ['themes', 'list', '--jq', '.'],
      ['themes', 'list', '-o', 'json'],
      ['themes', 'list', '--output', 'json'],
      ['themes', 'list', '--output=json'],
      ['themes', 'list', '-ojson'],
      ['completion', 'bash'],
      ['themes', 'list', '--help'],
      ['themes', '-h'],
      ['help', 'themes'],
    ]) {
      expect(await notice(tempDir('loopsctl-cache-'), NOON, { argv })).toEqual({ stderr: '', requests: 0 });
    }
    expect(await notice(tempDir('loopsctl-cache-'), NOON, { installed: false })).toEqual({ stderr: '', requests: 0 });
    // And asks for the same command's text output.
    expect((await notice(tempDir('loopsctl-cache-'), NOON, { argv: ['themes', 'list'] })).requests).toBe(1);
  });
});
