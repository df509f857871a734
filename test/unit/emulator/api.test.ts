import { describe, expect, it, vi } from 'vitest';
import { transactionalEmails } from '../../../src/emulator/routes/transactional.js';
import { NODE_TYPES } from '../../../src/platform/workflows/node-types.js';
import { type Caller, freshSandbox, SEED_IDS, sandboxCaller, seedState } from '../../support/sandbox.js';

const FIXED_NOW = new Date('2025-05-06T07:08:09.010Z');

function allPages(call: Caller, path: string, perPage?: number, key?: string): { id: string }[] {
  const items: { id: string }[] = [];
  let cursor: string | null = null;
  do {
    const query: Record<string, string> = {};
    if (perPage !== undefined) query.perPage = String(perPage);
    if (cursor !== null) query.cursor = cursor;
    const answer = call('GET', path, { query, key });
    expect(answer.status).toBe(200);
    items.push(...answer.body.data);
    cursor = answer.body.pagination.nextCursor;
  } while (cursor !== null);
  return items;
}

describe('sandbox keys', () => {
  const call = sandboxCaller();

  it('answers GET /v1/api-key with the team for every sandbox key', () => {
    for (const key of ['sandbox-key', 'sandbox-no-content', 'sandbox-no-workflows', 'sandbox-no-domain']) {
      expect(call('GET', '/v1/api-key', { key })).toMatchObject({ status: 200, body: { success: true, teamName: 'Acme Sandbox' } });
    }
  });

  it('refuses a missing or unknown key with 401 and a message', () => {
    for (const key of [null, 'sk_live_not_a_sandbox_key', '']) {
      const answer = call('GET', '/v1/themes', { key });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ message: expect.any(String) });
    }
  });

  const contentOperations: [string, string, unknown?][] = [
    ['GET', '/v1/transactional-emails'],
    ['POST', '/v1/transactional-emails', { name: 'Hello' }],
    ['POST', `/v1/transactional-emails/${SEED_IDS.passwordReset}/draft`],
    ['GET', '/v1/transactional-groups'],
    ['GET', `/v1/transactional-groups/${SEED_IDS.defaultTransactionalGroup}`],
    ['GET', '/v1/campaign-groups'],
    ['GET', `/v1/campaign-groups/${SEED_IDS.newslettersCampaignGroup}`],
    ['POST', `/v1/campaign-groups/${SEED_IDS.newslettersCampaignGroup}`, { description: 'x' }],
  ];
  const workflowOperations: [string, string][] = [
    ['GET', '/v1/workflows'],
    ['GET', `/v1/workflows/${SEED_IDS.welcomeWorkflow}`],
    ['GET', `/v1/workflows/${SEED_IDS.welcomeWorkflow}/nodes/${seedState().workflows[0]!.rootNodeId}`],
  ];
  const openOperations: [string, string][] = [
    ['GET', '/v1/themes'],
    ['GET', '/v1/audience-segments'],
    ['GET', '/v1/dedicated-sending-ips'],
    ['GET', `/v1/transactional-emails/${SEED_IDS.passwordReset}/metrics`],
  ];

  it('sandbox-no-content: 401 on transactional emails and groups, the rest works', () => {
    for (const [method, path, body] of contentOperations) {
      expect(sandboxCaller()(method, path, { key: 'sandbox-no-content', body }).status, `${method} ${path}`).toBe(401);
    }
    for (const [method, path] of [...workflowOperations, ...openOperations]) {
      expect(call(method, path, { key: 'sandbox-no-content' }).status, `${method} ${path}`).toBe(200);
    }
  });

  it('sandbox-no-workflows: 401 on workflow operations, the rest works', () => {
    for (const [method, path] of workflowOperations) {
      const answer = call(method, path, { key: 'sandbox-no-workflows' });
      expect(answer.status, path).toBe(401);
      expect(answer.body.message).toMatch(/workflow API/);
    }
    for (const [method, path, body] of contentOperations) {
      expect(sandboxCaller()(method, path, { key: 'sandbox-no-workflows', body }).status, `${method} ${path}`).toBeLessThan(300);
    }
  });

  it('sandbox-no-domain: 400 on create, and on a draft that has to be made', () => {
    const { call: domainless } = freshSandbox();
    const created = domainless('POST', '/v1/transactional-emails', { key: 'sandbox-no-domain', body: { name: 'Hello' } });
    expect(created.status).toBe(400);
    expect(created.body.message).toMatch(/sending domain/);
    const drafted = domainless('POST', `/v1/transactional-emails/${SEED_IDS.welcomeEmail}/draft`, { key: 'sandbox-no-domain' });
    expect(drafted.status).toBe(400);
    expect(drafted.body.message).toMatch(/sending domain/);
    // A draft that exists needs no sending domain: it is returned as it is.
    expect(domainless('POST', `/v1/transactional-emails/${SEED_IDS.passwordReset}/draft`, { key: 'sandbox-no-domain' }).status).toBe(200);
    expect(domainless('GET', '/v1/transactional-emails', { key: 'sandbox-no-domain' }).body.pagination.totalResults).toBe(5);
  });
});

