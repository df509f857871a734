import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedId } from '../../../../src/emulator/module.js';
import { json, startApiServer } from '../../../support/api-server.js';
import { run } from '../../../support/main.js';
import { type RecordingSandbox, recordingSandbox } from '../../../support/recording.js';

const TRIAL_STARTED = seedId('event-pattern/trial_started');

describe('event patterns from the workflows', () => {
  let sandbox: RecordingSandbox;
  beforeEach(async () => {
    sandbox = await recordingSandbox();
  });
  afterEach(() => sandbox.close());

  it('lists the events the seed workflows trigger on, and those the app sent that none does', async () => {
    const result = await run(['event-patterns', 'list', '--json'], { env: sandbox.env });
    const listed = result.json<{ eventName: string }[]>();
    expect(listed).toContainEqual({ id: TRIAL_STARTED, eventName: 'trial_started', incomingWebhookPlatform: null });
    expect(listed.map((pattern) => pattern.eventName)).toEqual(
      expect.arrayContaining(['invoice "paid"', 'export\\path $HOME #{plan}', 'digest\nweekly', "it's renewed", 'class', 'Trial Started!']),
    );
  });

  it('gets one by a name of special characters, percent-encoded into the path as the description says', async () => {
    const name = 'export\\path $HOME #{plan}';
    const byName = await run(['event-patterns', 'get', '--name', name, '--json'], { env: sandbox.env });
    expect(byName.code, byName.stderr).toBe(0);
    expect(byName.json()).toMatchObject({ eventName: name, eventProperties: [{ name: 'plan', type: 'string' }] });
  });

  it('gets one by id or by name, with the trigger’s properties', async () => {
    const byId = await run(['event-patterns', 'get', TRIAL_STARTED, '--json'], { env: sandbox.env });
    const byName = await run(['event-patterns', 'get', '--name', 'trial_started', '--json'], { env: sandbox.env });
    expect(byName.json()).toEqual(byId.json());
    expect(byId.json().eventProperties).toContainEqual({ name: 'seats', type: 'number' });
    const text = await run(['event-patterns', 'get', '--name', 'trial_started'], { env: { ...sandbox.env, NO_COLOR: '1' }, tty: { columns: 100 } });
    expect(text.stdout).toMatch(/\ntrialEndsAt +date\n/);
    const piped = await run(['event-patterns', 'get', '--name', 'trial_started'], { env: sandbox.env });
    expect(piped.stdout).toContain(`\neventProperties\t${JSON.stringify(byId.json().eventProperties)}\n`);
    expect(sandbox.requests.map((request) => request.path)).toContain('/v1/event-patterns/by-name/trial_started');
  });

  it('names are case-sensitive: a miss says so', async () => {
    const result = await run(['event-patterns', 'get', '--name', 'Trial_Started'], { env: sandbox.env });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('event names are case-sensitive');
  });

  it('needs exactly one of an id and --name', async () => {
    for (const [argv, message] of [
      [['event-patterns', 'get'], 'Error: give exactly one of <id> or --name\n'],
      [['event-patterns', 'get', TRIAL_STARTED, '--name', 'x'], 'Error: <id> and --name cannot be used together\n'],
    ] as const) {
      const result = await run([...argv], { env: sandbox.env });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(message);
    }
    expect(sandbox.requests).toHaveLength(0);
  });
});

it('an event name is percent-encoded into the path', async () => {
  const server = await startApiServer({
    'GET /v1/event-patterns/by-name/:name': (_req, res) =>
      json(res, 200, { id: 'e1', eventName: 'a b/c?', eventProperties: [], incomingWebhookPlatform: 'stripe' }),
  });
  try {
    const result = await run(['event-patterns', 'get', '--name', 'a b/c?'], {
      env: { LOOPS_API_KEY: 'test-key-not-real', LOOPS_BASE_URL: server.url, NO_COLOR: '1' },
      tty: { columns: 100 },
    });
    expect(result.code).toBe(0);
    expect(server.requests[0]!.path).toBe('/v1/event-patterns/by-name/a%20b%2Fc%3F');
    expect(result.stdout).toContain('stripe');
    expect(result.stdout).toContain('No event properties.');
  } finally {
    await server.close();
  }
});
