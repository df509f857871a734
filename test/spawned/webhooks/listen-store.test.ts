/**
 * The built binary keeps what it receives: `webhooks listen --store` run as a process, stopped by
 * SIGINT, and `deliveries find` in another process reading the same store, on SQLite and on a real
 * PostgreSQL server; a PostgreSQL URL with a wrong password is refused without printing it.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { signWebhookEvent, webhookFixture } from '../../../src/webhooks/sign.js';
import { POSTGRES_PASSWORD, postgresAvailable, postgresForBlock } from '../../support/postgres.js';
import { BIN, runCli, spawnCli } from '../../support/run-cli.js';
import { tempDir } from '../../support/temp.js';
import { postSigned } from '../../support/webhook-app.js';

const SECRET = 'whsec_bGlzdGVuLWFuZC1maW5kLXNwYXduZWQtdGVzdC0x';

/** `webhooks listen --store` as a process: its URL once printed, and a stop by SIGINT. */
function listen(store: string): Promise<{ url: string; stop: () => Promise<{ code: number | null; stderr: string }> }> {
  const child = spawn(process.execPath, [BIN, 'webhooks', 'listen', '--store', store], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOOPSCTL_CONFIG_DIR: tempDir(), LOOPS_WEBHOOK_SECRET: SECRET, DO_NOT_TRACK: '1' },
  });
  let out = '';
  let err = '';
  const ended = new Promise<{ code: number | null; stderr: string }>((resolve) => child.once('close', (code) => resolve({ code, stderr: err })));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk;
      const url = /^(\S+)\n/.exec(out)?.[1];
      if (url !== undefined)
        resolve({
          url,
          stop: () => {
            child.kill('SIGINT');
            return ended;
          },
        });
    });
    void ended.then(({ code, stderr }) => reject(new Error(`listen ended (exit ${code}) before its URL: ${stderr}`)));
  });
}

async function keepsAndFinds(store: string): Promise<void> {
  const listener = await listen(store);
  const event = { ...webhookFixture('email.hardBounced'), contactIdentity: { id: 'c_spawned', email: 'spawned@example.com', userId: null } };
  const { body } = signWebhookEvent(event, SECRET, { id: 'msg_spawned' });
  expect(await postSigned(listener.url, body, { secret: SECRET, id: 'msg_spawned' })).toBe(200);
  expect(await postSigned(listener.url, body, { secret: SECRET, id: 'msg_spawned' })).toBe(200);
  const stopped = await listener.stop();
  expect(stopped.code, stopped.stderr).toBe(0);
  expect(stopped.stderr).toContain('2 deliveries received');
  const found = await spawnCli(['deliveries', 'find', '--to', 'spawned@example.com', '--store', store, '--json']);
  expect(found.code, found.stderr).toBe(0);
  expect(JSON.parse(found.stdout).map((delivery: { webhookId: string; eventName: string }) => [delivery.webhookId, delivery.eventName])).toEqual([
    ['msg_spawned', 'email.hardBounced'],
  ]);
}

describe('the built binary: webhooks listen --store, then deliveries find', () => {
  it('on SQLite', async () => {
    await keepsAndFinds(join(tempDir(), 'deliveries.db'));
  });

  describe.runIf(postgresAvailable())('on PostgreSQL', () => {
    const postgres = postgresForBlock();

    it('keeps and finds in the same database', async () => {
      await keepsAndFinds(postgres().url(await postgres().createDatabase()));
    });

    it('refuses a wrong password, and never prints it', async () => {
      const wrong = postgres()
        .url(await postgres().createDatabase())
        .replace(POSTGRES_PASSWORD, 'not-the-password-4711');
      const result = await runCli(['deliveries', 'find', '--store', wrong]);
      expect(result.code).toBe(2);
      expect(result.stderr).not.toContain('not-the-password-4711');
      expect(result.stderr).toContain(`127.0.0.1:${postgres().port}`);
    });
  });
});
