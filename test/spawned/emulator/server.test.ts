/** `loopsctl sandbox` as its own process, with loopsctl pointed at it through the environment. */
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { renameSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { withStateLock } from '../../../src/emulator/state/index.js';
import { BIN, HUNG_AFTER_MS, runCli, tempConfigDir } from '../../support/run-cli.js';
import { SEED_IDS } from '../../support/sandbox.js';
import { stateIn } from '../../support/state-file.js';
import { startWebhookApp } from '../../support/webhook-app.js';

const SECRET = 'whsec_c2VydmVyLXRlc3Qtc2VjcmV0LTEyMzQ1Njc4OTA=';

interface RunningSandbox {
  child: ChildProcessWithoutNullStreams;
  url: string;
  /** Everything it has printed on stdout so far. */
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

const running: RunningSandbox[] = [];
afterEach(() => {
  for (const sandbox of running.splice(0)) if (sandbox.child.exitCode === null) sandbox.child.kill('SIGKILL');
});

/** Starts `loopsctl sandbox` and waits for its line of output: the URL it listens on. */
function startSandboxProcess(args: string[], configDir = tempConfigDir()): Promise<RunningSandbox> {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOOPSCTL_CONFIG_DIR: configDir },
  });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
      if (stdout.includes('\n')) {
        const sandbox = { child, url: stdout.slice(0, stdout.indexOf('\n')), stdout: () => stdout, stderr: () => stderr, exited };
        running.push(sandbox);
        resolve(sandbox);
      }
    });
    void exited.then((code) => reject(new Error(`loopsctl sandbox exited with ${code}: ${stderr}`)));
  });
}

const against = (sandbox: RunningSandbox, args: string[], key = 'sandbox-key') => runCli(args, { env: { LOOPS_BASE_URL: sandbox.url, LOOPS_API_KEY: key } });

