/**
 * JSON on a terminal shows the invisible characters that make a name read otherwise (bidi
 * overrides, zero-width characters) as \u escapes, as every other renderer does, and stays valid
 * JSON; on a pipe, JSON is exact.
 */

import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { json, type RecordedRequest, startApiServer } from '../../support/api-server.js';
import { closedAfter } from '../../support/closing.js';
import { envelope, theme } from '../../support/fixtures.js';
import { run } from '../../support/main.js';

const kept = closedAfter(afterEach);
const HOSTILE = 'invoice\u202egnp.exe\u200b\u2066x\u2069\u2028\ufeff';
const SHOWN = 'invoice\\u202egnp.exe\\u200b\\u2066x\\u2069\\u2028\\ufeff';

const HOSTILE_ROUTES = {
  'GET /v1/themes': (_req: RecordedRequest, res: ServerResponse) => json(res, 200, envelope([{ ...theme(1), name: HOSTILE }])),
  'GET /v1/themes/:id': (_req: RecordedRequest, res: ServerResponse) => json(res, 200, { ...theme(1), name: HOSTILE }),
};

async function serverWithHostileNames(route: keyof typeof HOSTILE_ROUTES) {
  const api = kept(await startApiServer({ [route]: HOSTILE_ROUTES[route] }));
  return { LOOPS_API_KEY: 'test-key', LOOPS_BASE_URL: api.url, NO_COLOR: '1' };
}

describe('JSON on a terminal', () => {
  it.each([
    ['themes list --json', ['themes', 'list', '--json'], 'GET /v1/themes'],
    ['themes list --jsonl', ['themes', 'list', '--jsonl'], 'GET /v1/themes'],
    ['themes get --json', ['themes', 'get', 't1', '--json'], 'GET /v1/themes/:id'],
    ['api', ['api', 'themes/t1'], 'GET /v1/themes/:id'],
    ['--jq with an object', ['themes', 'get', 't1', '--jq', '{name}'], 'GET /v1/themes/:id'],
  ] as [string, string[], keyof typeof HOSTILE_ROUTES][])('%s writes invisible characters as \\u escapes, still the same JSON', async (_name, args, route) => {
    const env = await serverWithHostileNames(route);
    const terminal = await run(args, { env, tty: { columns: 100 } });
    expect(terminal.code).toBe(0);
    expect(terminal.stdout).toContain(SHOWN);
    expect(terminal.stdout).not.toMatch(/[\u200b-\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff]/);
    const piped = await run(args, { env });
    expect(piped.stdout).toContain(JSON.stringify(HOSTILE).slice(1, -1));
    // The escaped text reads back as the exact string.
    const firstJson = (text: string) => (args.includes('--jsonl') ? text.split('\n')[0]! : text);
    expect(JSON.stringify(JSON.parse(firstJson(terminal.stdout)))).toBe(JSON.stringify(JSON.parse(firstJson(piped.stdout))));
  });
});
