/**
 * `content convert --upload` downloads images from other hosts, which may answer 429 or 503 with a
 * Retry-After. A wait is honoured up to the cap the API's own is held to (a minute); a host that
 * asks for longer (a day) ends that image's download at once, listed with what the host asked,
 * rather than holding the run for days.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxServer } from '../../../../src/emulator/server.js';
import { run, sandboxEnv, startTestSandbox, tempDir } from '../../../support/main.js';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);

let sandbox: SandboxServer;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

/** An image host that answers each path's first GET with `status` and the Retry-After given, and then the image. */
async function busyHost(status: number, retryAfter: Record<string, string>) {
  const seen: string[] = [];
  const server = createServer((request, response) => {
    const path = request.url ?? '';
    seen.push(path);
    if (seen.filter((one) => one === path).length === 1 && retryAfter[path] !== undefined)
      return response.writeHead(status, { 'content-type': 'text/plain', 'retry-after': retryAfter[path] }).end('busy');
    return response.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function convertImages(origin: string, names: string[]) {
  const source = tempDir('loopsctl-convert-src-');
  mkdirSync(source, { recursive: true });
  writeFileSync(join(source, 'welcome.html'), `<html><body>${names.map((name) => `<img src="${origin}/${name}" alt="${name}">`).join('')}</body></html>`);
  const out = join(tempDir('loopsctl-convert-out-'), 'loops');
  // The host is on loopback: fetched only as the person allows.
  const result = await run(['content', 'convert', join(source, 'welcome.html'), '--out', out, '--upload', '--allow-private-links', '--json'], {
    env: sandboxEnv(sandbox),
  });
  const listed =
    result.code === 70 ? [] : JSON.parse(result.stdout).records[0].remediation.filter((item: { construct: string }) => item.construct.startsWith('--upload'));
  return { result, listed: listed.map((item: { construct: string; done: string }) => `${item.construct}: ${item.done}`) as string[] };
}

describe('content convert --upload, from a host that asks to wait', () => {
  it('gives up on an image whose host asks for a day (429 or 503), asking it once, and says what it asked', async () => {
    for (const status of [429, 503]) {
      const host = await busyHost(status, { '/day.png': '86400', '/date.png': new Date(Date.now() + 3 * 86_400_000).toUTCString() });
      try {
        const { result, listed } = await convertImages(host.origin, ['day.png', 'date.png']);
        // The images not uploaded fail the run (exit 1), each listed with why.
        expect(result.code, result.stderr).toBe(1);
        expect(result.stderr).toBe('');
        expect(host.seen).toEqual(['/day.png', '/date.png']);
        expect(listed).toHaveLength(2);
        expect(listed[0]).toMatch(
          new RegExp(
            `^--upload ${host.origin}/day\\.png: not uploaded: .*the host of ${host.origin}/day\\.png asks to wait 86400 s before the next request, longer than loopsctl waits \\(60 s\\)`,
          ),
        );
        expect(listed[1]).toMatch(/asks to wait 2\d{5} s before the next request, longer than loopsctl waits \(60 s\)/);
      } finally {
        await host.close();
      }
    }
  });

  it('waits as asked for a host that asks for no longer than the API may, and uploads the image', async () => {
    const host = await busyHost(429, { '/second.png': '1' });
    try {
      const { result, listed } = await convertImages(host.origin, ['second.png']);
      expect(result.code, result.stderr).toBe(0);
      expect(host.seen).toEqual(['/second.png', '/second.png']);
      expect(listed).toEqual([]);
    } finally {
      await host.close();
    }
  });
});
