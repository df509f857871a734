/**
 * The JavaScript API (`loopsctl/sandbox`, src/emulator/public.ts) in this process: fixtures from a
 * file, the rate limit and its 429s, reset, and what a port in use or a second close() does.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FixtureError } from '../../../src/emulator/fixtures.js';
import { type Sandbox, type SandboxFixtures, type SandboxOptions, startSandbox } from '../../../src/emulator/public.js';
import { callSandbox } from '../../support/sandbox-http.js';
import { tempDir } from '../../support/temp.js';
import { startWebhookApp, type WebhookApp } from '../../support/webhook-app.js';

const started: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((sandbox) => sandbox.close()));
});

async function start(options: Parameters<typeof startSandbox>[0]): Promise<Sandbox> {
  const sandbox = await startSandbox(options);
  started.push(sandbox);
  return sandbox;
}

const call = callSandbox;

const FIXTURES_YAML = `
contactProperties:
  - { name: plan, type: string }
mailingLists:
  - { id: list_newsletter, name: Newsletter }
contacts:
  - id: contact_ada
    email: ada@example.com
    firstName: Ada
    plan: pro
    mailingLists: { list_newsletter: true }
transactionalEmails:
  - id: tx_welcome
    name: Welcome
    subject: Welcome, {data.firstName}
    lmx: |
      <H1>Welcome, {data.firstName}</H1>
      <Paragraph>Sign in at {data.loginUrl}</Paragraph>
    optionalDataVariables: [firstName]
  - { name: Unfinished, lmx: "<Paragraph>Soon</Paragraph>", draft: true }
workflows:
  - { id: wf_trial, name: Trial, eventName: trial_started }
suppressions: [bounced@example.com]
`;

describe('fixtures', () => {
  it('start a new team with the records a file declares, their ids kept', async () => {
    const file = join(tempDir(), 'loops.yaml');
    writeFileSync(file, FIXTURES_YAML);
    const sandbox = await start({ fixtures: file, rateLimit: false });
    const found = await call(sandbox, 'GET', '/v1/contacts/find?email=ada@example.com');
    expect(found.body).toEqual([expect.objectContaining({ id: 'contact_ada', firstName: 'Ada', plan: 'pro', mailingLists: { list_newsletter: true } })]);
    const welcome = await call(sandbox, 'GET', '/v1/transactional-emails/tx_welcome');
    expect(welcome.body).toMatchObject({ id: 'tx_welcome', name: 'Welcome', dataVariables: ['firstName', 'loginUrl'], draftEmailMessageId: null });
    const list = await call(sandbox, 'GET', '/v1/transactional-emails');
    expect(list.body.data.map((email: { name: string }) => email.name).sort()).toEqual(['Unfinished', 'Welcome']);
    expect(list.body.data.find((email: { name: string }) => email.name === 'Unfinished').publishedEmailMessageId).toBeNull();
    const workflow = await call(sandbox, 'GET', '/v1/workflows/wf_trial');
    expect(workflow.body.nodes[workflow.body.rootNodeId]).toMatchObject({ typeName: 'EventTrigger', eventName: 'trial_started' });
    const suppression = await call(sandbox, 'GET', '/v1/contacts/suppression?email=bounced@example.com');
    expect(suppression.body).toMatchObject({ isSuppressed: true });
    // The new team has none of the demo's contacts.
    expect((await call(sandbox, 'GET', '/v1/contacts/find?email=grace@example.com')).body).toEqual([]);

    // An optional variable left out is not missing; a required one is.
    const refused = await call(sandbox, 'POST', '/v1/transactional', { transactionalId: 'tx_welcome', email: 'ada@example.com', dataVariables: {} });
    expect([refused.status, refused.body]).toEqual([400, { success: false, message: 'Missing required data variable(s): loginUrl' }]);
    const sent = await call(sandbox, 'POST', '/v1/transactional', {
      transactionalId: 'tx_welcome',
      email: 'ada@example.com',
      dataVariables: { loginUrl: 'https://app.example.com' },
    });
    expect(sent.status).toBe(200);
    expect(sandbox.outbox()).toEqual([expect.objectContaining({ kind: 'transactional', transactionalId: 'tx_welcome', missingVariables: ['firstName'] })]);

    // A reset brings back the fixtures, and only them.
    await call(sandbox, 'POST', '/v1/contacts/create', { email: 'new@example.com' });
    await sandbox.reset();
    expect(sandbox.outbox()).toEqual([]);
    expect((await call(sandbox, 'GET', '/v1/contacts/find?email=new@example.com')).body).toEqual([]);
    expect((await call(sandbox, 'GET', '/v1/contacts/find?email=ada@example.com')).body).toHaveLength(1);

    // So does the reset an app's tests make over HTTP, before each test.
    await call(sandbox, 'POST', '/v1/contacts/create', { email: 'new@example.com' });
    expect((await call(sandbox, 'POST', '/_sandbox/reset')).body).toEqual({ reset: true, seed: 'empty' });
    expect((await call(sandbox, 'GET', '/v1/contacts/find?email=new@example.com')).body).toEqual([]);
    expect((await call(sandbox, 'GET', '/v1/transactional-emails/tx_welcome')).status).toBe(200);
  });

  it('refuse a seed that is none, at the start and at a reset', async () => {
    await expect(startSandbox({ seed: 'Empty' as 'empty' })).rejects.toThrow('seed must be one of demo, empty, not "Empty"');
    const sandbox = await start({ rateLimit: false });
    await expect(sandbox.reset('nonsense' as 'demo')).rejects.toThrow('seed must be one of demo, empty, not "nonsense"');
    expect((await call(sandbox, 'GET', '/v1/themes')).body.data).toHaveLength(1);
  });

  it('can start from the demo seed, as an object', async () => {
    const sandbox = await start({ fixtures: { seed: 'demo', contacts: [{ email: 'new@example.com' }] }, rateLimit: false });
    expect((await call(sandbox, 'GET', '/v1/contacts/find?email=grace@example.com')).body).toHaveLength(1);
    expect((await call(sandbox, 'GET', '/v1/contacts/find?email=new@example.com')).body).toHaveLength(1);
  });

  it('make themes, components and campaigns, their ids kept, and keep the subjects of emails and campaigns', async () => {
    const sandbox = await start({
      fixtures: {
        mailingLists: [{ id: 'list_news', name: 'News' }],
        themes: [{ id: 'theme_dark', name: 'Dark', styles: { backgroundColor: '#111827' } }],
        components: [{ id: 'comp_footer', name: 'Footer', lmx: '<Paragraph>Goodbye</Paragraph>' }],
        campaigns: [{ id: 'camp_june', name: 'June', subject: 'What is new in June', lmx: '<Paragraph>Hello</Paragraph>', mailingListId: 'list_news' }],
        transactionalEmails: [{ id: 'tx_reset', name: 'Reset', subject: 'Reset your password', lmx: '<Paragraph>{data.resetUrl}</Paragraph>' }],
      },
    });
    expect((await call(sandbox, 'GET', '/v1/themes/theme_dark')).body).toMatchObject({
      id: 'theme_dark',
      name: 'Dark',
      styles: { backgroundColor: '#111827' },
    });
    expect((await call(sandbox, 'GET', '/v1/components/comp_footer')).body).toMatchObject({
      id: 'comp_footer',
      name: 'Footer',
      lmx: '<Paragraph>Goodbye</Paragraph>',
    });
    const campaign = await call(sandbox, 'GET', '/v1/campaigns/camp_june');
    expect(campaign.body).toMatchObject({ id: 'camp_june', name: 'June' });
    expect((await call(sandbox, 'GET', `/v1/email-messages/${campaign.body.emailMessageId}`)).body).toMatchObject({
      subject: 'What is new in June',
      lmx: '<Paragraph>Hello</Paragraph>',
    });
    const email = await call(sandbox, 'GET', '/v1/transactional-emails/tx_reset');
    expect((await call(sandbox, 'GET', `/v1/email-messages/${email.body.publishedEmailMessageId}`)).body).toMatchObject({ subject: 'Reset your password' });
  });

  /** A record of each kind that has an id, told apart by a tag. */
  const RECORDS: Record<string, (tag: string) => Record<string, string>> = {
    contacts: (tag) => ({ email: `${tag}@example.com` }),
    mailingLists: (tag) => ({ name: tag }),
    transactionalEmails: (tag) => ({ name: tag, lmx: `<Paragraph>${tag}</Paragraph>` }),
    campaigns: (tag) => ({ name: tag }),
    workflows: (tag) => ({ name: tag, eventName: tag }),
    themes: (tag) => ({ name: tag }),
    components: (tag) => ({ name: tag, lmx: `<Paragraph>${tag}</Paragraph>` }),
  };

  it.each(Object.keys(RECORDS))('refuse %s that give one id twice', async (kind) => {
    const records = ['a', 'b'].map((tag) => ({ id: 'same', ...RECORDS[kind]!(tag) }));
    const failure = await startSandbox({ fixtures: { [kind]: records } as SandboxFixtures }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(FixtureError);
    expect((failure as FixtureError).problems).toEqual([`${kind}[1].id: "same" is given twice`]);
  });

  it('suppress a contact the fixtures declare, whatever the case of its email, keeping it as declared; and make one for an email they do not', async () => {
    const sandbox = await start({
      fixtures: { contacts: [{ id: 'contact_ada', email: 'ada@example.com', firstName: 'Ada' }], suppressions: ['ADA@example.com', 'gone@example.com'] },
    });
    expect((await call(sandbox, 'GET', '/v1/contacts/suppression?email=ada@example.com')).body).toMatchObject({ isSuppressed: true });
    expect((await call(sandbox, 'GET', '/v1/contacts/find?email=ada@example.com')).body).toEqual([
      expect.objectContaining({ id: 'contact_ada', firstName: 'Ada' }),
    ]);
    expect((await call(sandbox, 'GET', '/v1/contacts/suppression?email=gone@example.com')).body).toMatchObject({ isSuppressed: true });
  });

  it("start from the seed option, before the fixtures' own", async () => {
    const demo = await start({ seed: 'demo', fixtures: { contacts: [{ email: 'new@example.com' }] } });
    expect((await call(demo, 'GET', '/v1/contacts/find?email=grace@example.com')).body).toHaveLength(1);
    expect((await call(demo, 'GET', '/v1/contacts/find?email=new@example.com')).body).toHaveLength(1);
    const empty = await start({ seed: 'empty', fixtures: { seed: 'demo', contacts: [{ email: 'new@example.com' }] } });
    expect((await call(empty, 'GET', '/v1/contacts/find?email=grace@example.com')).body).toEqual([]);
    expect((await call(empty, 'GET', '/v1/contacts/find?email=new@example.com')).body).toHaveLength(1);
  });

  it('that cannot be used are refused with every problem at its path, and nothing starts', async () => {
    const fixtures = {
      contacts: [
        { email: 'ada@example.com', mailingLists: { list_missing: true } },
        { email: 'ADA@example.com', subscribed: 'yes' },
        { email: 'grace@example.com', favouriteColour: 'green' },
      ],
      transactionalEmails: [{ name: 'Broken', lmx: '<Paragraph>never closed' }],
      themes: [{ name: 'Dark', colour: 'black' }],
    } as unknown as SandboxFixtures;
    const failure = await startSandbox({ fixtures }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(FixtureError);
    // The shape's problems come first; the records' own are found once the shape is right.
    expect((failure as FixtureError).problems).toEqual([
      'contacts[1].subscribed: Invalid input: expected boolean, received string',
      'themes[0].colour: unknown field',
    ]);

    const shaped = { ...fixtures, contacts: [fixtures.contacts![0]!, { email: 'ADA@example.com' }, fixtures.contacts![2]!], themes: [] };
    const second = await startSandbox({ fixtures: shaped }).catch((error: unknown) => error);
    expect((second as FixtureError).problems).toEqual([
      'contacts[0].mailingLists.list_missing: no mailing list has this id (declare it under mailingLists, with its id)',
      'contacts[1].email: ADA@example.com is already in contacts[0]',
      'contacts[2].favouriteColour: unknown field (declare it under contactProperties to use it as a custom property)',
    ]);

    const lmx = await startSandbox({ fixtures: { transactionalEmails: [{ name: 'Broken', lmx: '<Paragraph>never closed' }] } }).catch(
      (error: unknown) => error,
    );
    expect((lmx as FixtureError).problems).toEqual([
      'transactionalEmails[0].lmx: LMX failed to compile: line 1, column 1: <Paragraph> is never closed (unclosed-tag; add </Paragraph> before the end of the document)',
    ]);
    expect((lmx as Error).message).toMatch(/^the fixtures cannot be used: 1 problem\n/);
  });

  it('in a file that does not parse name the file', async () => {
    const file = join(tempDir(), 'broken.json');
    writeFileSync(file, '{"contacts": [');
    await expect(startSandbox({ fixtures: file })).rejects.toThrow(
      `${file} cannot be used: 1 problem\n  not valid JSON (it ends too early) at line 1, column 15`,
    );
  });
});

