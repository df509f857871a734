/**
 * The write gate's judgement of a write by its target's state (src/core/gate.ts): read from the
 * account each time a write is judged, never kept; and a read that fails is no answer, so the
 * target may be live and the write needs a yes.
 */
import { describe, expect, it } from 'vitest';
import { AuthError, NetworkError, NotFoundError, RateLimitError, ServerError } from '../../../src/base/errors.js';
import { LIVE_SINCE_YES } from '../../../src/core/bound-calls.js';
import {
  BACK_TO_BACK_MS,
  FIRST_ROUND_FRESH_MS,
  learningFrom,
  PAGE_FRESH_MS,
  PAGE_REQUESTS,
  passGate,
  type RunYes,
  WriteGate,
  YES_NEEDED,
} from '../../../src/core/gate.js';

const NODE_EDIT = ['POST', '/v1/workflows/w1/nodes/n1', { expectedRevisionId: 'r', payload: { amount: 2 } }] as const;

/** A gate over an account holding one workflow, whose reads are counted and answered by `answer`. */
function gateOf(answer: (path: string) => unknown) {
  const read: string[] = [];
  const gate = new WriteGate(async (path) => {
    read.push(path);
    return answer(path);
  });
  return { gate, read };
}

describe('the write gate', () => {
  it("reads the workflow's status at each write: one started between two writes is judged live", async () => {
    let status = 'Draft';
    const { gate, read } = gateOf(() => ({ id: 'w1', status, nodes: {} }));
    expect(await gate.needsYes(...NODE_EDIT)).toBeUndefined();
    status = 'Sending';
    expect(await gate.needsYes(...NODE_EDIT)).toBe('edits a workflow that is Sending: contacts move through it');
    expect(read).toEqual(['/v1/workflows/w1', '/v1/workflows/w1']);
  });

  it.each([
    ['a server error (500)', new ServerError('the API answered 500: Internal Server Error', { status: 500 })],
    ['the rate limit (429)', new RateLimitError('rate limited (429): slow down', { status: 429 })],
    ['the network', new NetworkError('could not reach app.loops.so: ECONNRESET')],
  ])('takes a status it could not read because of %s for one that may be live, never for a draft', async (_what, error) => {
    const { gate } = gateOf(() => {
      throw error;
    });
    expect(await gate.needsYes(...NODE_EDIT)).toBe(`edits a workflow that may be live: whether it is could not be read (${error.message})`);
    expect(await gate.needsYes('POST', '/v1/email-messages/m1', { subject: 'x' })).toMatch(/^edits an email message that may be live: /);
    expect(await gate.needsYes('POST', '/v1/campaigns/c1', { mailingListId: null })).toMatch(/^changes the audience of a campaign that may be live: /);
    expect(await gate.needsYes('POST', '/v1/components/p1', { lmx: '<Paragraph>x</Paragraph>' })).toMatch(/^edits a component that may be live: /);
    expect(await gate.needsYes('POST', '/v1/themes/h1', { styles: { bodyColor: '#000000' } })).toMatch(/^edits a theme that may be live: /);
  });

  it("judges a component's write by the live emails that embed it, read through LMX, and its rename by nothing", async () => {
    const lists = { pagination: { nextCursor: null }, data: [] };
    const { gate, read } = gateOf((path) => {
      if (path === '/v1/transactional-emails?perPage=50')
        return { pagination: { nextCursor: null }, data: [{ id: 't1', name: 'Receipt', draftEmailMessageId: 'm-d', publishedEmailMessageId: 'm-p' }] };
      if (path === '/v1/email-messages/m-p') return { id: 'm-p', transactionalId: 't1', lmx: '<Paragraph>Paid</Paragraph>\n<Component componentId="p1" />' };
      return lists;
    });
    expect(await gate.needsYes('POST', '/v1/components/p1', { lmx: '<Paragraph>x</Paragraph>' })).toBe(
      'edits a component that a live email uses: the published email of transactional email "Receipt" (t1)',
    );
    expect(await gate.needsYes('POST', '/v1/components/p2', { lmx: '<Paragraph>x</Paragraph>' })).toBeUndefined();
    const reads = read.length;
    // "Update a component's name and/or body. When the `lmx` body changes, the update cascades to every email using this component."
    expect(await gate.needsYes('POST', '/v1/components/p1', { name: 'Footer (2025)' })).toBeUndefined();
    expect(read).toHaveLength(reads);
  });

  it('reads each list, workflow and message once in the round before the first write, and again just before a write', async () => {
    const empty = { pagination: { nextCursor: null }, data: [] };
    const { gate, read } = gateOf((path) => {
      if (path === '/v1/workflows?perPage=50') return { pagination: { nextCursor: null }, data: [{ id: 'w1' }] };
      if (path === '/v1/workflows/w1') return { id: 'w1', name: 'Welcome', status: 'Sending', nodes: { e: { emailMessageId: 'm1' } } };
      if (path === '/v1/email-messages/m1') return { id: 'm1', lmx: '<Component componentId="p1" /><Component componentId="p2" />' };
      return empty;
    });
    const edit = (id: string) => gate.needsYes('POST', `/v1/components/${id}`, { lmx: '<Paragraph>x</Paragraph>' });
    const said = 'edits a component that a live email uses: an email of workflow "Welcome" (w1), which is Sending: contacts move through it';
    expect(await gate.beforeFirstWrite(async () => [await edit('p1'), await edit('p2')])).toEqual([said, said]);
    const once = (path: string) => read.filter((each) => each === path).length;
    const lists = ['/v1/transactional-emails?perPage=50', '/v1/campaigns?perPage=50', '/v1/workflows?perPage=50'];
    expect([...lists.map(once), once('/v1/workflows/w1'), once('/v1/email-messages/m1')]).toEqual([1, 1, 1, 1, 1]);
    gate.writeComes();
    expect(await edit('p1')).toBe(said);
    expect([...lists.map(once), once('/v1/workflows/w1'), once('/v1/email-messages/m1')]).toEqual([2, 2, 2, 2, 2]);
  });

  it('takes a component or theme whose emails are more than it reads for one that may be live', async () => {
    const workflows = Array.from({ length: 150 }, (_each, index) => ({ id: `w${index}` }));
    const { gate } = gateOf((path) =>
      path === '/v1/workflows?perPage=50'
        ? { pagination: { nextCursor: null }, data: workflows }
        : { pagination: {}, data: [], id: 'w', status: 'Draft', nodes: {} },
    );
    expect(await gate.needsYes('POST', '/v1/components/p1', { lmx: '<Paragraph>x</Paragraph>' })).toBe(
      'edits a component that may be live: its emails are more than the 100 records the gate reads to tell which live ones use it',
    );
  });

  it('takes a target the account does not hold for one that reaches no one, and passes a refused key on', async () => {
    const gone = gateOf(() => {
      throw new NotFoundError('not found');
    });
    expect(await gone.gate.needsYes(...NODE_EDIT)).toBeUndefined();
    const refused = gateOf(() => {
      throw new AuthError('the API refused the key');
    });
    await expect(refused.gate.needsYes(...NODE_EDIT)).rejects.toThrow('the API refused the key');
  });

  it('asks nothing of a write whose reach does not depend on its target, and reads nothing for it', async () => {
    const { gate, read } = gateOf(() => ({}));
    expect(await gate.needsYes('POST', '/v1/transactional-emails/t1/publish', {})).toBe('publishes a transactional email (the next sends use it)');
    expect(await gate.needsYes('POST', '/v1/campaigns/c1', { name: 'Renamed' })).toBeUndefined();
    expect(await gate.needsYes('POST', '/v1/themes/t1', { name: 'Dark' })).toBeUndefined();
    expect(read).toEqual([]);
  });

  it('judges a message by one read of its holder once an answer of the run named the holder', async () => {
    const { gate, read } = gateOf((path) =>
      path === '/v1/transactional-emails/t1' ? { id: 't1', name: 'Welcome', draftEmailMessageId: 'm-draft', publishedEmailMessageId: 'm-live' } : undefined,
    );
    gate.learn('/v1/transactional-emails?perPage=50', { data: [{ id: 't1', draftEmailMessageId: 'm-draft', publishedEmailMessageId: 'm-live' }] });
    expect(await gate.needsYes('POST', '/v1/email-messages/m-draft', { subject: 'x' })).toBeUndefined();
    expect(await gate.needsYes('POST', '/v1/email-messages/m-live', { subject: 'x' })).toBe(
      'edits an email message that is the published email of transactional email "Welcome" (t1): every send of it uses it',
    );
    expect(read).toEqual(['/v1/transactional-emails/t1', '/v1/transactional-emails/t1']);
  });
});