describe('loopsctl sandbox', () => {
  it('prints its URL as its one line of output, the exports on stderr, logs each request with its time and latency, applies each key, keeps its state in the file of --state, and with --exit-with-parent stops when its stdin closes', async () => {
    const stateFile = join(tempConfigDir(), 'elsewhere.db');
    const sandbox = await startSandboxProcess(['--state', stateFile, '--exit-with-parent']);
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.stdout()).toBe(`${sandbox.url}\n`);
    const [themes, workflow, auth] = await Promise.all([
      against(sandbox, ['themes', 'list', '--limit', '3']),
      against(sandbox, ['workflow', 'show', SEED_IDS.welcomeWorkflow]),
      against(sandbox, ['auth', 'status']),
    ]);
    expect(themes.code).toBe(0);
    expect(themes.stdout.trimEnd().split('\n')).toHaveLength(4);
    expect(workflow.stdout).toContain('Welcome series');
    expect(auth.stdout).toMatch(/teamName\s+Acme Sandbox/);
    expect(sandbox.stderr()).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z GET \/v1\/themes\?perPage=10 200 \d+\.\d ms$/m);
    // The notes came before the first request's line, on the same stream.
    expect(sandbox.stderr()).toContain(`export LOOPS_BASE_URL=${sandbox.url} LOOPS_API_KEY=sandbox-key`);
    // Nothing but the URL reaches stdout while it serves.
    expect(sandbox.stdout()).toBe(`${sandbox.url}\n`);
    // It applies each key: no content, no workflows, no sending domain, unknown.
    const [noContent, noContentThemes, noWorkflows, noDomain, unknown] = await Promise.all([
      against(sandbox, ['groups', 'list'], 'sandbox-no-content'),
      against(sandbox, ['themes', 'list'], 'sandbox-no-content'),
      against(sandbox, ['workflow', 'list'], 'sandbox-no-workflows'),
      against(sandbox, ['transactional', 'create', '--name', 'No domain'], 'sandbox-no-domain'),
      against(sandbox, ['ips', 'list'], 'not-a-sandbox-key'),
    ]);
    expect(noContent.code).toBe(3);
    expect(noContent.stderr).toContain('content API is not enabled');
    expect(noContentThemes.code).toBe(0);
    expect(noWorkflows.code).toBe(3);
    expect(noWorkflows.stderr).toContain('workflow API is not enabled');
    expect(noDomain.code).toBe(5);
    expect(noDomain.stderr).toContain('No sending domain');
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('Invalid API key');
    await against(sandbox, ['campaign-groups', 'update', SEED_IDS.newslettersCampaignGroup, '--description', 'Kept elsewhere']);
    expect(JSON.stringify(stateIn(stateFile).campaignGroups)).toContain('Kept elsewhere');
    // As when the process that started it dies.
    sandbox.child.stdin.end();
    expect(await sandbox.exited).toBe(0);
    expect(sandbox.stderr()).toContain('Sandbox stopped; state saved.');
  });

  it('saves its state on SIGTERM and exits 0; the next run goes on from it, --reset starts over', async () => {
    const configDir = tempConfigDir();
    const first = await startSandboxProcess([], configDir);
    const created = await against(first, ['transactional', 'create', '--name', 'Survives restarts', '--json']);
    expect(created.code).toBe(0);
    const id = JSON.parse(created.stdout).id as string;
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.stderr()).toContain('state saved');
    const saved = stateIn(configDir);
    expect(saved.transactionalEmails.map((email: { record: { id: string } }) => email.record.id)).toContain(id);

    const second = await startSandboxProcess([], configDir);
    expect((await against(second, ['transactional', 'list'])).stdout).toContain('Survives restarts');
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);

    const reset = await startSandboxProcess(['--reset'], configDir);
    expect((await against(reset, ['transactional', 'list'])).stdout).not.toContain('Survives restarts');
    reset.child.kill('SIGTERM');
    expect(await reset.exited).toBe(0);
  });

  it('starts from a new team with --seed empty, and starts over without a restart: over HTTP, and with `loopsctl sandbox reset`', async () => {
    const configDir = tempConfigDir();
    const sandbox = await startSandboxProcess(['--seed', 'empty'], configDir);
    const workflows = async () => JSON.parse((await against(sandbox, ['workflow', 'list', '--json'])).stdout) as unknown[];
    const themes = async () => JSON.parse((await against(sandbox, ['themes', 'list', '--json'])).stdout) as { isDefault: boolean }[];
    expect(await workflows()).toEqual([]);
    expect((await themes()).map((theme) => theme.isDefault)).toEqual([true]);

    const reset = (body?: unknown, key = 'sandbox-key') =>
      fetch(`${sandbox.url}/_sandbox/reset`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const toDemo = await reset({ seed: 'demo' });
    expect([toDemo.status, await toDemo.json()]).toEqual([200, { reset: true, seed: 'demo' }]);
    expect(await workflows()).toHaveLength(5);
    expect((await reset({ seed: 'none' })).status).toBe(400);
    expect((await reset(undefined, 'wrong')).status).toBe(401);

    // The command rewrites the file the server reads on every request.
    const command = await runCli(['sandbox', 'reset', '--seed', 'empty'], { env: { LOOPSCTL_CONFIG_DIR: configDir } });
    expect(command.code, command.stderr).toBe(0);
    expect(command.stderr).toContain('to the data of a new team');
    expect(await workflows()).toEqual([]);
    // Without a seed, a reset starts over from the one the data started from.
    await against(sandbox, ['workflow', 'create', '--name', 'Mine']);
    expect(await workflows()).toHaveLength(1);
    expect(await (await reset()).json()).toEqual({ reset: true, seed: 'empty' });
    expect(await workflows()).toEqual([]);
    expect(sandbox.child.exitCode).toBeNull();
  });

  it('on SIGTERM, ends a webhook delivery in flight and leaves it queued in the state, for the next start', async () => {
    const configDir = tempConfigDir();
    const app = await startWebhookApp(SECRET, () => 'hang');
    try {
      const sandbox = await startSandboxProcess(['--webhook-url', app.url, '--webhook-secret', SECRET, '--seed', 'empty'], configDir);
      expect((await against(sandbox, ['contacts', 'create', '--email', 'new@example.com'])).code).toBe(0);
      await app.waitFor(1);
      sandbox.child.kill('SIGTERM');
      expect(await sandbox.exited).toBe(0);
      const saved = stateIn(configDir);
      // The attempt cut short is not one: the delivery waits, as if never sent.
      expect(saved.webhookDeliveries).toEqual([expect.objectContaining({ eventName: 'contact.created', status: 'pending', attempts: [] })]);
    } finally {
      await app.close();
    }
  });

  it('starts from a fixture file, and refuses one with problems, naming each, before it listens', async () => {
    const dir = tempConfigDir();
    const good = join(dir, 'loops.json');
    writeFileSync(
      good,
      JSON.stringify({ mailingLists: [{ id: 'list_news', name: 'News' }], contacts: [{ email: 'ada@example.com', mailingLists: { list_news: true } }] }),
    );
    const sandbox = await startSandboxProcess(['--fixtures', good, '--rate-limit', 'off'], dir);
    const found = await against(sandbox, ['contacts', 'find', '--email', 'ada@example.com', '--json']);
    expect(JSON.parse(found.stdout)).toEqual([expect.objectContaining({ email: 'ada@example.com', mailingLists: { list_news: true } })]);
    expect(JSON.parse((await against(sandbox, ['workflow', 'list', '--json'])).stdout)).toEqual([]);
    // The reset over HTTP brings the fixtures back, and only them.
    expect((await against(sandbox, ['contacts', 'create', '--email', 'new@example.com'])).code).toBe(0);
    const reset = await fetch(`${sandbox.url}/_sandbox/reset`, { method: 'POST', headers: { authorization: 'Bearer sandbox-key' } });
    expect(await reset.json()).toEqual({ reset: true, seed: 'empty' });
    const emails = async (email: string) =>
      JSON.parse((await against(sandbox, ['contacts', 'find', '--email', email, '--json'])).stdout).map((contact: { email: string }) => contact.email);
    expect([await emails('ada@example.com'), await emails('new@example.com')]).toEqual([['ada@example.com'], []]);

    const bad = join(dir, 'loops.yaml');
    writeFileSync(bad, 'contacts:\n  - email: not-an-email\n    mailingLists: { nowhere: true }\nlists: []\n');
    const refused = await runCli(['sandbox', '--port', '0', '--fixtures', bad], { env: { LOOPSCTL_CONFIG_DIR: dir } });
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    // One problem a line, as docs/sandbox.md shows them, not run together with escaped line breaks.
    const lines = refused.stderr.split('\n');
    expect(lines[0]).toBe(`Error: ${bad} cannot be used: 2 problems`);
    expect(lines).toContain('  contacts[0].email: not an email address');
    expect(lines).toContain('  lists: unknown field');
  });

  it('refuses a port out of range, and --sandbox', async () => {
    const [badPort, nested] = await Promise.all([runCli(['sandbox', '--port', '70000']), runCli(['--sandbox', 'sandbox'])]);
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toContain('Error: --port must be a whole number from 0 to 65535, not 70000\n');
    expect(nested.code).toBe(2);
    expect(nested.stderr).toContain('--sandbox does not apply to `sandbox serve`');
  });
});

