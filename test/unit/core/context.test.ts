import { getEventListeners } from 'node:events';
import { Readable, Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { InterruptedError } from '../../../src/base/errors.js';
import { CommandContext } from '../../../src/core/context.js';
import type { Runtime } from '../../../src/core/runtime.js';
import { startApiServer, type ApiServer } from '../../support/api-server.js';
import { silent } from '../../support/faults.js';

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
