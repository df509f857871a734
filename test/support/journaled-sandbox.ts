/**
 * What a test file's tests open, each stopped or removed after the test that opened it: commands
 * that run until interrupted, scratch directories, and the loop of the delivery journal's tests, a
 * sandbox delivering its webhooks to `webhooks listen --store`, the journal an app keeps; and the
 * deliveries of sends, for a test to write into a journal itself.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { ReceivedDelivery } from '../../src/webhooks/delivery-store.js';
import { closedAfter } from './closing.js';
import { type Running, startRun, tempDir } from './main.js';
import { SEED_IDS } from './sandbox.js';

export interface Journaled {
  /** The journal's file. */
  store: string;
  /** `webhooks listen --store`, which prints each event it keeps. */
  listen: Running;
  /** The environment of a command that talks to the sandbox, with its own config directory. */
  api: Record<string, string>;
}

export interface EachTest {
  /** A command running until interrupted, stopped after the test whatever its outcome. */
  running(started: Running): Running;
  /** A temporary directory, removed after the test. */
  scratchDir(): string;
  /** A sandbox signing its webhooks with `secret`, delivering them to a journal; `listenOptions` go to `webhooks listen`. */
  journaled(secret: string, listenOptions?: string[]): Promise<Journaled>;
}

/** Call once in a test file, at its top. */
export function eachTest(): EachTest {
  const kept = closedAfter(afterEach);
  const running = (started: Running) => {
    kept({ close: async () => void (await started.stop()) });
    return started;
  };
  const scratchDir = () => {
    const dir = tempDir();
    kept({ close: async () => rmSync(dir, { recursive: true, force: true }) });
    return dir;
  };
  const journaled = async (secret: string, listenOptions: string[] = []) => {
    const env = { LOOPSCTL_CONFIG_DIR: scratchDir(), LOOPS_WEBHOOK_SECRET: secret };
    const store = join(scratchDir(), 'deliveries.db');
    const listen = running(startRun(['webhooks', 'listen', '--store', store, '--jsonl', ...listenOptions], { env }));
    const [, listenUrl] = await listen.waitFor(/"url":"([^"]+)"/);
    const sandbox = running(startRun(['sandbox', '--webhook-url', listenUrl!, '--webhook-secret', secret, '--simulate-engagement'], { env }));
    const [, sandboxUrl] = await sandbox.waitFor(/^(http\S+)\n/);
    return { store, listen, api: { ...env, LOOPS_BASE_URL: sandboxUrl!, LOOPS_API_KEY: 'sandbox-key' } };
  };
  return { running, scratchDir, journaled };
}

/** What a send event names: its type and the record that sent it, as the welcome email's send does. */
export const WELCOME_SENT = { eventName: 'transactional.email.sent', transactionalId: SEED_IDS.welcomeEmail, transactionalName: 'Welcome' };

/**
 * The delivery of a send event at `eventTime` (in seconds) to contact `n`, received half a second
 * later: `sent` its type and record (WELCOME_SENT), `email` its message's id and subject.
 */
export function sendDelivery(
  n: number,
  eventTime: number,
  { eventName, ...record }: { eventName: string } & Record<string, string>,
  email: { emailMessageId: string; subject: string },
): ReceivedDelivery {
  const body = JSON.stringify({
    eventName,
    eventTime,
    webhookSchemaVersion: '1.0.0',
    contactIdentity: { id: `c_${n}`, email: `r${n}@example.com`, userId: null },
    ...record,
    email: { id: `em_${n}`, ...email },
  });
  return { webhookId: `msg_${n}`, receivedAt: new Date(eventTime * 1000 + 500), headers: {}, body, verified: true };
}
