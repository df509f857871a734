/**
 * Every sandbox answer to an operation the published OpenAPI description (1.22.1) covers holds
 * against the schema that description gives for its status, as the contract it derives
 * (test/contract, `npm run contract`) has it; LOOPS_OPENAPI_FILE names another description.
 */
import { describe, expect, it } from 'vitest';
import { publishedDescription, responseProblems, validate } from '../../support/openapi.js';
import { type Caller, freshSandbox, SEED_IDS, seedState } from '../../support/sandbox.js';

const description = publishedDescription();

describe('sandbox answers against the published OpenAPI description', () => {
  const doc = description;

  /** Calls the sandbox and checks the answer against the description; returns the body. */
  function checked(call: Caller, method: string, path: string, options: Parameters<Caller>[2] = {}, expectedStatus = 200): any {
    const answer = call(method, path, options);
    expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(expectedStatus);
    expect(responseProblems(doc, method, path, answer.status, answer.body), `${method} ${path}`).toEqual([]);
    return answer.body;
  }

  function everyPage(call: Caller, path: string): any[] {
    const items: any[] = [];
    let cursor: string | null = null;
    do {
      const body = checked(call, 'GET', path, { query: cursor === null ? { perPage: '10' } : { perPage: '10', cursor } });
      items.push(...body.data);
      cursor = body.pagination.nextCursor;
    } while (cursor !== null);
    return items;
  }

  it('the checker itself catches answers that do not fit', () => {
    const { call } = freshSandbox();
    const page = call('GET', '/v1/themes').body;
    page.data[0].styles.backgroundColor = 5;
    delete page.pagination.nextPage;
    expect(validate(doc, { $ref: '#/components/schemas/ListThemesResponse' }, page)).toEqual([
      '$.pagination: missing required nextPage',
      '$.data[0].styles.backgroundColor: 5 is not of type string',
    ]);
    const node = call('GET', `/v1/workflows/${SEED_IDS.welcomeWorkflow}/nodes/${seedState().workflows[0]!.rootNodeId}`).body;
    expect(validate(doc, { $ref: '#/components/schemas/WorkflowNodeWithRevision' }, { ...node, colour: 'red' })).toContain('$: unexpected field colour');
  });

  it('lists, and the records behind them', () => {
    const { call } = freshSandbox();
    checked(call, 'GET', '/v1/api-key');
    checked(call, 'GET', '/v1/dedicated-sending-ips');
    everyPage(call, '/v1/themes');
    everyPage(call, '/v1/audience-segments');
    everyPage(call, '/v1/transactional-emails');
    for (const group of everyPage(call, '/v1/transactional-groups')) checked(call, 'GET', `/v1/transactional-groups/${group.id}`);
    for (const group of everyPage(call, '/v1/campaign-groups')) checked(call, 'GET', `/v1/campaign-groups/${group.id}`);
    for (const summary of everyPage(call, '/v1/workflows')) {
      const workflow = checked(call, 'GET', `/v1/workflows/${summary.id}`);
      for (const nodeId of Object.keys(workflow.nodes)) checked(call, 'GET', `/v1/workflows/${summary.id}/nodes/${nodeId}`);
    }
  });

  it('changes: create, ensure draft both ways, campaign group update', () => {
    const { call } = freshSandbox();
    const created = checked(call, 'POST', '/v1/transactional-emails', { body: { name: 'Checked' } }, 201);
    checked(call, 'POST', `/v1/transactional-emails/${created.id}/draft`);
    checked(call, 'POST', `/v1/transactional-emails/${SEED_IDS.welcomeEmail}/draft`);
    checked(call, 'POST', `/v1/campaign-groups/${SEED_IDS.newslettersCampaignGroup}`, { body: { name: 'Monthly', description: 'Every month' } });
  });

  it('failures', () => {
    const { call } = freshSandbox();
    checked(call, 'GET', '/v1/themes', { query: { perPage: '5' } }, 400);
    checked(call, 'GET', '/v1/workflows', { query: { cursor: 'unknown' } }, 400);
    checked(call, 'GET', '/v1/transactional-groups/cmissing', {}, 404);
    checked(call, 'GET', '/v1/workflows/cmissing', {}, 404);
    checked(call, 'GET', `/v1/workflows/${SEED_IDS.welcomeWorkflow}/nodes/cmissing`, {}, 404);
    checked(call, 'POST', `/v1/campaign-groups/${SEED_IDS.unsortedCampaignGroup}`, { body: { name: 'Mine' } }, 400);
    checked(call, 'POST', '/v1/transactional-emails', { body: { name: 'x', extra: true } }, 400);
    checked(call, 'POST', '/v1/transactional-emails', { key: 'sandbox-no-domain', body: { name: 'x' } }, 400);
    checked(call, 'POST', '/v1/transactional-emails/cmissing/draft', {}, 404);
    checked(call, 'GET', '/v1/themes', { key: 'wrong' }, 401);
    checked(call, 'GET', '/v1/api-key', { key: 'wrong' }, 401);
    checked(call, 'GET', '/v1/contacts/find', { key: null, query: { email: 'ada@example.com' } }, 401);
    checked(call, 'POST', '/v1/transactional', { body: { transactionalId: 'cmissing', email: 'ada@example.com' } }, 404);
    checked(call, 'POST', '/v1/transactional', { body: { transactionalId: SEED_IDS.draftOnlyEmail, email: 'ada@example.com' } }, 400);
    checked(call, 'POST', '/v1/contacts/create', { body: { email: 'ada@example.com' } }, 409);
    const welcome = call('GET', `/v1/workflows/${SEED_IDS.welcomeWorkflow}`).body;
    checked(
      call,
      'POST',
      `/v1/workflows/${welcome.id}/mailing-list`,
      { body: { expectedRevisionId: welcome.workflowRevisionId, mailingListId: 'cmissing' } },
      400,
    );
    checked(call, 'GET', `/v1/workflows/${seedState().workflows[1]!.id}`, { key: 'sandbox-no-workflows' }, 401);
  });
});
