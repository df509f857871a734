/**
 * The request the write gate judges is the request the sandbox routes. Generated spellings of
 * paths (ids, the API's words, and every spelling a URL parser or a server reads otherwise: `\`,
 * `.` and `..` segments, `%2e`, `%2f`, `%5c`, `//`, control characters, escapes) go through the
 * transport's one making of a target (src/api/http.ts, src/base/request-target.ts), then through
 * the gate's reading of it (the configuration write and the ids it names) and through the
 * sandbox's router (src/emulator/api.ts, from the URL the transport would send): both see the same
 * operation on the same ids, or the spelling is refused before anything is sent.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { HttpTransport } from '../../../src/api/http.js';
import type { RequestPool } from '../../../src/base/node-http.js';
import { UsageError } from '../../../src/base/errors.js';
import { loadSandboxModules, RouteTable } from '../../../src/emulator/api.js';
import { CONFIGURATION_WRITES, configurationWrite } from '../../../src/platform/configuration-writes.js';
import { isIssuedId } from '../../../src/platform/ids.js';
import { judgeWrite } from '../../../src/platform/write-gate.js';

const BASE = 'http://sandbox.invalid/api';

/** One request through the transport as a run sends it: what the write gate is handed to judge, and the URL the sandbox's pool receives. */
async function throughTransport(method: string, path: string): Promise<{ judged: string; url: string } | 'refused'> {
  let judged: string | undefined;
  let url: string | undefined;
  const pool: RequestPool = {
    request: async (sent) => {
      url = sent;
      return { statusCode: 204, headers: {}, text: async () => '', bytes: async () => Buffer.alloc(0) };
    },
    close: async () => undefined,
  };
  const transport = new HttpTransport({
    baseUrl: BASE,
    apiKey: 'test-key-unit',
    userAgent: 'loopsctl/test',
    timeoutMs: 1_000,
    pool,
    beforeWrite: async (_req, target) => {
      judged = `${target.path}${target.search}`;
    },
  });
  try {
    await transport.send({ method: method as 'POST', path, idempotent: false });
  } catch (error) {
    // Refused by the transport, before the gate or the network.
    expect(error).toBeInstanceOf(UsageError);
    expect(url).toBeUndefined();
    return 'refused';
  }
  return { judged: judged!, url: url! };
}

let routes: RouteTable;
beforeAll(async () => {
  routes = new RouteTable(await loadSandboxModules());
});

/** A path template with its parameters unnamed: `/v1/workflows/{}/nodes/{}`, from the sandbox's `:workflowId` or the API's `{workflowId}`. */
const unnamed = (template: string) => template.replace(/[:{]\w+\}?/g, '{}');
const OPERATIONS = new Map(Object.entries(CONFIGURATION_WRITES).map(([operation, { method, path }]) => [`${method} ${unnamed(path)}`, operation]));

/** What the sandbox does with the URL: the operation of the configuration write it routes to, and the ids it takes; undefined where it refuses. */
function sandboxSees(method: string, url: string): { operation?: string; ids: string[]; path: string } | undefined {
  // As the in-process pool and the core read a request's target: its URL's path, below the API's prefix.
  const pathname = new URL(new URL(url).pathname, 'http://sandbox').pathname;
  const path = pathname.startsWith('/api/') ? pathname.slice('/api'.length) : pathname;
  const matched = routes.match(path);
  const route = matched?.route.methods.get(method as never);
  if (matched === undefined || route === undefined) return { ids: [], path };
  const ids = Object.values(matched.params);
  // The router answers 400 for an id of another shape, before any operation runs.
  if (Object.entries(matched.params).some(([name, value]) => (name === 'eventName' ? value === '' : !isIssuedId(value)))) return undefined;
  return { operation: OPERATIONS.get(`${method} ${unnamed(route.path)}`), ids, path };
}

const WORDS = [
  'v1',
  'workflows',
  'nodes',
  'contacts',
  'delete',
  'create',
  'transactional',
  'transactional-emails',
  'publish',
  'draft',
  'themes',
  'components',
  'email-messages',
  'campaigns',
  'campaign-groups',
  'add-branch',
  'reroute',
  'recursive',
  'mailing-list',
  'events',
  'send',
  'suppression',
];
const IDS = ['wf1', 'n_2', 'cDraft-9', 'y'];
const TRICKY = [
  '.',
  '..',
  '%2e',
  '%2E%2e',
  '.%2e',
  '%2f',
  'a%2Fb',
  '%5c',
  'a%5Cb',
  '\\',
  'y\\..\\..\\..\\..\\contacts\\delete',
  '..\\contacts',
  '',
  '%00',
  '\t',
  '\n',
  '\u009b',
  '%41',
  '%',
  '%zz',
  ' ',
  'é',
  '%3F',
  'a?b',
  '#',
  '%23',
  '~',
  'a.b',
  '..a',
  '%2e%2e%2fcontacts',
];

const segment = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...WORDS) },
  { weight: 2, arbitrary: fc.constantFrom(...IDS) },
  fc.constantFrom(...TRICKY),
  fc.string({ maxLength: 4 }),
);
const separator = fc.oneof({ weight: 6, arbitrary: fc.constant('/') }, fc.constantFrom('\\', '//', '/./', '/../'));
/** A spelling of a path: most start as the API's do, `/v1/<resource>/…`. */
const spelling = fc
  .tuple(fc.constantFrom('/v1/', '/v1/', '/'), fc.constantFrom(...WORDS.slice(1)), fc.array(fc.tuple(separator, segment), { maxLength: 8 }))
  .map(([start, resource, rest]) => `${start}${resource}${rest.map(([sep, seg]) => `${sep}${seg}`).join('')}`);

describe('the gate and the sandbox see one request', () => {
  it('sees the same operation on the same ids for every spelling sent, and refuses any other before anything is sent', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('POST', 'DELETE', 'PUT'), spelling, async (method, written) => {
        const sent = await throughTransport(method, written);
        if (sent === 'refused') return;
        const sandbox = sandboxSees(method, sent.url);
        const gate = configurationWrite(method, sent.judged, {});
        if (sandbox === undefined) return;
        // The sandbox routes the very path the gate judges, to the same operation on the same ids.
        expect(sandbox.path).toBe(sent.judged.split('?')[0]);
        expect(sandbox.operation).toBe(gate?.operation);
        if (gate !== undefined) expect(sandbox.ids).toEqual(Object.values(gate.ids));
        // A write the gate takes for something other than a configuration write needs a yes, or is one it knows is quiet.
        if (gate === undefined) expect(['yes', 'nothing']).toContain(judgeWrite(method, sent.judged, {}).needs);
      }),
      { numRuns: 3000 },
    );
  });

  it("refuses the edit of a draft's node written as a contact's delete, and every other spelling that climbs", async () => {
    for (const written of [
      '/v1/workflows/cDraft/nodes/y\\..\\..\\..\\..\\contacts\\delete',
      '/v1/workflows/cDraft/nodes/y/../../../../contacts/delete',
      '/v1/workflows/cDraft/nodes/y%2F..%2F..%2F..%2F..%2Fcontacts%2Fdelete',
      '/v1/workflows/cDraft/nodes/%2e%2e/%2e%2e/%2e%2e/%2e%2e/contacts/delete',
      '/v1/workflows/cDraft/nodes/y%5C..%5C..%5C..%5C..%5Ccontacts%5Cdelete',
      '/v1/workflows/cDraft/nodes//../../../contacts/delete',
    ])
      expect(await throughTransport('POST', written), written).toBe('refused');
  });
});
