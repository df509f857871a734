/**
 * `--json` prints the API's data exactly as the API sent it: the same keys in the same order,
 * fields loopsctl does not know included, for every command that prints the API's JSON. The
 * answers are arranged so that a copy made from them would differ: their keys come in the reverse
 * of the order the schemas (and the sandbox) give them, and they carry fields no schema knows. So
 * printing zod's parsed copy instead of the answer as received, which reorders keys and may drop
 * fields, fails here, where a comparison that ignores key order (toEqual) would not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specs } from '../../../src/areas/registry.js';
import { walkSpecs } from '../../../src/core/declare.js';
import { type ApiServer, json, startApiServer } from '../../support/api-server.js';
import { run, sandboxEnv, startTestSandbox } from '../../support/main.js';
import { words } from '../../support/shell-words.js';

/** A field no schema knows, nested so that its own order counts too. */
const UNKNOWN = { zeta: [2, 'two', { y: null, x: true }], alpha: 'kept' };

/** The value with every object's keys in reverse order, and objects with an id given the unknown field first. */
function scrambled(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(scrambled);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value)
    .reverse()
    .map(([key, inner]) => [key, scrambled(inner)] as const);
  return Object.fromEntries('id' in value || 'pagination' in value ? [['futureField', UNKNOWN], ...entries] : entries);
}

/** The value with its keys sorted at every level: equal for two values that differ only in key order. */
function canonical(value: unknown): string {
  const sorted = (inner: unknown): unknown =>
    Array.isArray(inner)
      ? inner.map(sorted)
      : inner !== null && typeof inner === 'object'
        ? Object.fromEntries(
            Object.entries(inner)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([key, item]) => [key, sorted(item)]),
          )
        : inner;
  return JSON.stringify(sorted(value));
}

/** Every value an answer holds that a command may print whole: the answer, and a page's or an array's items. */
function printable(bodies: unknown[]): unknown[] {
  return bodies.flatMap((body) => {
    if (Array.isArray(body)) return [body, ...body];
    const data = (body as { data?: unknown } | null)?.data;
    return Array.isArray(data) ? [body, ...data] : [body];
  });
}

/** Keys that loopsctl documents adding to what the API sent: the record a metric is of, a send's key. */
const ADDED = ['transactionalId', 'campaignId', 'workflowId', 'nodeId', 'idempotencyKey'];

/**
 * Each value printed (stdout as one JSON value, or as JSON Lines; an array's items one by one) is
 * an answer the API sent, byte for byte once indented the same way: its keys in the API's order.
 */
function expectPassedThrough(stdout: string, bodies: unknown[], what: string): void {
  const printed: unknown[] = [];
  try {
    printed.push(JSON.parse(stdout));
  } catch {
    for (const line of stdout.split('\n').filter((line) => line !== '')) printed.push(JSON.parse(line));
  }
  const sent = printable(bodies);
  // Each answer's canonical form once, not again for every value printed.
  const canonicalSent = sent.map(canonical);
  const sentAs = (value: unknown) => {
    const form = canonical(value);
    return sent.filter((_, index) => canonicalSent[index] === form);
  };
  const units = printed.flatMap((value) => (Array.isArray(value) && sentAs(value).length === 0 ? value : [value]));
  expect(units.length, what).toBeGreaterThan(0);
  for (const unit of units) {
    const added =
      unit !== null && typeof unit === 'object' && !Array.isArray(unit)
        ? Object.fromEntries(Object.entries(unit).filter(([key]) => !ADDED.includes(key)))
        : unit;
    const variants = [unit, added];
    const match = variants.flatMap((variant) => sentAs(variant).map((answer) => [variant, answer] as const))[0];
    expect(match, `${what}: printed ${JSON.stringify(unit).slice(0, 300)} is no answer the API sent`).toBeDefined();
    expect(JSON.stringify(match![0], null, 2), what).toBe(JSON.stringify(match![1], null, 2));
  }
}