describe('sandbox pagination', () => {
  const call = sandboxCaller();
  const lists = ['/v1/themes', '/v1/transactional-groups', '/v1/campaign-groups', '/v1/transactional-emails', '/v1/workflows', '/v1/audience-segments'];

  it('pages through every list, most recently created first, with no item twice', () => {
    for (const path of lists) {
      const all = allPages(call, path, 10);
      expect(new Set(all.map((item) => item.id)).size, path).toBe(all.length);
      const created = all.map((item) => (item as { createdAt?: string }).createdAt ?? '');
      expect(created, path).toEqual([...created].sort().reverse());
      expect(allPages(call, path), path).toEqual(all);
    }
  });

  it('uses 20 by default and fills the envelope', () => {
    const first = call('GET', '/v1/themes');
    expect(first.body.pagination).toEqual({
      totalResults: 26,
      returnedResults: 20,
      perPage: 20,
      totalPages: 2,
      nextCursor: expect.any(String),
      nextPage: expect.stringContaining(first.body.pagination.nextCursor),
    });
    const last = call('GET', '/v1/themes', { query: { cursor: first.body.pagination.nextCursor } });
    expect(last.body.pagination).toMatchObject({ returnedResults: 6, nextCursor: null, nextPage: null });
  });

  it('accepts perPage from 10 to 50 and refuses anything else with 400', () => {
    expect(call('GET', '/v1/themes', { query: { perPage: '10' } }).body.data).toHaveLength(10);
    expect(call('GET', '/v1/themes', { query: { perPage: '50' } }).body.data).toHaveLength(26);
    for (const perPage of ['9', '51', '0', '-10', '20.5', 'ten', '']) {
      const answer = call('GET', '/v1/themes', { query: { perPage } });
      expect(answer.status, perPage).toBe(400);
      expect(answer.body.message).toMatch(/perPage/);
    }
  });

  it('refuses a cursor it never issued with 400', () => {
    for (const cursor of ['nope', '', Buffer.from('cmissing').toString('base64url'), `${call('GET', '/v1/themes').body.pagination.nextCursor}=`]) {
      const answer = call('GET', '/v1/themes', { query: { cursor } });
      expect(answer.status, cursor).toBe(400);
      expect(answer.body.message).toMatch(/cursor/);
    }
  });
});

describe('sandbox paths and methods', () => {
  const call = sandboxCaller();

  it('answers 404 with a message for an unknown id of every resource', () => {
    const paths = [
      '/v1/transactional-emails/cmissing/metrics',
      '/v1/transactional-emails/cmissing/draft',
      '/v1/transactional-groups/cmissing',
      '/v1/campaign-groups/cmissing',
      '/v1/workflows/cmissing',
      `/v1/workflows/cmissing/nodes/${seedState().workflows[0]!.rootNodeId}`,
      `/v1/workflows/${SEED_IDS.welcomeWorkflow}/nodes/cmissing`,
      '/v1/no-such-thing',
    ];
    for (const path of paths) {
      const method = path.endsWith('/draft') ? 'POST' : 'GET';
      const answer = call(method, path);
      expect(answer.status, path).toBe(404);
      expect(answer.body).toEqual({ message: expect.any(String) });
    }
  });

  it('answers 405 with Allow for a wrong method on a known path', () => {
    const cases: [string, string, string][] = [
      ['DELETE', '/v1/themes', 'GET, POST'],
      ['DELETE', '/v1/campaign-groups/cx', 'GET, POST'],
      ['GET', `/v1/transactional-emails/${SEED_IDS.passwordReset}/draft`, 'POST'],
      ['PUT', `/v1/transactional-emails/${SEED_IDS.passwordReset}/metrics`, 'GET'],
      ['POST', '/v1/dedicated-sending-ips', 'GET'],
    ];
    for (const [method, path, allow] of cases) {
      const answer = call(method, path);
      expect(answer.status, `${method} ${path}`).toBe(405);
      expect(answer.headers?.allow).toBe(allow);
      expect(answer.body.message).toEqual(expect.any(String));
    }
  });

  it('answers 400 for an invalid id in a path', () => {
    for (const id of ['bad%20id', 'semi%3Bcolon', '%2E%2E', 'x'.repeat(129)]) {
      const answer = call('GET', `/v1/transactional-emails/${id}/metrics`);
      expect(answer.status, id).toBe(400);
      expect(answer.body.message).toMatch(/invalid transactionalId/);
    }
  });
});

