/**
 * `uploads create` must send what it checked: a file swapped for a larger one between a look at it
 * and the read (here, right after any stat of the path) is refused before anything is uploaded.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import type { ApiRequest } from '../../../../src/emulator/api.js';
import { run, sandboxEnv, startTestSandbox, tempDir } from '../../../support/main.js';

const swaps = new Map<string, string>();

/** Swaps the path for the file planted beside it, once, as soon as anything has looked at it. */
function swapAfterLook(path: unknown): void {
  const planted = swaps.get(String(path));
  if (planted === undefined) return;
  swaps.delete(String(path));
  renameSync(planted, String(path));
}

vi.mock('node:fs', async (original) => {
  const fs = await original<typeof import('node:fs')>();
  const statSync = ((path: string, ...rest: unknown[]) => {
    const stats = (fs.statSync as (...args: unknown[]) => unknown)(path, ...rest);
    swapAfterLook(path);
    return stats;
  }) as typeof fs.statSync;
  return { ...fs, default: { ...fs, statSync }, statSync };
});
vi.mock('node:fs/promises', async (original) => {
  const fs = await original<typeof import('node:fs/promises')>();
  const stat = (async (path: string, ...rest: unknown[]) => {
    const stats = await (fs.stat as (...args: unknown[]) => Promise<unknown>)(path, ...rest);
    swapAfterLook(path);
    return stats;
  }) as typeof fs.stat;
  return { ...fs, default: { ...fs, stat }, stat };
});

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
  const result = await run(['uploads', 'create', path], { env: sandboxEnv(server) });
  expect(swaps.size).toBe(0);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain('is larger than 4000000 bytes');
  expect(seen).toEqual([]);
});
