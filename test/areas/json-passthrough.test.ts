/**
 * `--json` prints the API's answer exactly, fields loopsctl does not know included, for every
 * get, create and update of the content areas.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { json, startApiServer, type ApiServer } from '../support/api-server.js';
import { run } from '../support/main.js';

const time = '2025-06-29T07:47:39.370Z';
const later = { futureField: { nested: [1, 'two'] } };
const group = { id: 'g1', name: 'Onboarding', description: '', createdAt: time, updatedAt: time, ...later };
const segment = { id: 's1', name: 'Pro', description: null, createdAt: time, updatedAt: time, filter: { match: 'all', conditions: [{ type: 'future', weight: 3 }] }, ...later };
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
  [['segments', 'create', '--name', 'Pro', '--filter-file', '-'], 'POST /v1/audience-segments', segment, '{"match":"all","conditions":[{"type":"optIn","status":"accepted"}]}'],
  [['groups', 'create', '--name', 'Onboarding'], 'POST /v1/transactional-groups', group],
  [['groups', 'update', 'g1', '--name', 'Onboarding'], 'POST /v1/transactional-groups/:id', group],
  [['campaign-groups', 'create', '--name', 'Onboarding'], 'POST /v1/campaign-groups', group],
  [['event-patterns', 'get', 'e1'], 'GET /v1/event-patterns/:id', eventPattern],
  [['event-patterns', 'get', '--name', 'signed_up'], 'GET /v1/event-patterns/by-name/:name', eventPattern],
];

let server: ApiServer;
beforeAll(async () => {
  server = await startApiServer();
  for (const [, route, body] of cases) server.route(route, (_req, res) => json(res, route.startsWith('POST /v1/campaigns') && !route.includes(':') ? 201 : 200, body));
});
afterAll(() => server.close());

it.each(cases)('%j --json prints the answer unchanged, and text works too', async (argv, _route, body, input) => {
  const env = { LOOPS_API_KEY: 'test-key-not-real', LOOPS_BASE_URL: server.url };
  const result = await run([...argv, '--json'], { env, input });
  expect(result.code).toBe(0);
  expect(result.json()).toEqual(body);
  const text = await run(argv, { env, input });
  expect(text.code).toBe(0);
  expect(text.stdout).not.toBe('');
});