describe('creating a transactional email', () => {
  it('answers 201 with an empty draft in the default group, and lists it first', () => {
    const onChange = vi.fn();
    const { call } = freshSandbox({ now: () => FIXED_NOW, onChange });
    const answer = call('POST', '/v1/transactional-emails', { body: { name: 'Account deleted' } });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      id: expect.stringMatching(/^c[a-z0-9]{24}$/),
      url: `https://app.loops.so/transactional/${answer.body.id}`,
      name: 'Account deleted',
      draftEmailMessageId: expect.stringMatching(/^c[a-z0-9]{24}$/),
      draftEmailMessageContentRevisionId: expect.stringMatching(/^c[a-z0-9]{24}$/),
      publishedEmailMessageId: null,
      transactionalGroupId: SEED_IDS.defaultTransactionalGroup,
      createdAt: FIXED_NOW.toISOString(),
      updatedAt: FIXED_NOW.toISOString(),
      dataVariables: [],
    });
    expect(new Set([answer.body.id, answer.body.draftEmailMessageId, answer.body.draftEmailMessageContentRevisionId]).size).toBe(3);
    expect(onChange).toHaveBeenCalledTimes(1);
    const listed = call('GET', '/v1/transactional-emails').body;
    expect(listed.pagination.totalResults).toBe(6);
    expect(listed.data[0]).toEqual({ ...answer.body, draftEmailMessageContentRevisionId: undefined });
    expect(call('GET', `/v1/transactional-emails/${answer.body.id}/metrics`).body).toEqual({
      sends: 0,
      deliveries: 0,
      spamReports: 0,
      hardBounces: 0,
      softBounces: 0,
    });
    const again = call('POST', '/v1/transactional-emails', { body: { name: 'Account deleted' } });
    expect(again.body.id).not.toBe(answer.body.id);
  });

  it('puts it in the group given', () => {
    const { call } = freshSandbox();
    const groupId = call('GET', '/v1/transactional-groups').body.data[3].id;
    expect(call('POST', '/v1/transactional-emails', { body: { name: 'Invite', transactionalGroupId: groupId } }).body.transactionalGroupId).toBe(groupId);
  });

  it('refuses a bad body with 400 and changes nothing', () => {
    const onChange = vi.fn();
    const { call } = freshSandbox({ onChange });
    const bodies: [unknown, RegExp][] = [
      [{ name: 'x', subject: 'Hi' }, /unknown field.*subject/],
      [{}, /missing field.*name/],
      [{ name: 42 }, /name must be a string/],
      [{ name: '  ' }, /name must not be empty/],
      [{ name: 'x', transactionalGroupId: 'cmissing' }, /group cmissing does not exist/],
      [{ name: 'x', transactionalGroupId: null }, /transactionalGroupId must be a string/],
      [['name'], /JSON object/],
      ['{"name":', /not valid JSON/],
    ];
    for (const [body, message] of bodies) {
      const answer = call('POST', '/v1/transactional-emails', { body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.message).toMatch(message);
    }
    expect(onChange).not.toHaveBeenCalled();
    expect(call('GET', '/v1/transactional-emails').body.pagination.totalResults).toBe(5);
  });
});