describe("a person's yes and what was live when it was given", () => {
  /** A node edit of w1 and an edit of the message m1 its send-email node sends, as the transport sends them. */
  const nodeEdit = { method: 'POST', target: { path: '/v1/workflows/w1/nodes/n1', search: '' }, body: { payload: { amount: 2 } } };
  const messageEdit = { method: 'POST', target: { path: '/v1/email-messages/m1', search: '' }, body: { subject: 'x' } };
  const account = (status: () => string) =>
    gateOf((path) => (path === '/v1/workflows/w1' ? { id: 'w1', status: status(), nodes: { n1: { emailMessageId: 'm1' } } } : { id: 'm1' }));

  it('keeps, for a question put to a person, the records found live: a workflow, and the workflow that sends a message', async () => {
    const { gate } = account(() => 'Sending');
    const capture: RunYes = { tier: 'destructive', capture: true };
    await passGate(capture, gate, nodeEdit);
    gate.learn('/v1/workflows/w1', { id: 'w1', nodes: { n1: { emailMessageId: 'm1' } } });
    await passGate(capture, gate, messageEdit);
    expect([...gate.foundLive]).toEqual(['workflow w1']);
    expect(gate.liveKey({ kind: 'email message', id: 'm1' })).toBe('workflow w1');
    expect(gate.liveKey({ kind: 'email message', id: 'unknown' })).toBe('email message unknown');
  });

  it('lets a yes through to what was live when it was given, and refuses, exit 5, a write to what went live since', async () => {
    let status = 'Sending';
    const { gate } = account(() => status);
    await passGate({ approved: true, liveAtYes: ['workflow w1'] }, gate, nodeEdit);
    await passGate({ approved: true, liveAtYes: ['workflow w1'] }, gate, messageEdit);
    const since = passGate({ approved: true, liveAtYes: [] }, gate, messageEdit);
    await expect(since).rejects.toMatchObject({ code: LIVE_SINCE_YES, exitCode: 5 });
    await expect(since).rejects.toThrow(
      'POST /v1/email-messages/m1 edits an email message that workflow w1 sends, while it is Sending: contacts move through it, which it was not when the person said yes; nothing more was sent',
    );
    // A draft still, or a yes with no record kept: judged as before.
    status = 'Draft';
    await passGate({ approved: true, liveAtYes: [] }, gate, nodeEdit);
    status = 'Sending';
    await passGate({ approved: true }, gate, nodeEdit);
  });

  it('refuses, under a yes that covered one live workflow, a write to another that went live since', async () => {
    const status: Record<string, string> = { w1: 'Sending', w2: 'Draft' };
    const { gate } = gateOf((path) => {
      const id = path.split('/')[3]!;
      return { id, status: status[id], nodes: {} };
    });
    const edit = (id: string) => ({ method: 'POST', target: { path: `/v1/workflows/${id}/nodes/n1`, search: '' }, body: { payload: { amount: 2 } } });
    const yes: RunYes = { approved: true, liveAtYes: ['workflow w1'] };
    await passGate(yes, gate, edit('w1'));
    await passGate(yes, gate, edit('w2'));
    status.w2 = 'Paused';
    await expect(passGate(yes, gate, edit('w2'))).rejects.toMatchObject({
      code: LIVE_SINCE_YES,
      exitCode: 5,
      message: expect.stringContaining('which it was not when the person said yes'),
    });
    await passGate(yes, gate, edit('w1'));
  });

  it("refuses, under a yes that covered a component's live emails, its write once a workflow started since uses it too", async () => {
    const page = (data: unknown[]) => ({ pagination: { nextCursor: null }, data });
    const account = { welcome: 'Draft' };
    const { gate } = gateOf((path) => {
      if (path === '/v1/campaigns?perPage=50')
        return page([
          { id: 'c1', name: 'November', status: 'Scheduled', emailMessageId: 'm-c', scheduling: { method: 'schedule', timestamp: '2030-01-06T09:00:00.000Z' } },
        ]);
      if (path === '/v1/workflows?perPage=50') return page([{ id: 'w1' }]);
      if (path === '/v1/workflows/w1') return { id: 'w1', name: 'Welcome', status: account.welcome, nodes: { e: { emailMessageId: 'm-w' } } };
      if (path.startsWith('/v1/email-messages/')) return { id: path.split('/').at(-1), lmx: '<Component componentId="p1" />' };
      return page([]);
    });
    const write = { method: 'POST', target: { path: '/v1/components/p1', search: '' }, body: { lmx: '<Paragraph>x</Paragraph>' } };
    // Asked while the campaign alone was live: what the yes covers.
    await passGate({ tier: 'destructive', capture: true }, gate, write);
    expect([...gate.foundLive]).toEqual(['component p1', 'campaign c1']);
    const yes: RunYes = { approved: true, liveAtYes: [...gate.foundLive] };
    await passGate(yes, gate, write);
    account.welcome = 'Sending';
    await expect(passGate(yes, gate, write)).rejects.toMatchObject({
      code: LIVE_SINCE_YES,
      message: expect.stringContaining('an email of workflow "Welcome" (w1), which is Sending'),
    });
  });

  it('takes a state it could not read, under a yes given to a draft, for one gone live', async () => {
    const { gate } = gateOf(() => {
      throw new ServerError('the API answered 500', { status: 500 });
    });
    await expect(passGate({ approved: true, liveAtYes: [] }, gate, nodeEdit)).rejects.toMatchObject({
      code: LIVE_SINCE_YES,
      message: expect.stringContaining('edits a workflow that may be live: whether it is could not be read (the API answered 500)'),
    });
  });
});