describe('rate limit', () => {
  it("is off by default, so that a suite does not pass or fail on the machine's speed", async () => {
    const sandbox = await start({});
    const answers = await Promise.all(Array.from({ length: 30 }, () => call(sandbox, 'GET', '/v1/lists')));
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([200]));
    expect(answers[0]!.headers.get('x-ratelimit-limit')).toBeNull();
  });

  // What the limit allows and refuses, with the clock it counts by held still: test/e2e/emulator/rate-limit.test.ts.
  it('with rateLimit: true, counts requests against the limit and says what is left on every answer', async () => {
    const sandbox = await start({ rateLimit: true });
    const answer = await call(sandbox, 'GET', '/v1/lists');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-ratelimit-limit')).toBe('10');
    expect(Number(answer.headers.get('x-ratelimit-remaining'))).toBeLessThan(10);
  });

  it('answers in the failure shape of the operation, for the key that is always over the limit whether the limit is on or off', async () => {
    const sandbox = await start({});
    const answer = await call(sandbox, 'POST', '/v1/contacts/create', { email: 'a@example.com' }, 'sandbox-rate-limited');
    expect(answer).toMatchObject({
      status: 429,
      body: { success: false, message: expect.stringMatching(/^Too many requests: the key sandbox-rate-limited is always over/) },
    });
    expect(answer.headers.get('x-ratelimit-remaining')).toBe('0');
  });
});