describe('ensuring a draft', () => {
  it('returns the record unchanged when a draft exists', () => {
    const onChange = vi.fn();
    const { api, call } = freshSandbox({ onChange });
    const before = transactionalEmails.of(api.state).find((email) => email.record.id === SEED_IDS.passwordReset)!.record;
    const answer = call('POST', `/v1/transactional-emails/${SEED_IDS.passwordReset}/draft`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject(before);
    expect(call('POST', `/v1/transactional-emails/${SEED_IDS.passwordReset}/draft`, { body: {} }).body).toEqual(answer.body);
    expect(onChange).not.toHaveBeenCalled();
  });

  it('makes a new draft from the published version when there is none', () => {
    const onChange = vi.fn();
    const { api, call } = freshSandbox({ onChange, now: () => FIXED_NOW });
    const before = structuredClone(transactionalEmails.of(api.state).find((email) => email.record.id === SEED_IDS.welcomeEmail)!.record);
    expect(before.draftEmailMessageId).toBeNull();
    const answer = call('POST', `/v1/transactional-emails/${SEED_IDS.welcomeEmail}/draft`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      ...before,
      url: `https://app.loops.so/transactional/${SEED_IDS.welcomeEmail}`,
      draftEmailMessageId: expect.stringMatching(/^c[a-z0-9]{24}$/),
      draftEmailMessageContentRevisionId: expect.stringMatching(/^c[a-z0-9]{24}$/),
      updatedAt: FIXED_NOW.toISOString(),
    });
    expect(answer.body.publishedEmailMessageId).toBe(before.publishedEmailMessageId);
    expect(answer.body.dataVariables).toEqual(before.dataVariables);
    expect(onChange).toHaveBeenCalledTimes(1);
    // The second call finds the draft the first one made.
    expect(call('POST', `/v1/transactional-emails/${SEED_IDS.welcomeEmail}/draft`).body).toEqual(answer.body);
    expect(onChange).toHaveBeenCalledTimes(1);
  });

  it('takes no body fields', () => {
    const answer = sandboxCaller()('POST', `/v1/transactional-emails/${SEED_IDS.passwordReset}/draft`, { body: { force: true } });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/unknown field.*force/);
  });
});