/**
 * A run's transport as the context makes it (learningFrom) over an account holding the workflow
 * w1 and the transactional email t1, whose draft is m1: each write passes the gate as the
 * transport's beforeWrite hands it, and a node write answers the workflow as it left it.
 */
function runOf() {
  const account = { status: 'Draft', published: null as string | null };
  const workflow = () => ({ id: 'w1', status: account.status, nodes: {} });
  const email = () => ({ id: 't1', name: 'Welcome', draftEmailMessageId: 'm1', publishedEmailMessageId: account.published });
  const clock = { now: 0 };
  const read: string[] = [];
  // The emails' list holds t1 until `listed` says it no longer does (a page of another email).
  const listed = { t1: true };
  const page = () => ({ data: [listed.t1 ? email() : { ...email(), id: 't2' }] });
  const gate = new WriteGate(
    async (path) => {
      read.push(path);
      return path === '/v1/workflows/w1' ? workflow() : path.startsWith('/v1/transactional-emails?') ? page() : email();
    },
    () => clock.now,
  );
  const answer = (body: unknown) => ({ status: 200, headers: {}, contentType: 'application/json', text: JSON.stringify(body), body });
  const client = learningFrom(
    {
      send: async (req) => {
        if (req.method === 'GET') return answer(req.path === '/v1/workflows/w1' ? workflow() : req.path === '/v1/transactional-emails' ? page() : {});
        await passGate({ tier: 'write' }, gate, { method: req.method, target: { path: req.path, search: '' }, body: req.body });
        return answer(req.path.startsWith('/v1/workflows/w1/') ? { id: 'n1', workflowRevisionId: 'r2', workflow: workflow() } : { id: 'm1' });
      },
    },
    gate,
  );
  const get = (path: string, query?: Record<string, string>) => client.send({ method: 'GET', idempotent: true, path, query });
  const nodeWrite = (node = 'n1') =>
    client.send({ method: 'POST', idempotent: false, path: `/v1/workflows/w1/nodes/${node}`, body: { payload: { amount: 2 } } });
  const messageWrite = () => client.send({ method: 'POST', idempotent: false, path: '/v1/email-messages/m1', body: { subject: 'x' } });
  return { account, listed, clock, read, gate, get, nodeWrite, messageWrite, client };
}