describe('webhook deliveries', () => {
  let app: WebhookApp | undefined;
  afterEach(() => app?.close());

  it('start at most 10 in any second, as the platform sends them', async () => {
    const secret = 'whsec_cHVibGljLWFwaS10ZXN0LXNlY3JldC0xMjM0NTY=';
    app = await startWebhookApp(secret);
    const sandbox = await start({ webhookUrl: app.url, webhookSecret: secret, rateLimit: false });
    expect(sandbox.webhookSecret).toBe(secret);
    await Promise.all(Array.from({ length: 12 }, (_, index) => call(sandbox, 'POST', '/v1/contacts/create', { email: `person${index}@example.com` })));
    const received = await app.waitFor(12);
    expect(received.filter((delivery) => !delivery.signed || delivery.payload.eventName !== 'contact.created')).toEqual([]);
    // When each was sent, as the sandbox recorded it once the app answered: the eleventh more than a second after the first.
    await vi.waitFor(() => expect(sandbox.deliveries().map((delivery) => delivery.status)).toEqual(Array(12).fill('delivered')));
    const sent = sandbox
      .deliveries()
      .map((delivery) => Date.parse(delivery.attempts[0]!.at))
      .sort((a, b) => a - b);
    expect(sent).toHaveLength(12);
    for (let index = 10; index < sent.length; index += 1) expect(sent[index]! - sent[index - 10]!).toBeGreaterThan(1000);
  });

  it('go on after a reset over HTTP: the endpoint is the sandbox setting, not its data', async () => {
    const secret = 'whsec_cHVibGljLWFwaS10ZXN0LXNlY3JldC0xMjM0NTY=';
    app = await startWebhookApp(secret);
    const sandbox = await start({ webhookUrl: app.url, webhookSecret: secret, rateLimit: false });
    expect((await call(sandbox, 'POST', '/_sandbox/reset')).status).toBe(200);
    await call(sandbox, 'POST', '/v1/contacts/create', { email: 'after-reset@example.com' });
    const [received] = await app.waitFor(1);
    expect(received).toMatchObject({ signed: true, payload: { eventName: 'contact.created' } });
  });
});