describe('loopsctl sandbox --detach', () => {
  it('returns once listening, so the eval recipe works as written, and the sandbox serves until killed', () => {
    const env = { ...process.env, LOOPSCTL_CONFIG_DIR: tempConfigDir(), LOOPS_API_KEY: '', LOOPS_BASE_URL: '' };
    const script = `set -e
eval "$(node '${BIN}' sandbox --detach)"
node '${BIN}' themes list --limit 1 --json
kill "$LOOPSCTL_SANDBOX_PID"`;
    const result = spawnSync('bash', ['-c', script], { env, encoding: 'utf8', timeout: HUNG_AFTER_MS });
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveLength(1);
  });

  it('says why the sandbox did not start: a port in use, fixtures with problems', async () => {
    const configDir = tempConfigDir();
    // Whatever holds the port: a server of this process.
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = String((holder.address() as AddressInfo).port);
    try {
      const bad = join(configDir, 'loops.yaml');
      writeFileSync(bad, 'contacts:\n  - { email: ada@example.com, favouriteColour: green }\n');
      const env = { ...process.env, LOOPSCTL_CONFIG_DIR: configDir };
      const detach = (args: string[]) => spawnSync(process.execPath, [BIN, 'sandbox', '--detach', ...args], { env, encoding: 'utf8', timeout: HUNG_AFTER_MS });
      const [taken, refused] = [detach(['--port', port]), detach(['--fixtures', bad])];
      expect([taken.status, taken.stdout]).toEqual([2, '']);
      expect(taken.stderr).toContain(`Error: the sandbox did not start: the sandbox cannot listen on 127.0.0.1:${port}: the port is already in use\n`);
      expect(taken.stderr).toContain('--port');
      expect([refused.status, refused.stdout]).toEqual([2, '']);
      expect(refused.stderr).toContain(`${bad} cannot be used: 1 problem\n  contacts[0].favouriteColour: unknown field`);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('survives its state file turning unreadable: says so once, answers 500, and serves again after `sandbox reset`', async () => {
    const app = await startWebhookApp(SECRET);
    try {
      const configDir = tempConfigDir();
      const stateFile = join(configDir, 'state.json');
      // Delivering webhooks, it also reads the file when the file changes, not only on a request.
      const sandbox = await startSandboxProcess(['--state', stateFile, '--webhook-url', app.url, '--webhook-secret', SECRET], configDir);
      expect((await against(sandbox, ['themes', 'list'])).code).toBe(0);
      // A newer loopsctl's layout, cut short, written as any loopsctl writes the file: whole, under
      // its lock (the sandbox's webhook engine may be saving the state at that very moment).
      withStateLock(stateFile, () => {
        writeFileSync(`${stateFile}.next`, '{"version": 999, "themes": [');
        renameSync(`${stateFile}.next`, stateFile);
      });
      const problem = `the sandbox state file ${stateFile} could not be read`;
      // Asked once each (a 500 is retried after a pause otherwise): two requests, one message.
      const [first, second] = [await against(sandbox, ['themes', 'list', '--retries', '0']), await against(sandbox, ['lists', 'list', '--retries', '0'])];
      expect(first.code).toBe(8);
      expect(first.stderr).toContain(problem);
      expect(second.code).toBe(8);
      expect(second.stderr).toContain(problem);
      expect(sandbox.stderr().split(problem)).toHaveLength(2);
      expect(sandbox.stderr()).toContain('loopsctl sandbox reset');
      expect(sandbox.stderr()).not.toMatch(/\n\s+at /);
      expect(sandbox.child.exitCode).toBeNull();
      const reset = await runCli(['sandbox', 'reset', '--state', stateFile], { env: { LOOPSCTL_CONFIG_DIR: configDir } });
      expect(reset.code, reset.stderr).toBe(0);
      expect((await against(sandbox, ['themes', 'list'])).code).toBe(0);
      expect(sandbox.child.exitCode).toBeNull();
    } finally {
      await app.close();
    }
  });
});
