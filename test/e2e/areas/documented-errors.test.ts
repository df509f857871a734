/**
 * Every documented failure status of the campaign, component, theme, segment, group and event
 * pattern operations, answered by a local server: each ends in the exit code the README gives,
 * keeps the API's message, and says what to do next. Statuses come from the published description.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiServer, json, startApiServer } from '../../support/api-server.js';
import { run } from '../../support/main.js';
import { publishedDescription } from '../../support/openapi.js';

const doc = publishedDescription();

const EXIT_CODES: Record<number, number> = { 400: 5, 401: 3, 404: 4, 405: 5, 409: 5, 413: 5, 422: 5 };

interface Case {
  argv: string[];
  /** The description's path template and method. */
  operation: [method: 'get' | 'post', template: string];
  /** The path the request goes to, as the server matches it. */
  route: string;
  input?: string;
  contentApi?: boolean;
}

const FILTER = '{"match":"all","conditions":[{"type":"property","key":"plan","operator":"equals","value":"pro"}]}';

const cases: Case[] = [
  { argv: ['campaigns', 'list'], operation: ['get', '/v1/campaigns'], route: 'GET /v1/campaigns', contentApi: true },
  { argv: ['campaigns', 'get', 'c1'], operation: ['get', '/v1/campaigns/{campaignId}'], route: 'GET /v1/campaigns/:id', contentApi: true },
  { argv: ['campaigns', 'create', '--name', 'N'], operation: ['post', '/v1/campaigns'], route: 'POST /v1/campaigns', contentApi: true },
  { argv: ['campaigns', 'update', 'c1', '--name', 'N'], operation: ['post', '/v1/campaigns/{campaignId}'], route: 'POST /v1/campaigns/:id', contentApi: true },
  { argv: ['components', 'list'], operation: ['get', '/v1/components'], route: 'GET /v1/components', contentApi: true },
  { argv: ['components', 'get', 'p1'], operation: ['get', '/v1/components/{componentId}'], route: 'GET /v1/components/:id', contentApi: true },
  {
    argv: ['components', 'create', '--name', 'N', '--lmx-file', '-'],
    input: '<Paragraph>x</Paragraph>',
    operation: ['post', '/v1/components'],
    route: 'POST /v1/components',
    contentApi: true,
  },
  {
    argv: ['components', 'update', 'p1', '--name', 'N'],
    operation: ['post', '/v1/components/{componentId}'],
    route: 'POST /v1/components/:id',
    contentApi: true,
  },
  { argv: ['themes', 'list'], operation: ['get', '/v1/themes'], route: 'GET /v1/themes', contentApi: true },
  { argv: ['segments', 'list'], operation: ['get', '/v1/audience-segments'], route: 'GET /v1/audience-segments', contentApi: true },
  { argv: ['groups', 'list'], operation: ['get', '/v1/transactional-groups'], route: 'GET /v1/transactional-groups', contentApi: true },
  { argv: ['campaign-groups', 'list'], operation: ['get', '/v1/campaign-groups'], route: 'GET /v1/campaign-groups', contentApi: true },
  { argv: ['themes', 'get', 't1'], operation: ['get', '/v1/themes/{themeId}'], route: 'GET /v1/themes/:id', contentApi: true },
  { argv: ['themes', 'create', '--name', 'N'], operation: ['post', '/v1/themes'], route: 'POST /v1/themes', contentApi: true },
  { argv: ['themes', 'update', 't1', '--name', 'N'], operation: ['post', '/v1/themes/{themeId}'], route: 'POST /v1/themes/:id', contentApi: true },
  {
    argv: ['segments', 'get', 's1'],
    operation: ['get', '/v1/audience-segments/{audienceSegmentId}'],
    route: 'GET /v1/audience-segments/:id',
    contentApi: true,
  },
  {
    argv: ['segments', 'create', '--name', 'N', '--filter-file', '-'],
    input: FILTER,
    operation: ['post', '/v1/audience-segments'],
    route: 'POST /v1/audience-segments',
    contentApi: true,
  },
  { argv: ['groups', 'create', '--name', 'N'], operation: ['post', '/v1/transactional-groups'], route: 'POST /v1/transactional-groups', contentApi: true },
  {
    argv: ['groups', 'update', 'g1', '--name', 'N'],
    operation: ['post', '/v1/transactional-groups/{transactionalGroupId}'],
    route: 'POST /v1/transactional-groups/:id',
    contentApi: true,
  },
  { argv: ['campaign-groups', 'create', '--name', 'N'], operation: ['post', '/v1/campaign-groups'], route: 'POST /v1/campaign-groups', contentApi: true },
  { argv: ['event-patterns', 'list'], operation: ['get', '/v1/event-patterns'], route: 'GET /v1/event-patterns' },
  { argv: ['event-patterns', 'get', 'e1'], operation: ['get', '/v1/event-patterns/{eventPatternId}'], route: 'GET /v1/event-patterns/:id' },
  {
    argv: ['event-patterns', 'get', '--name', 'signed_up'],
    operation: ['get', '/v1/event-patterns/by-name/{eventName}'],
    route: 'GET /v1/event-patterns/by-name/:name',
  },
];

/** The failure statuses the description documents for an operation. */
function documentedFailures(method: string, template: string): number[] {
  const responses = doc.paths[template]?.[method]?.responses;
  if (responses === undefined) throw new Error(`${method} ${template} is not in the description`);
  return Object.keys(responses)
    .map(Number)
    .filter((status) => status >= 400);
}

describe('documented failures', () => {
  let server: ApiServer;
  let status = 0;
  beforeAll(async () => {
    server = await startApiServer();
    for (const { route } of cases) server.route(route, (_req, res) => json(res, status, { message: `refused with ${status}` }));
  });
  afterAll(() => server.close());

  const rows = cases.flatMap((entry) =>
    documentedFailures(...entry.operation).map((failure) => ({ ...entry, failure, name: `${entry.argv.join(' ')} → ${failure}` })),
  );

  it.each(rows)('$name', async ({ argv, input, failure, contentApi }) => {
    status = failure;
    const result = await run(['--retries', '0', ...argv], { env: { LOOPS_API_KEY: 'test-key-not-real', LOOPS_BASE_URL: server.url }, input });
    expect(result.code).toBe(EXIT_CODES[failure]);
    expect(result.stderr).toContain(`Error: refused with ${failure}`);
    if (failure === 401 && contentApi) expect(result.stderr).toContain('content API is not enabled');
    if (failure === 404 || failure === 409 || failure === 413 || failure === 422)
      expect(result.stderr).toMatch(/Hint: .*(loopsctl|LMX|variables|case-sensitive)/);
  });
});