describe('updating a campaign group', () => {
  const path = `/v1/campaign-groups/${SEED_IDS.newslettersCampaignGroup}`;

  it('changes the name, the description or both, and stamps updatedAt', () => {
    const { call } = freshSandbox({ now: () => FIXED_NOW });
    const before = call('GET', path).body;
    expect(call('POST', path, { body: { name: 'Monthly newsletter' } }).body).toEqual({
      ...before,
      name: 'Monthly newsletter',
      updatedAt: FIXED_NOW.toISOString(),
    });
    expect(call('POST', path, { body: { description: '' } }).body).toMatchObject({ name: 'Monthly newsletter', description: '' });
    expect(call('POST', path, { body: { name: 'News', description: 'All of it' } }).body).toMatchObject({ name: 'News', description: 'All of it' });
    expect(call('GET', path).body).toMatchObject({ name: 'News', description: 'All of it' });
  });

  it('refuses an empty update, unknown fields, the reserved name and the Unsorted group with 400', () => {
    const onChange = vi.fn();
    const { call } = freshSandbox({ onChange });
    const cases: [string, unknown, RegExp][] = [
      [path, {}, /at least one/],
      [path, undefined, /JSON object/],
      [path, { name: 'x', color: 'red' }, /unknown field.*color/],
      [path, { name: 'Unsorted' }, /reserved/],
      [path, { name: ' Unsorted ' }, /reserved/],
      [path, { name: '' }, /must not be empty/],
      [path, { name: '   ' }, /must not be empty, nor only spaces or invisible characters/],
      [path, { name: ' \u200b\u2800 ' }, /must not be empty, nor only spaces or invisible characters/],
      ['/v1/campaign-groups', { name: '\u3164' }, /must not be empty/],
      ['/v1/transactional-groups', { name: '\u200b' }, /must not be empty/],
      [path, { description: 7 }, /description must be a string/],
      [`/v1/campaign-groups/${SEED_IDS.unsortedCampaignGroup}`, { description: 'Mine now' }, /cannot be edited/],
    ];
    for (const [target, body, message] of cases) {
      const answer = call('POST', target, { body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.message).toMatch(message);
    }
    expect(onChange).not.toHaveBeenCalled();
    expect(call('POST', '/v1/campaign-groups/cmissing', { body: { name: 'x' } }).status).toBe(404);
  });
});

describe('records kept by id', () => {
  it('reads a component, a theme and a campaign by id, and says 404 for one it does not hold', () => {
    const { call } = freshSandbox();
    for (const list of ['/v1/components', '/v1/themes', '/v1/campaigns']) {
      const first = call('GET', list).body.data[0];
      expect(call('GET', `${list}/${first.id}`)).toMatchObject({ status: 200, body: first });
      expect(call('GET', `${list}/cmissing`).status).toBe(404);
      expect(call('POST', `${list}/cmissing`, { body: { name: 'x' } }).status).toBe(404);
    }
    expect(call('GET', '/v1/components/cmissing').body.message).toBe('component cmissing not found');
    expect(call('GET', '/v1/themes/cmissing').body.message).toBe('theme cmissing not found');
    expect(call('GET', '/v1/campaigns/cmissing/metrics').body.message).toBe('campaign cmissing not found');
  });

  it('refuses an update that gives no field, and a blank name, with 400', () => {
    const onChange = vi.fn();
    const { call } = freshSandbox({ onChange });
    const component = `/v1/components/${call('GET', '/v1/components').body.data[0].id}`;
    const theme = `/v1/themes/${call('GET', '/v1/themes').body.data[0].id}`;
    const cases: [string, unknown, string][] = [
      [component, {}, 'give at least one of name and lmx'],
      [theme, {}, 'give at least one of name and styles'],
      [component, { name: ' ' }, 'name must not be empty'],
      [theme, { name: '' }, 'name must not be empty'],
      ['/v1/components', { name: '  ', lmx: '<Divider />' }, 'name must not be empty'],
      ['/v1/themes', { name: '\t' }, 'name must not be empty'],
      ['/v1/workflows', { name: ' ' }, 'name must not be empty'],
      ['/v1/campaigns', { name: ' ' }, 'name must not be empty'],
      [theme, { name: 7 }, 'name must be a string'],
    ];
    for (const [target, body, message] of cases) {
      const answer = call('POST', target, { body });
      expect(answer, `${target} ${JSON.stringify(body)}`).toMatchObject({ status: 400, body: { message } });
    }
    expect(onChange).not.toHaveBeenCalled();
  });
});

describe('sandbox workflows', () => {
  const call = sandboxCaller();
  const state = seedState();

  it('use every node type the reference names, with a branch, an experiment and a merge', () => {
    const types = new Set(state.workflows.flatMap((workflow) => workflow.nodes.map((node) => node.typeName)));
    expect([...types].sort()).toEqual(Object.keys(NODE_TYPES).sort());
    const nodes = state.workflows.flatMap((workflow) => workflow.nodes);
    expect(nodes.some((node) => node.typeName === 'BranchNode' && node.nextNodeIds.length > 1)).toBe(true);
    expect(nodes.some((node) => node.typeName === 'ExperimentBranchNode' && node.nextNodeIds.length > 1)).toBe(true);
    for (const workflow of state.workflows) {
      const targets = workflow.nodes.flatMap((node) => node.nextNodeIds);
      const ids = new Set(workflow.nodes.map((node) => node.id));
      expect(
        targets.every((target) => ids.has(target)),
        workflow.name,
      ).toBe(true);
    }
    const merges = state.workflows.filter((workflow) => {
      const targets = workflow.nodes.flatMap((node) => node.nextNodeIds);
      return new Set(targets).size < targets.length;
    });
    expect(merges.length).toBeGreaterThan(0);
  });

  it('show each node in full, with the revision, and simplified in the workflow', () => {
    for (const workflow of state.workflows) {
      const simplified = call('GET', `/v1/workflows/${workflow.id}`).body;
      expect(simplified).toMatchObject({ id: workflow.id, name: workflow.name, status: workflow.status, rootNodeId: workflow.rootNodeId });
      expect(Object.keys(simplified.nodes).sort()).toEqual(workflow.nodes.map((node) => node.id).sort());
      for (const node of workflow.nodes) {
        const full = call('GET', `/v1/workflows/${workflow.id}/nodes/${node.id}`);
        expect(full.status).toBe(200);
        expect(full.body).toEqual({ ...node, workflowRevisionId: workflow.workflowRevisionId });
        expect(simplified.nodes[node.id]).toMatchObject({ typeName: node.typeName, nextNodeIds: node.nextNodeIds });
      }
    }
    const timer = state.workflows[0]!.nodes.find((node) => node.typeName === 'TimerAction')!;
    expect(call('GET', `/v1/workflows/${state.workflows[0]!.id}`).body.nodes[timer.id]).toEqual({
      typeName: 'TimerAction',
      nextNodeIds: timer.nextNodeIds,
      amount: 2,
      unit: 'd',
    });
  });

  it('lists workflows as summaries', () => {
    const [first] = call('GET', '/v1/workflows').body.data;
    expect(first).toEqual({
      id: expect.any(String),
      url: `https://app.loops.so/workflows/${first.id}`,
      name: expect.any(String),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });
});