// Records of the content areas, with fields of their own that loopsctl does not know, from a server of the test's.
const time = '2025-06-29T07:47:39.370Z';
const later = { futureField: { nested: [1, 'two'] } };
const group = { id: 'g1', name: 'Onboarding', description: '', createdAt: time, updatedAt: time, ...later };
const segment = {
  id: 's1',
  name: 'Pro',
  description: null,
  createdAt: time,
  updatedAt: time,
  filter: { match: 'all', conditions: [{ type: 'future', weight: 3 }] },
  ...later,
};
const campaign = {
  id: 'c1',
  name: 'Spring',
  status: 'Paused',
  createdAt: time,
  updatedAt: time,
  emailMessageId: null,
  campaignGroupId: null,
  mailingListId: null,
  audienceSegmentId: null,
  audienceFilter: null,
  scheduling: { method: 'now', timestamp: null },
  ...later,
};
const theme = { id: 't1', name: 'Plain', styles: { backgroundColor: '#fff', newStyle: 1 }, isDefault: false, createdAt: time, updatedAt: time, ...later };
const component = { id: 'p1', name: 'Header', lmx: '<Paragraph>Hi</Paragraph>', ...later };
const eventPattern = { id: 'e1', eventName: 'signed_up', eventProperties: [], incomingWebhookPlatform: null, ...later };

const cases: [argv: string[], route: string, body: unknown, input?: string][] = [
  [['campaigns', 'get', 'c1'], 'GET /v1/campaigns/:id', campaign],
  [['campaigns', 'create', '--name', 'Spring'], 'POST /v1/campaigns', { ...campaign, emailMessageContentRevisionId: 'r1' }],
  [['campaigns', 'update', 'c1', '--name', 'Spring'], 'POST /v1/campaigns/:id', campaign],
  [['components', 'get', 'p1'], 'GET /v1/components/:id', component],
  [['components', 'create', '--name', 'Header', '--lmx-file', '-'], 'POST /v1/components', component, '<Paragraph>Hi</Paragraph>'],
  [['components', 'update', 'p1', '--name', 'Header'], 'POST /v1/components/:id', { ...component, affectedEmailCount: 2 }],
  [['themes', 'get', 't1'], 'GET /v1/themes/:id', theme],
  [['themes', 'create', '--name', 'Plain'], 'POST /v1/themes', theme],
  [['themes', 'update', 't1', '--name', 'Plain'], 'POST /v1/themes/:id', { ...theme, affectedEmailCount: 0 }],
  [['segments', 'get', 's1'], 'GET /v1/audience-segments/:id', segment],
  [
    ['segments', 'create', '--name', 'Pro', '--filter-file', '-'],
    'POST /v1/audience-segments',
    segment,
    '{"match":"all","conditions":[{"type":"optIn","status":"accepted"}]}',
  ],
  [['groups', 'create', '--name', 'Onboarding'], 'POST /v1/transactional-groups', group],
  [['groups', 'update', 'g1', '--name', 'Onboarding'], 'POST /v1/transactional-groups/:id', group],
  [['campaign-groups', 'create', '--name', 'Onboarding'], 'POST /v1/campaign-groups', group],
  [['event-patterns', 'get', 'e1'], 'GET /v1/event-patterns/:id', eventPattern],
  [['event-patterns', 'get', '--name', 'signed_up'], 'GET /v1/event-patterns/by-name/:name', eventPattern],
];

let server: ApiServer;
beforeAll(async () => {
  server = await startApiServer();
  for (const [, route, body] of cases)
    server.route(route, (_req, res) => json(res, route.startsWith('POST /v1/campaigns') && !route.includes(':') ? 201 : 200, scrambled(body)));
});
afterAll(() => server.close());

it.each(cases)('%j --json prints the answer byte for byte, and text works too', async (argv, _route, body, input) => {
  const env = { LOOPS_API_KEY: 'test-key-not-real', LOOPS_BASE_URL: server.url };
  const result = await run([...argv, '--json'], { env, input });
  expect(result.code).toBe(0);
  expect(result.stdout).toBe(`${JSON.stringify(scrambled(body), null, 2)}\n`);
  const text = await run(argv, { env, input });
  expect(text.code).toBe(0);
  expect(text.stdout).not.toBe('');
});

interface Run {
  argv: string[];
  input?: string;
}

