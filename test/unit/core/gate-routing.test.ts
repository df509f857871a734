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
import { UsageError } from '../../../src/base/errors.js';
import type { RequestPool } from '../../../src/base/node-http.js';
import { loadSandboxModules, RouteTable } from '../../../src/emulator/api.js';
import { placeOf } from '../../../src/emulator/module.js';
import { configurationWrite } from '../../../src/platform/configuration-writes.js';
import { isIssuedId } from '../../../src/platform/ids.js';
import { judgeWrite } from '../../../src/platform/write-gate.js';
import { operationOf, OPERATIONS as REACH, reachingBody, writeOperations } from '../../attack/operations.js';

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
/** Every write of the API's published description, by its method and unnamed template. */
const OPERATIONS = new Map(writeOperations().map(({ operationId, method, template }) => [`${method} ${unnamed(template)}`, operationId]));

/** What a write's declared reach says the gate needs of it (test/attack/operations.ts). */
const NEEDS = { always: 'yes', live: 'live', nothing: 'nothing' } as const;

/** What the sandbox does with the URL: the write of the API it routes to, and the ids it takes; undefined where it refuses. */
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
  return { operation: OPERATIONS.get(`${method} ${unnamed(placeOf(route).path)}`), ids, path };
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
/** A spelling of a path built of words: most start as the API's do, `/v1/<resource>/…`. */
const wordy = fc
  .tuple(fc.constantFrom('/v1/', '/v1/', '/'), fc.constantFrom(...WORDS.slice(1)), fc.array(fc.tuple(separator, segment), { maxLength: 8 }))
  .map(([start, resource, rest]) => `${start}${resource}${rest.map(([sep, seg]) => `${sep}${seg}`).join('')}`);

const WRITES = writeOperations();

/** A write of the API as written, its parameters filled with ids. */
const written = fc
  .tuple(fc.constantFrom(...WRITES), fc.array(fc.constantFrom(...IDS), { minLength: 3, maxLength: 3 }))
  .map(([write, ids]) => ({ method: write.method, path: write.template.replace(/\{\w+\}/g, () => ids.shift()!) }));

/**
 * A write of the API spelled otherwise: a separator replaced, a segment replaced or added, another
 * write's path climbed to from its end (`/../../contacts/delete`), a character percent-encoded.
 */
const edit = fc.oneof(
  fc.tuple(fc.constant('separator' as const), fc.nat(), separator),
  fc.tuple(fc.constant('segment' as const), fc.nat(), segment),
  fc.tuple(fc.constant('insert' as const), fc.nat(), segment),
  fc.tuple(fc.constant('climb' as const), fc.integer({ min: 1, max: 5 }), written, fc.constantFrom('/..', '\\..', '/%2e%2e', '/.%2e')),
  fc.tuple(fc.constant('encode' as const), fc.nat(), fc.constant('')),
);
type Edit = typeof edit extends fc.Arbitrary<infer T> ? T : never;

function edited(path: string, change: Edit): string {
  const [kind, at] = change;
  if (kind === 'climb') {
    const [, steps, other, step] = change;
    return `${path}${step.repeat(steps)}${other.path.replace(/^\/v1/, '')}`;
  }
  const segments = path.split('/');
  const index = 1 + (at % Math.max(1, segments.length - 1));
  if (kind === 'separator') return `${segments.slice(0, index).join('/')}${change[2]}${segments.slice(index).join('/')}`;
  if (kind === 'segment') segments[index] = change[2];
  if (kind === 'insert') segments.splice(index, 0, change[2]);
  if (kind === 'encode') {
    const char = at % path.length;
    return `${path.slice(0, char)}%${path.charCodeAt(char).toString(16).toUpperCase().padStart(2, '0')}${path.slice(char + 1)}`;
  }
  return segments.join('/');
}

/** A request to send: a write of the API as written, or spelled otherwise, or a path of words; its method the write's, mostly. */
const request = fc.oneof(
  { weight: 1, arbitrary: written },
  {
    weight: 3,
    arbitrary: fc
      .tuple(written, fc.array(edit, { minLength: 1, maxLength: 3 }))
      .map(([write, edits]) => ({ ...write, path: edits.reduce(edited, write.path) })),
  },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('POST', 'DELETE', 'PUT'), wordy).map(([method, path]) => ({ method, path })) },
);

describe('the gate and the sandbox see one request', () => {
  it('sees the same operation on the same ids for every spelling sent, and refuses any other before anything is sent', async () => {
    let routed = 0;
    await fc.assert(
      fc.asyncProperty(request, async ({ method, path: written }) => {
        const sent = await throughTransport(method, written);
        if (sent === 'refused') return;
        const sandbox = sandboxSees(method, sent.url);
        if (sandbox === undefined) return;
        // The sandbox routes the very path the gate judges, to the same write of the API, on the same ids.
        expect(sandbox.path).toBe(sent.judged.split('?')[0]);
        const operation = operationOf(method, sent.judged);
        expect(sandbox.operation, sent.judged).toBe(operation);
        const configuration = configurationWrite(method, sent.judged, {});
        if (configuration !== undefined) expect(sandbox.ids).toEqual(Object.values(configuration.ids));
        // And the gate judges it as that write is declared: a send or a delete needs a yes, an edit of what may be live the state of its target.
        const needs = judgeWrite(method, sent.judged, reachingBody(operation)).needs;
        expect(needs, `${method} ${sent.judged}`).toBe(operation === undefined ? 'yes' : NEEDS[REACH[operation]!.reach]);
        if (operation !== undefined) routed += 1;
      }),
      { numRuns: 3000 },
    );
    // Most runs reach a write of the API: the property is held where it matters, not only on paths that route nowhere.
    expect(routed).toBeGreaterThan(500);
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
