/**
 * A sandbox in memory that makes its slices and loads its route modules on first use (seedOnUse,
 * what `startSandbox()` starts) answers every route of every module as one that made them all at
 * its start: the same status and body, request after request, so no route is lost to the lazy
 * loading and no slice differs for being made late.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSandboxModules } from '../../../src/emulator/api.js';
import { placeOf } from '../../../src/emulator/module.js';
import type { SandboxServer } from '../../../src/emulator/server.js';
import { startServer } from '../../../src/emulator/server.js';

const NOW = new Date('2026-03-02T10:00:00.000Z');
let onUse: SandboxServer;
let atStart: SandboxServer;

beforeAll(async () => {
  // The lazy one first, before anything of the test has loaded a route module.
  onUse = await startServer({ seedOnUse: true, rateLimit: false, now: () => NOW });
  atStart = await startServer({ rateLimit: false, now: () => NOW });
});
afterAll(async () => {
  await onUse.close();
  await atStart.close();
});

/** The answer, with the server's own origin (in links to next pages) written as <origin>. */
async function ask(server: SandboxServer, method: string, target: string, body: string): Promise<unknown> {
  const answer = await server.answer({
    method,
    target,
    headers: { authorization: 'Bearer sandbox-key', 'content-type': 'application/json' },
    body: Buffer.from(body),
  });
  return JSON.parse(JSON.stringify(answer).replaceAll(server.url, '<origin>'));
}

describe('a sandbox that seeds on use', () => {
  it('starts with no slice made', () => {
    expect(Object.keys(onUse.state()).sort()).toEqual(['seed', 'sequence', 'teamName', 'version']);
  });

  it('answers every route as a sandbox seeded at its start does', async () => {
    // Its first requests find the seed's records, which it makes then.
    for (const target of ['/v1/contacts/find?email=ada%40example.com', '/v1/lists', '/v1/workflows', '/_sandbox/journeys']) {
      const [lazy, eager] = [await ask(onUse, 'GET', target, ''), await ask(atStart, 'GET', target, '')];
      expect(lazy, target).toEqual(eager);
      expect((lazy as { status: number }).status, target).toBe(200);
    }
    const routes = (await loadSandboxModules()).flatMap((module) => module.routes.map(placeOf));
    expect(routes.length).toBeGreaterThan(50);
    for (const route of routes) {
      const target = route.path.replace(/:\w+/g, 'x');
      const body = route.method === 'GET' || route.method === 'DELETE' ? '' : '{}';
      const [lazy, eager] = [await ask(onUse, route.method, target, body), await ask(atStart, route.method, target, body)];
      expect(lazy, `${route.method} ${route.path}`).toEqual(eager);
      // Served by its route: a path no loaded module serves would be a 404 naming the path.
      expect((lazy as { body?: { message?: string } }).body?.message ?? '', `${route.method} ${route.path}`).not.toMatch(/^no such path/);
    }
  });
});