describe("the answers of the run that stand for the gate's read (docs/changes.md, What can email people now)", () => {
  it('takes, in the round before the first write, what the run read of a workflow and an email at most 30 s before, and reads an older answer again', async () => {
    const run = runOf();
    await run.get('/v1/workflows/w1');
    await run.get('/v1/transactional-emails', { perPage: '50' });
    run.account.status = 'Sending';
    run.account.published = 'm1';
    run.clock.now = FIRST_ROUND_FRESH_MS;
    const round = () =>
      run.gate.beforeFirstWrite(async () => [
        await run.gate.needsYes(...NODE_EDIT),
        await run.gate.needsYes('POST', '/v1/email-messages/m1', { subject: 'x' }),
      ]);
    expect(await round()).toEqual([undefined, undefined]);
    expect(run.read).toEqual([]);
    // Older than the rule allows: the round reads, and finds both live.
    run.clock.now = FIRST_ROUND_FRESH_MS + 1;
    const [workflow, message] = await round();
    expect(workflow).toBe('edits a workflow that is Sending: contacts move through it');
    expect(message).toMatch(/^edits an email message that is the published email of transactional email "Welcome"/);
    expect(run.read).toEqual(['/v1/workflows/w1', '/v1/transactional-emails/t1']);
  });

  it('takes nothing outside the round, nor in a round once a write of the run came to the gate', async () => {
    const run = runOf();
    await run.get('/v1/workflows/w1');
    run.account.status = 'Sending';
    expect(await run.gate.needsYes(...NODE_EDIT)).toBe('edits a workflow that is Sending: contacts move through it');
    expect(run.read).toEqual(['/v1/workflows/w1']);
    run.account.status = 'Draft';
    await run.nodeWrite();
    await run.get('/v1/workflows/w1');
    run.account.status = 'Sending';
    expect(await run.gate.beforeFirstWrite(() => run.gate.needsYes(...NODE_EDIT))).toBe('edits a workflow that is Sending: contacts move through it');
    // The node write's own read, then the round's.
    expect(run.read).toEqual(['/v1/workflows/w1', '/v1/workflows/w1', '/v1/workflows/w1']);
  });

  it('judges the next write of a workflow by the answer to the write just before it: a workflow its answer shows started needs a yes', async () => {
    const run = runOf();
    await run.nodeWrite('n1');
    expect(run.read).toEqual(['/v1/workflows/w1']);
    await run.nodeWrite('n2');
    expect(run.read).toEqual(['/v1/workflows/w1']);
    // Started once the gate's read answered (it answers as it is called) and before the write: its answer says so.
    const started = runOf();
    const first = started.nodeWrite('n1');
    started.account.status = 'Sending';
    await first;
    const refused = started.nodeWrite('n2');
    await expect(refused).rejects.toMatchObject({ code: YES_NEEDED });
    await expect(refused).rejects.toThrow("edits a workflow that is Sending: contacts move through it, which needs a person's yes");
    expect(started.read).toEqual(['/v1/workflows/w1']);
  });

  it('reads again when a request of the run came between the two writes, when the second comes over 2 s after, or for another workflow', async () => {
    const between = runOf();
    await between.nodeWrite('n1');
    await between.get('/v1/email-messages/m1/guardian');
    await between.nodeWrite('n2');
    expect(between.read).toEqual(['/v1/workflows/w1', '/v1/workflows/w1']);
    const late = runOf();
    await late.nodeWrite('n1');
    late.clock.now = BACK_TO_BACK_MS + 1;
    await late.nodeWrite('n2');
    expect(late.read).toEqual(['/v1/workflows/w1', '/v1/workflows/w1']);
    const other = runOf();
    await other.nodeWrite('n1');
    await expect(other.gate.withState({ needs: 'live', target: { kind: 'workflow', id: 'w2' }, does: 'edits a workflow' })).resolves.toBeUndefined();
    expect(other.read).toEqual(['/v1/workflows/w1', '/v1/workflows/w2']);
  });
});

