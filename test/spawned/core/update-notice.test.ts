/**
 * The update notice, end to end: the built CLI on a pseudo-terminal, its feed a server on
 * 127.0.0.1 (LOOPSCTL_UPDATE_URL) that counts the requests it gets. What only the process shows is
 * here: the notice as the last line on the screen, a process that ends with its command's code
 * whatever the feed does, and the runs the bin answers from the build's files. Which versions it
 * announces, how often it asks, and the words and settings that keep it silent are decided in-process
 * (test/unit/core/update-notice.test.ts).
 */
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countingFeedForTests } from '../../support/release-feed.js';
import { spawnCli } from '../../support/run-cli.js';
import { runInTerminal, script } from '../../support/run-in-terminal.js';
import { tempDir } from '../../support/temp.js';

const feed = countingFeedForTests();

const json = (body: unknown) => (response: ServerResponse) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));

/** `commands` on a terminal, with a cache directory of its own unless one is given. */
async function run(env: Record<string, string> = {}, args = ['commands']) {
  const cache = env.XDG_CACHE_HOME ?? tempDir('loopsctl-cache-');
  const before = feed.requests();
  const result = await runInTerminal(args, { LOOPSCTL_UPDATE_URL: feed.url(), XDG_CACHE_HOME: cache, ...env });
  return { ...result, requests: feed.requests() - before, cache };
}

const NOTICE = /A newer loopsctl is out: 9\.0\.0 \(this is \d+\.\d+\.\d+\)\. Upgrade with: git pull && npm ci && npm run build\n$/;

describe.skipIf(script.skip)(script.title('the update notice'), () => {
  it('says once a day, after the output, that a newer version is out and how to upgrade this copy', async () => {
    feed.answer(json({ version: '9.0.0' }));
    // The feed answers: a loaded machine's slow start must not cut it off at the 1.5 s a person waits.
    const first = await run({ LOOPSCTL_UPDATE_TIMEOUT: '100' });
    expect(first.code).toBe(0);
    expect(first.requests).toBe(1);
    expect(first.stdout).toMatch(/themes list/);
    // The last line, after the output: a clone, so the upgrade is a pull and a build.
    expect(first.stdout).toMatch(NOTICE);
    expect(JSON.parse(readFileSync(join(first.cache, 'loopsctl', 'update-check.json'), 'utf8'))).toMatchObject({ latest: '9.0.0' });
    const again = await run({ XDG_CACHE_HOME: first.cache });
    expect(again.requests).toBe(0);
    expect(again.stdout).not.toContain('A newer loopsctl');
  });

  it.each([
    ['fails', (response: ServerResponse) => response.writeHead(500).end()],
    ['never answers', () => {}],
  ])('is silent when the feed %s, and the command keeps its exit code', async (_, respond) => {
    feed.answer(respond);
    const result = await run();
    expect(result.requests).toBe(1);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('A newer loopsctl');
    expect(result.stdout).toMatch(/themes list[\s\S]*\n$/);
  });

  it.each([
    ['for the completion script, which a shell sources at every start', ['completion', 'bash']],
    ['for help, printed from the build’s page', ['themes', '--help']],
  ])('sends nothing %s', async (_, args) => {
    feed.answer(json({ version: '9.0.0' }));
    const result = await run({}, args);
    expect(result.code).toBe(0);
    expect(result.requests).toBe(0);
    expect(result.stdout).not.toContain('A newer loopsctl');
  });
});

it('sends nothing when stderr is not a terminal', async () => {
  feed.answer(json({ version: '9.0.0' }));
  const before = feed.requests();
  const result = await spawnCli(['commands'], { env: { LOOPSCTL_UPDATE_URL: feed.url(), DO_NOT_TRACK: undefined } });
  expect(result.code).toBe(0);
  expect(feed.requests() - before).toBe(0);
  expect(result.stderr).toBe('');
});
