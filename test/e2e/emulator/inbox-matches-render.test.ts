/**
 * One email draws the same everywhere on this machine: a transactional email pulled from the
 * sandbox and rendered by `content render` with the values a send carried is, byte for byte, the
 * email the sandbox's inbox shows for that send. The renderer and the sandbox's seed share one
 * default theme (src/platform/themes/default-theme.ts) and one renderer.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxServer, startServer } from '../../../src/emulator/server.js';
import { seedState } from '../../../src/emulator/state/index.js';
import { run, sandboxEnv, tempDir } from '../../support/main.js';
import { SEED_IDS } from '../../support/sandbox.js';

function get(url: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    })
      .on('error', reject)
      .end();
  });
}

describe('a pulled email in content render and in the sandbox inbox', () => {
  let sandbox: SandboxServer;
  beforeAll(async () => {
    sandbox = await startServer({ initialState: (modules) => seedState(modules, 'demo') });
  });
  afterAll(() => sandbox.close());

  it('renders byte for byte the same', async () => {
    const env = sandboxEnv(sandbox);
    const root = join(tempDir('loopsctl-same-email-'), 'loops');
    const pulled = await run(['content', 'pull', root], { env });
    expect(pulled.code, pulled.stderr).toBe(0);
    const values = { firstName: 'Ada', resetUrl: 'https://acme.example/reset?t=1', expiresInMinutes: '30' };
    const variables = Object.entries(values).flatMap(([name, value]) => ['--var', `${name}=${value}`]);
    const sent = await run(['transactional', 'send', SEED_IDS.passwordReset, '--to', 'ada@example.com', ...variables], { env });
    expect(sent.code, sent.stderr).toBe(0);
    const inbox = await get(`${sandbox.url}/_sandbox/inbox/email.html?email=0`);
    expect(inbox.status).toBe(200);

    const directory = readdirSync(join(root, 'transactional')).find((name) => name.endsWith(`--${SEED_IDS.passwordReset}`))!;
    const valuesFile = join(root, '..', 'values.json');
    writeFileSync(valuesFile, JSON.stringify({ data: values }));
    // Offline: the tree alone holds what the email needs.
    const rendered = await run(['content', 'render', join(root, 'transactional', directory, 'published.lmx'), '--data', valuesFile], {
      env: { LOOPS_API_KEY: undefined },
    });
    expect(rendered.code, rendered.stderr).toBe(0);
    expect(rendered.stdout).toContain('Ada');
    expect(rendered.stdout).toBe(inbox.text);
  });
});
