/**
 * An import killed with SIGKILL mid-run and run again sends no record twice: the built binary
 * against a sandbox of the test's own, which counts the requests for each record.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ApiRequest } from '../../../../src/emulator/api.js';
import type { SandboxServer } from '../../../../src/emulator/server.js';
import { closedAfter } from '../../../support/closing.js';
import { startTestSandbox, tempDir } from '../../../support/main.js';
import { runCli, type SpawnedCli } from '../../../support/run-cli.js';

const RECORDS = 40;
/** Killed once this many records have reached the sandbox: well inside the run. */
const KILL_AFTER = 12;

// The tests run at once, each with servers of its own.
const keep = closedAfter(afterAll);

interface Counted {
  server: SandboxServer;
  /** Requests per record, and how many of them the sandbox carried out (2xx). */
  requests: Map<string, number>;
  succeeded: Map<string, number>;
}

async function countingSandbox(path: string, recordOf: (body: Record<string, unknown>) => string, onCount: (total: number) => void): Promise<Counted> {
  const requests = new Map<string, number>();
  const succeeded = new Map<string, number>();
  let total = 0;
  const server = await startTestSandbox({
    onRequest: (request: ApiRequest, answer) => {
      if (request.path !== path) return;
      const record = recordOf(JSON.parse(request.body));
      requests.set(record, (requests.get(record) ?? 0) + 1);
      if (answer.status < 300) succeeded.set(record, (succeeded.get(record) ?? 0) + 1);
      onCount((total += 1));
    },
  });
  keep(server);
  return { server, requests, succeeded };
}

async function killThenResume(server: SandboxServer, args: string[], killer: { child?: SpawnedCli }) {
  const env = { LOOPS_BASE_URL: server.url, LOOPS_API_KEY: 'sandbox-key' };
  const killed = await runCli(args, { env, onSpawn: (child) => (killer.child = child) });
  expect(killed.code).toBe(null);
  const resumed = await runCli([...args, '--json'], { env });
  return resumed;
}

describe.concurrent('an import killed with SIGKILL and resumed', () => {
  it('creates every contact exactly once', async () => {
    const dir = tempDir();
    const file = join(dir, 'contacts.csv');
    const emails = Array.from({ length: RECORDS }, (_, index) => `person${index}@example.com`);
    writeFileSync(file, `email,plan\n${emails.map((email) => `${email},pro`).join('\n')}\n`);
    const killer: { child?: SpawnedCli } = {};
    const counted = await countingSandbox(
      '/v1/contacts/create',
      (body) => body.email as string,
      (total) => {
        if (total === KILL_AFTER) killer.child?.kill('SIGKILL');
      },
    );
    const resumed = await killThenResume(counted.server, ['contacts', 'import', file], killer);
    expect(resumed.code).toBe(0);
    const summary = JSON.parse(resumed.stdout);
    expect(summary.failed).toBe(0);
    expect(summary.created + summary.skipped).toBe(RECORDS);
    expect(summary.skipped).toBeGreaterThanOrEqual(KILL_AFTER - 4);
    for (const email of emails) {
      expect(counted.requests.get(email), email).toBe(1);
      expect(counted.succeeded.get(email), email).toBe(1);
    }
  });

  it('sends every event exactly once (a lost answer is resent under the same key and refused)', async () => {
    const dir = tempDir();
    const file = join(dir, 'events.jsonl');
    const emails = Array.from({ length: RECORDS }, (_, index) => `person${index}@example.com`);
    writeFileSync(file, `${emails.map((email) => JSON.stringify({ eventName: 'trial_started', email })).join('\n')}\n`);
    const killer: { child?: SpawnedCli } = {};
    const counted = await countingSandbox(
      '/v1/events/send',
      (body) => body.email as string,
      (total) => {
        if (total === KILL_AFTER) killer.child?.kill('SIGKILL');
      },
    );
    const resumed = await killThenResume(counted.server, ['events', 'import', file], killer);
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ failed: 0 });
    for (const email of emails) {
      expect(counted.succeeded.get(email), email).toBe(1);
      // At most the one in flight at the kill is asked again, and refused.
      expect(counted.requests.get(email), email).toBeLessThanOrEqual(2);
    }
  });
});
