/**
 * `uploads create` must send what it checked: a file swapped for a larger one between a look at it
 * and the read (here, right after any stat of the path; test/support/patch-builtin.ts) is refused
 * before anything is uploaded.
 */
import fs, { renameSync, writeFileSync } from 'node:fs';
import fsPromises from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { ApiRequest } from '../../../../src/emulator/api.js';
import { run, sandboxEnv, startTestSandbox, tempDir } from '../../../support/main.js';
import { patchBuiltin } from '../../../support/patch-builtin.js';

const swaps = new Map<string, string>();

/** Swaps the path for the file planted beside it, once, as soon as anything has looked at it. */
function swapAfterLook(path: unknown): void {
  const planted = swaps.get(String(path));
  if (planted === undefined) return;
  swaps.delete(String(path));
  renameSync(planted, String(path));
}

/** For the rest of the test, a stat of a path (sync or not) makes its swap right after. */
function swapping(): void {
  patchBuiltin(fs, {
    statSync: (statSync) =>
      ((path: string, ...rest: unknown[]) => {
        const stats = (statSync as (...args: unknown[]) => unknown)(path, ...rest);
        swapAfterLook(path);
        return stats;
      }) as typeof statSync,
  });
  patchBuiltin(fsPromises, {
    stat: (stat) =>
      (async (path: string, ...rest: unknown[]) => {
        const stats = await (stat as (...args: unknown[]) => Promise<unknown>)(path, ...rest);
        swapAfterLook(path);
        return stats;
      }) as typeof stat,
  });
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

it('never uploads more than the limit from a file swapped after it was looked at', async () => {
  const seen: ApiRequest[] = [];
  const server = await startTestSandbox({ onRequest: (request) => seen.push(request) });
  closers.push(() => server.close());
  const dir = tempDir();
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(120, 7)]);
  const path = join(dir, 'logo.png');
  writeFileSync(path, png);
  const large = join(dir, 'large.png');
  writeFileSync(large, Buffer.concat([png, Buffer.alloc(6_000_000, 7)]));
  swaps.set(path, large);
  swapping();
  const result = await run(['uploads', 'create', path], { env: sandboxEnv(server) });
  expect(swaps.size).toBe(0);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain('is larger than 4000000 bytes');
  expect(seen).toEqual([]);
});