describe("the page of the emails' list that stands for the gate's read of an email (PAGE_REQUESTS, PAGE_FRESH_MS)", () => {
  const PUBLISHED = /^POST \/v1\/email-messages\/m1 edits an email message that is the published email of transactional email "Welcome"/;
  const page = '/v1/transactional-emails?perPage=50';

  it(`judges an email's draft by the page the run read at most ${PAGE_REQUESTS} requests before, and past them reads that page again`, async () => {
    const run = runOf();
    await run.get('/v1/transactional-emails', { perPage: '50' });
    await run.messageWrite();
    expect(run.read).toEqual([]);
    // Published in the app once the page was read: within its requests, the write goes on the page's word, for the
    // platform to refuse ("must be in `Draft` status"); past them, the page read again says so, and the gate refuses.
    run.account.published = 'm1';
    for (let request = 2; request < PAGE_REQUESTS; request += 1) await run.get('/v1/email-messages/m1/guardian');
    await run.messageWrite();
    expect(run.read).toEqual([]);
    await expect(run.messageWrite()).rejects.toThrow(PUBLISHED);
    expect(run.read).toEqual([page]);
    // The page read again stands for the next writes in its turn.
    await expect(run.messageWrite()).rejects.toThrow(PUBLISHED);
    expect(run.read).toEqual([page]);
  });

  it(`reads the page again ${PAGE_FRESH_MS / 1000} s after it came, whatever the run sent since`, async () => {
    const run = runOf();
    await run.get('/v1/transactional-emails', { perPage: '50' });
    run.account.published = 'm1';
    run.clock.now = PAGE_FRESH_MS;
    await run.messageWrite();
    expect(run.read).toEqual([]);
    run.clock.now = PAGE_FRESH_MS + 1;
    await expect(run.messageWrite()).rejects.toThrow(PUBLISHED);
    expect(run.read).toEqual([page]);
  });

  it('reads the email itself once a write of the run went to it, or when the page read again no longer holds it', async () => {
    const written = runOf();
    await written.get('/v1/transactional-emails', { perPage: '50' });
    // Its draft published on the run's own road (with a person's yes): the page's word on it is gone.
    await passGate({ tier: 'destructive' }, written.gate, { method: 'POST', target: { path: '/v1/transactional-emails/t1/publish', search: '' }, body: {} });
    written.gate.heard({ method: 'POST', path: '/v1/transactional-emails/t1/publish', query: false, body: {} }, {});
    written.account.published = 'm1';
    await expect(written.messageWrite()).rejects.toThrow(PUBLISHED);
    expect(written.read).toEqual(['/v1/transactional-emails/t1']);
    const moved = runOf();
    await moved.get('/v1/transactional-emails', { perPage: '50' });
    moved.listed.t1 = false;
    moved.account.published = 'm1';
    moved.clock.now = PAGE_FRESH_MS + 1;
    await expect(moved.messageWrite()).rejects.toThrow(PUBLISHED);
    expect(moved.read).toEqual([page, '/v1/transactional-emails/t1']);
  });
});

