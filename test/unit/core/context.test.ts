import { getEventListeners } from 'node:events';
import { Readable, Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { InterruptedError } from '../../../src/base/errors.js';
import { CommandContext } from '../../../src/core/context.js';
import type { Runtime } from '../../../src/core/runtime.js';
import { type ApiServer, startApiServer } from '../../support/api-server.js';
import { silent } from '../../support/faults.js';
import { tempDir } from '../../support/main.js';

let server: ApiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A context whose requests go to `baseUrl`, in a run that `interruption` interrupts. */
function contextFor(baseUrl: string, interruption: AbortController): CommandContext {
  const runtime: Runtime = {
    stdout: new Writable({ write: (_chunk, _encoding, done) => done() }),
    stderr: new Writable({ write: (_chunk, _encoding, done) => done() }),
    stdin: Readable.from([]),
    env: { LOOPSCTL_CONFIG_DIR: '/nonexistent/loopsctl-test' },
    now: () => new Date('2026-01-02T03:04:05Z'),
    signal: interruption.signal,
    platform: process.platform,
  };
  return new CommandContext(runtime, { color: false, timeout: 60, retries: 0, baseUrl });
}

/** A context whose one request is in flight to a server that never answers, and the run's interruption. */
async function requestInFlight(): Promise<{ context: CommandContext; interruption: AbortController; sent: Promise<unknown> }> {
  server = await startApiServer({ 'GET /v1/slow': silent() });
  const interruption = new AbortController();
  const context = contextFor(server.url, interruption);
  const transport = await context.transport('test-key-unit');
  const sent = transport.send({ method: 'GET', path: '/v1/slow', idempotent: true });
  while (server.requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
  return { context, interruption, sent };
}

describe("a context's requests", () => {
  it("end at the run's interruption", async () => {
    const { context, interruption, sent } = await requestInFlight();
    interruption.abort();
    await expect(sent).rejects.toBeInstanceOf(InterruptedError);
    await context.close();
  });

  it('end when the context cancels them, leaving the run uninterrupted', async () => {
    const { context, interruption, sent } = await requestInFlight();
    context.cancel();
    await expect(sent).rejects.toBeInstanceOf(InterruptedError);
    expect(interruption.signal.aborted).toBe(false);
    await context.close();
  });

  it("are ended by a run interrupted before they start, and leave the run's signal as the context closes", async () => {
    server = await startApiServer({});
    const interruption = new AbortController();
    const context = contextFor(server.url, interruption);
    await context.transport('test-key-unit');
    expect(getEventListeners(interruption.signal, 'abort')).toHaveLength(1);
    await context.close();
    // A context of a tool call of `loopsctl mcp` ends long before the run whose signal it watched.
    expect(getEventListeners(interruption.signal, 'abort')).toHaveLength(0);

    const interrupted = new AbortController();
    interrupted.abort();
    const late = contextFor(server.url, interrupted);
    const transport = await late.transport('test-key-unit');
    await expect(transport.send({ method: 'GET', path: '/v1/slow', idempotent: true })).rejects.toBeInstanceOf(InterruptedError);
    expect(server.requests).toHaveLength(0);
    await late.close();
  });
});

describe('the account a plan names', () => {
  /** A context with no account named on its command line, and two stored profiles: "default" and "work". */
  async function planned(globals: Partial<ConstructorParameters<typeof CommandContext>[1]> = {}, env: Record<string, string> = {}): Promise<CommandContext> {
    const config = tempDir('loopsctl-plan-account-');
    const runtime: Runtime = {
      stdout: new Writable({ write: (_chunk, _encoding, done) => done() }),
      stderr: new Writable({ write: (_chunk, _encoding, done) => done() }),
      stdin: Readable.from([]),
      env: { LOOPSCTL_CONFIG_DIR: config, ...env },
      now: () => new Date('2026-01-02T03:04:05Z'),
      signal: new AbortController().signal,
      platform: process.platform,
    };
    const context = new CommandContext(runtime, { color: false, timeout: 60, retries: 0, ...globals });
    const store = await context.profileStore();
    store.saveProfile('default', { keyStorage: 'file', apiKey: 'key-of-default' });
    store.saveProfile('work', { keyStorage: 'file', apiKey: 'key-of-work' });
    return context;
  }

  it('is the stored profile the run uses when the command line names none, over LOOPS_API_KEY', async () => {
    const context = await planned({}, { LOOPS_API_KEY: 'key-in-environment' });
    await context.takeAccountOf('work');
    expect((await context.credentials()).apiKey).toBe('key-of-work');
  });

  it('leaves the usual choice for a profile not stored here, LOOPS_API_KEY, or a profile named on the command line', async () => {
    for (const [account, globals, key] of [
      ['elsewhere', {}, 'key-of-default'],
      ['LOOPS_API_KEY', {}, 'key-of-default'],
      ['work', { profile: 'default' }, 'key-of-default'],
    ] as const) {
      const context = await planned(globals);
      await context.takeAccountOf(account);
      expect((await context.credentials()).apiKey, account).toBe(key);
    }
  });

  it('is not taken once the run has picked its key', async () => {
    const context = await planned();
    expect((await context.credentials()).apiKey).toBe('key-of-default');
    await context.takeAccountOf('work');
    expect((await context.credentials()).apiKey).toBe('key-of-default');
  });
});