describe('--json of every command that prints the API data, against a sandbox whose answers are scrambled', () => {
  /** Commands whose --json is loopsctl's own report, built from what the API said, not the API's data, or that print no JSON. */
  const OWN_REPORTS = new Map([
    ['ips check', '{inSync, added, removed}: the comparison with the file'],
    ['contacts import', 'the import summary'],
    ['events import', 'the import summary'],
    ['auth login', 'stores a key: not run against a sandbox'],
    ['auth status', 'where the key comes from, and the team'],
    ['uploads create', 'reads a file: its two answers are covered by the uploads tests'],
    ['mcp', 'a server on stdio, not a printer of JSON: its tools are covered by test/e2e/areas/mcp/mcp.test.ts'],
    ['workflow delete', 'the API answers 204 with no body, so --json prints nothing (test/e2e/areas/workflows/delete.test.ts)'],
    ['content pull', 'the records written, in files the content tests check against the API (test/e2e/areas/content)'],
    ['content diff', 'the records that differ, with patches: a report of its own'],
    ['content push', 'the records sent, and what Guardian said: a report of its own'],
    ['content promote', "the records sent to --to's account: push's report (test/e2e/areas/content/environments-promote.test.ts)"],
    ['apply', 'the records a plan file changed: a report of its own (test/e2e/areas/apply/apply.test.ts)'],
    ['undo', 'the records the inverse plan of a change put back: the report apply makes (test/e2e/areas/undo/undo.test.ts)'],
    ['content check', 'the problems of local files, with --account checked against the account: a report of its own (test/e2e/areas/content/check.test.ts)'],
    ['content render', 'the HTML made from a local file, with what it could not fill: a report of its own (test/e2e/areas/content/render.test.ts)'],
    ['content convert', 'the records made from local emails, with what could not be carried: a report of its own (test/e2e/areas/content/convert.test.ts)'],
    ['check', 'the problems found in the account, one object each: a report of its own (test/e2e/areas/check/check.test.ts)'],
    ['types', "a TypeScript module made from the account's records, not their JSON (test/e2e/areas/types/types.test.ts)"],
    ['doctor', 'a check of the install, the key, the API and the clock: a report of its own (test/e2e/areas/doctor/doctor.test.ts)'],
    ['content review', 'the emails a change shows differently, compared as recipients see them: a report of its own (test/e2e/areas/content/review.test.ts)'],
    ['workflow test', 'the journeys and emails of a run in a throwaway sandbox: a report of its own (test/e2e/areas/workflows/test-command.test.ts)'],
    ['metrics snapshot', 'the store, the time the counters were taken at and the emails kept: a report of its own (test/e2e/areas/metrics/history.test.ts)'],
    ['metrics experiments', "each experiment judged from its variants' counters: rates, lifts, tests, verdicts (test/e2e/areas/metrics/experiments.test.ts)"],
    ['deliveries reconcile', "the account's counters set against the journal's events, with each gap (test/e2e/areas/deliveries/reconcile.test.ts)"],
  ]);
  const commands = walkSpecs(specs).filter(({ path, spec }) => spec.remote && !spec.hidden && !OWN_REPORTS.has(path.join(' ')));

  /** Runs for commands whose examples all need a pipe or a file, or only preview (--dry-run). */
  const EXTRA = new Map<string, Run[]>([
    ['components create', [{ argv: ['components', 'create', '--name', 'Sign-off', '--lmx-file', '-'], input: '<Paragraph>Thanks for reading</Paragraph>' }]],
    [
      'segments create',
      [
        {
          argv: ['segments', 'create', '--name', 'Pro plan', '--filter-file', '-'],
          input: '{"match":"all","conditions":[{"type":"optIn","status":"accepted"}]}',
        },
      ],
    ],
    ['workflow nodes delete', [{ argv: ['workflow', 'nodes', 'delete', 'cw509z9tjxv56rte3vt30437u', 'c3qbrs0pv0lkyjx2b5agp7gce', '--recursive', '--yes'] }]],
  ]);

  /** The command's examples that run as they are, with --json (or --jsonl) added. */
  function runnable(examples: string[]): Run[] {
    return examples
      .filter((line) => !/[|<>$`]|\.\.\.|--(jq|lmx|plain|format|dry-run|cursor)\b/.test(line))
      .map((line) =>
        words(line)
          .slice(1)
          .filter((word) => word !== '--sandbox'),
      )
      .map((argv) => ({ argv }));
  }

  it.each(commands.map(({ path, spec }) => [path.join(' '), [...runnable(spec.examples), ...(EXTRA.get(path.join(' ')) ?? [])]] as const))(
    '%s',
    async (name, runs) => {
      let passed = 0;
      for (const { argv: given, input } of runs) {
        const argv = given.includes('--json') || given.includes('--jsonl') ? given : [...given, '--json'];
        const bodies: unknown[] = [];
        const sandbox = await startTestSandbox({
          onRequest: (_request, answer) => {
            if (answer.status >= 300) return;
            answer.body = scrambled(answer.body);
            bodies.push(answer.body);
          },
        });
        try {
          const result = await run(argv, { env: sandboxEnv(sandbox), input });
          if (result.code !== 0) continue;
          expectPassedThrough(result.stdout, bodies, argv.join(' '));
          passed += 1;
        } finally {
          await sandbox.close();
        }
      }
      // Every such command is covered by at least one of its examples.
      expect(passed, `${name}: no example ran with --json`).toBeGreaterThan(0);
    },
  );
});