describe('starting and stopping', () => {
  it('refuses an option it does not take, which misspelt would otherwise be left out unnoticed', async () => {
    const misspelt = { fixture: 'test/loops.yaml' } as unknown as SandboxOptions;
    await expect(startSandbox(misspelt)).rejects.toThrow(
      'startSandbox takes no option "fixture"; its options are fixtures, seed, port, webhookUrl, webhookSecret, rateLimit',
    );
    await expect(startSandbox({ rateLimit: 'off' as unknown as boolean })).rejects.toThrow('rateLimit must be true or false, not "off"');
  });

  it.each<[Record<string, unknown>, string]>([
    // As text, a port is the path of a UNIX socket to Node: the sandbox would listen on a file named 4010;x.
    [{ port: '4010;x' }, 'port must be a whole number from 0 to 65535, not "4010;x"'],
    [{ port: '4010' }, 'port must be a whole number from 0 to 65535, not "4010"'],
    [{ port: 4010.5 }, 'port must be a whole number from 0 to 65535, not 4010.5'],
    [{ port: 65_536 }, 'port must be a whole number from 0 to 65535, not 65536'],
    [{ port: -1 }, 'port must be a whole number from 0 to 65535, not -1'],
    [{ fixtures: 42 }, 'fixtures must be the path of a fixture file or the fixtures as an object, not 42'],
    [{ fixtures: null }, 'fixtures must be the path of a fixture file or the fixtures as an object, not null'],
    [{ fixtures: [] }, 'fixtures must be the path of a fixture file or the fixtures as an object, not []'],
    [{ webhookUrl: new URL('http://127.0.0.1:1/hooks') }, 'webhookUrl must be a URL as text, not "http://127.0.0.1:1/hooks"'],
    [{ webhookUrl: 'http://127.0.0.1:1/hooks', webhookSecret: 7 }, 'webhookSecret must be text (whsec_...), not 7'],
    [{ rateLimit: 1 }, 'rateLimit must be true or false, not 1'],
    [{ webhookUrl: 'http://127.0.0.1:1/hooks', simulateEngagement: 'yes' }, 'simulateEngagement must be true or false, not "yes"'],
    [{ simulateEngagement: true }, 'simulateEngagement needs a webhookUrl'],
  ])('refuses an option of the wrong type (%j), starting nothing', async (options, message) => {
    await expect(startSandbox(options as SandboxOptions)).rejects.toThrow(new TypeError(message));
  });

  it('refuses options that are not an object', async () => {
    await expect(startSandbox(4010 as unknown as SandboxOptions)).rejects.toThrow('startSandbox takes an object of options, not 4010');
  });

  it('refuses a port in use, runs two sandboxes on two ports, and closes twice without complaint', async () => {
    const first = await start({});
    const port = Number(new URL(first.url).port);
    await expect(startSandbox({ port })).rejects.toThrow(`the sandbox cannot listen on 127.0.0.1:${port}: the port is already in use`);
    const second = await start({});
    expect(second.url).not.toBe(first.url);
    expect((await call(second, 'GET', '/v1/lists')).status).toBe(200);
    await first.close();
    await first.close();
    await expect(fetch(`${first.url}/v1/lists`)).rejects.toThrow();
    expect((await call(second, 'GET', '/v1/lists')).status).toBe(200);
  });
});