describe("the answers of the run that stand for the gate's read: a read is no write's answer", () => {
  it('reads again for a write that comes just after a read of the run, which the write path may have followed with its own', async () => {
    const read: string[] = [];
    let status = 'Draft';
    const gate = new WriteGate(async (path) => {
      read.push(path);
      return { id: 'w1', status, nodes: {} };
    });
    const answer = (body: unknown) => ({ status: 200, headers: {}, contentType: 'application/json', text: '', body });
    const client = learningFrom(
      {
        send: async (req) => {
          if (req.method !== 'GET') await passGate({ tier: 'write' }, gate, { method: req.method, target: { path: req.path, search: '' }, body: req.body });
          return answer({ id: 'w1', status, nodes: {} });
        },
      },
      gate,
    );
    const nodeWrite = () => client.send({ method: 'POST', idempotent: false, path: '/v1/workflows/w1/nodes/n1', body: { payload: {} } });
    await nodeWrite();
    await client.send({ method: 'GET', idempotent: true, path: '/v1/workflows/w1' });
    status = 'Sending';
    const refused = nodeWrite();
    await expect(refused).rejects.toMatchObject({ code: YES_NEEDED });
    await expect(refused).rejects.toThrow("edits a workflow that is Sending: contacts move through it, which needs a person's yes");
    expect(read).toEqual(['/v1/workflows/w1', '/v1/workflows/w1']);
  });
});
