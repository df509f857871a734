/**
 * Protecting an account: the team check before the first write of a run, read-only profiles and
 * --dry-run, against a served sandbox whose requests the test sees. The write commands come from
 * the declarations: every command that may change the account, run as its examples show it.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/base/exit-codes.js';
import { DRY_RUN_OPTION } from '../../../src/core/declare.js';
import { SANDBOX_KEY } from '../../../src/emulator/keys.js';
import type { SandboxServer } from '../../../src/emulator/server.js';
import { json, startApiServer } from '../../support/api-server.js';
import { run, startTestSandbox, tempDir } from '../../support/main.js';
import { writeCommands as writeCommandsOf } from '../../support/write-commands.js';

const TEAM = 'Acme Sandbox';

let server: SandboxServer;
let stateFile: string;
let requests: string[] = [];
/**
 * Where the examples' files are, as a person would have them; the examples name them by absolute
 * path, without a process.chdir: a mutation run (stryker.config.mjs) runs the tests in worker
 * threads, where process.chdir throws, and would then credit none of these tests.
 */
let home: string;

beforeAll(async () => {
  stateFile = join(tempDir(), 'state.json');
  server = await startTestSandbox({ stateFile, onRequest: (request) => requests.push(`${request.method} ${request.path}`) });
  home = tempDir('loopsctl-protect-');
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
  writeFileSync(join(home, 'logo.png'), png);
  writeFileSync(join(home, 'contacts.csv'), 'email,firstName,plan\nalan@example.com,Alan,pro\n');
  writeFileSync(join(home, 'events.jsonl'), '{"eventName":"trial_started","email":"ada@example.com"}\n');
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  requests = [];
});

const viaServer = () => ({ LOOPS_API_KEY: SANDBOX_KEY, LOOPS_BASE_URL: server.url });
const writes = () => requests.filter((request) => !request.startsWith('GET '));

/** A config dir with one stored profile holding the sandbox's key, as `auth login` stores it. */
async function profileDir(...flags: string[]): Promise<Record<string, string>> {
  const env = { LOOPSCTL_CONFIG_DIR: tempDir(), LOOPS_BASE_URL: server.url };
  const login = await run(['auth', 'login', '--with-key-stdin', '--profile', 'production', ...flags], { env, input: SANDBOX_KEY });
  expect(login.code, login.stderr).toBe(0);
  return env;
}

describe('the team check', () => {
  it('refuses a write to another team than the one expected, sending nothing', async () => {
    const result = await run(['themes', 'create', '--name', 'Never made', '--expect-team', 'Acme Production'], { env: viaServer() });
    expect(result.code).toBe(ExitCode.protected);
    expect(result.stderr).toMatch(
      new RegExp(`^Error: the key belongs to team "${TEAM}", not "Acme Production" \\(expected by --expect-team\\); nothing was sent: use a key of`),
    );
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(requests).toEqual(['GET /v1/api-key']);
  });

  it('takes the team from LOOPSCTL_EXPECTED_TEAM, and --json gives the error its code', async () => {
    const result = await run(['contacts', 'create', '--email', 'x@example.com', '--json'], {
      env: { ...viaServer(), LOOPSCTL_EXPECTED_TEAM: 'Big "Corp" \u00e9\t2' },
    });
    expect(result.code).toBe(ExitCode.protected);
    expect(JSON.parse(result.stderr).error).toMatchObject({ code: 'wrong_team', exitCode: 11 });
    expect(JSON.parse(result.stderr).error.message).toContain('not "Big \\"Corp\\" \u00e9\\t2" (expected by LOOPSCTL_EXPECTED_TEAM)');
    expect(writes()).toEqual([]);
  });

  it('lets the right team write, with exactly one extra request per run, however the name is spaced or cased', async () => {
    const result = await run(['themes', 'create', '--name', 'Checked', '--json'], { env: { ...viaServer(), LOOPSCTL_EXPECTED_TEAM: '  acme   SANDBOX ' } });
    expect(result.code, result.stderr).toBe(0);
    expect(requests).toEqual(['GET /v1/api-key', 'POST /v1/themes']);
  });

  it("checks a profile's recorded team, once per run, and never for reads", async () => {
    const env = await profileDir();
    requests = [];
    const read = await run(['themes', 'list', '--json', '--profile', 'production'], { env });
    expect(read.code, read.stderr).toBe(0);
    expect(requests).not.toContain('GET /v1/api-key');
    requests = [];
    const write = await run(
      ['workflow', 'nodes', 'add-branch', 'cw509z9tjxv56rte3vt30437u', 'cu46uqyjwgaeml2epsiw5a711', '--profile', 'production', '--json'],
      { env },
    );
    expect(write.code, write.stderr).toBe(0);
    expect(requests.filter((request) => request === 'GET /v1/api-key')).toHaveLength(1);
    expect(requests.indexOf('GET /v1/api-key')).toBeLessThan(requests.findIndex((request) => !request.startsWith('GET ')));
  });

  it("never changes a profile's recorded team on a read: auth status reports another team, and --record-team records it", async () => {
    const env = await profileDir();
    const config = join(env.LOOPSCTL_CONFIG_DIR!, 'config.json');
    const stored = JSON.parse(readFileSync(config, 'utf8'));
    stored.profiles.production.teamName = 'Acme Production';
    writeFileSync(config, JSON.stringify(stored));
    const before = readFileSync(config, 'utf8');
    const status = await run(['auth', 'status', '--profile', 'production', '--json'], { env });
    expect(status.code).toBe(ExitCode.protected);
    expect(status.json()).toMatchObject({ profile: 'production', teamName: TEAM });
    expect(JSON.parse(status.stderr).error).toMatchObject({
      code: 'wrong_team',
      message: `the key of profile "production" belongs to team "${TEAM}", but the profile records "Acme Production": its writes are refused`,
      hint: expect.stringContaining('--record-team'),
    });
    expect(readFileSync(config, 'utf8')).toBe(before);
    const refused = await run(['themes', 'create', '--name', 'Never made', '--profile', 'production'], { env });
    expect(refused.code).toBe(ExitCode.protected);
    expect(refused.stderr).toContain('`loopsctl auth status --profile production --record-team`');
    const recorded = await run(['auth', 'status', '--profile', 'production', '--record-team'], { env });
    expect(recorded.code, recorded.stderr).toBe(0);
    expect(JSON.parse(readFileSync(config, 'utf8')).profiles.production.teamName).toBe(TEAM);
    expect((await run(['themes', 'create', '--name', 'Made', '--profile', 'production', '--json'], { env })).code).toBe(0);
  });

  it('says when a profile records no team, and records one only when asked', async () => {
    const env = await profileDir('--skip-verify');
    const status = await run(['auth', 'status', '--profile', 'production'], { env });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stderr).toContain('Note: profile "production" records no team, so its writes are not checked');
    const config = join(env.LOOPSCTL_CONFIG_DIR!, 'config.json');
    expect(JSON.parse(readFileSync(config, 'utf8')).profiles.production.teamName).toBeUndefined();
    expect((await run(['auth', 'status', '--profile', 'production', '--record-team'], { env })).code).toBe(0);
    expect(JSON.parse(readFileSync(config, 'utf8')).profiles.production.teamName).toBe(TEAM);
    const environment = await run(['auth', 'status', '--record-team'], { env: viaServer() });
    expect(environment.code).toBe(ExitCode.usage);
    expect(environment.stderr).toContain('--record-team records the team of a stored profile, and this key comes from environment (LOOPS_API_KEY)');
  });

  it('checks once per run, however many records the run writes', async () => {
    writeFileSync(join(home, 'three.csv'), 'email\none@example.com\ntwo@example.com\nthree@example.com\n');
    const result = await run(['contacts', 'import', join(home, 'three.csv'), '--expect-team', TEAM, '--json'], { env: viaServer() });
    expect(result.code, result.stderr).toBe(0);
    expect(writes()).toHaveLength(3);
    expect(requests.filter((request) => request === 'GET /v1/api-key')).toEqual(['GET /v1/api-key']);
    expect(requests[0]).toBe('GET /v1/api-key');
  });

  it('refuses --expect-team "" before asking anything, rather than comparing with no name', async () => {
    const result = await run(['themes', 'create', '--name', 'Never made', '--expect-team', ''], { env: viaServer() });
    expect(result).toMatchObject({ code: ExitCode.usage, stdout: '' });
    expect(result.stderr).toBe('Error: --expect-team needs the name of a team\nHint: see the team of a key with `loopsctl auth status`\n');
    expect(requests).toEqual([]);
  });

  it('knows a team name written in another Unicode form (decomposed accents) for the same name', async () => {
    const api = await startApiServer({
      'GET /v1/api-key': (_req, res) => json(res, 200, { success: true, teamName: 'Caf\u00e9 Cr\u00e8me' }),
      'POST /v1/contacts/create': (_req, res) => json(res, 200, { success: true, id: 'cnew' }),
    });
    try {
      const decomposed = 'Cafe\u0301 Cre\u0300me';
      const result = await run(['contacts', 'create', '--email', 'x@example.com', '--expect-team', decomposed], {
        env: { LOOPS_API_KEY: 'test-key-not-real', LOOPS_BASE_URL: api.url },
      });
      expect(result.code, result.stderr).toBe(0);
    } finally {
      await api.close();
    }
  });

  it('reports a wrong key first, with the hint of where it came from', async () => {
    const result = await run(['contacts', 'create', '--email', 'x@example.com', '--expect-team', TEAM], {
      env: { ...viaServer(), LOOPS_API_KEY: 'wrong-key-not-real' },
    });
    expect(result.code).toBe(ExitCode.auth);
    expect(result.stderr).toContain('(the key in the environment variable LOOPS_API_KEY)\nHint: check the value of LOOPS_API_KEY');
    expect(writes()).toEqual([]);
  });

  it('retries GET /v1/api-key as any read, and sends nothing when it still fails', async () => {
    const api = await startApiServer();
    try {
      let asked = 0;
      api.route('GET /v1/api-key', (_req, res) => {
        asked += 1;
        json(res, 503, { message: 'down for a moment' });
      });
      const result = await run(['--retries', '1', 'themes', 'create', '--name', 'X', '--expect-team', TEAM], {
        env: { LOOPS_API_KEY: 'test-key-not-real', LOOPS_BASE_URL: api.url },
      });
      expect(result.code).toBe(ExitCode.server);
      expect(result.stderr).toBe('Error: down for a moment (gave up after 1 retry)\n');
      expect(asked).toBe(2);
    } finally {
      await api.close();
    }
  });
});

const writeCommands = () => writeCommandsOf(home);

describe('read-only profiles', () => {
  it('refuse every command that may change the account before any request, naming the profile', async () => {
    const env = await profileDir('--read-only');
    const commands = writeCommands();
    expect(commands.length).toBeGreaterThan(30);
    for (const { name, argv } of commands) {
      const words = name === 'content promote' ? await promotion('read-only') : argv;
      requests = [];
      const result = await run([...words, '--profile', 'production'], { env });
      expect(result.code, `${name}\n${result.stderr}`).toBe(ExitCode.protected);
      expect(result.stderr, name).toContain('profile "production" is read-only');
      expect(requests, name).toEqual([]);
    }
  });

  it('let a run say --allow-writes', async () => {
    const env = await profileDir('--read-only');
    const result = await run(['themes', 'create', '--name', 'Allowed once', '--profile', 'production', '--allow-writes', '--json'], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(writes()).toEqual(['POST /v1/themes']);
  });

  it('still read, and are marked and unmarked by auth verbs that auth list shows', async () => {
    const env = await profileDir();
    expect((await run(['auth', 'list', '--json'], { env })).json()).toEqual([
      { profile: 'production', default: true, storage: 'file', teamName: TEAM, readOnly: false },
    ]);
    expect((await run(['auth', 'read-only', 'production'], { env })).code).toBe(0);
    expect((await run(['auth', 'list', '--json'], { env })).json()[0].readOnly).toBe(true);
    expect((await run(['auth', 'list'], { env })).stdout).toMatch(/READ-ONLY[\s\S]*production\s+yes\s+file\s+yes\s+Acme Sandbox/);
    expect((await run(['themes', 'list', '--json'], { env })).code).toBe(0);
    const refused = await run(['themes', 'create', '--name', 'No'], { env });
    expect(refused.code).toBe(ExitCode.protected);
    expect(refused.stderr).toContain('Error: profile "production" is read-only, and `themes create` changes the account; nothing was sent\n');
    expect((await run(['auth', 'status', '--json'], { env })).json()).toMatchObject({ profile: 'production', teamName: TEAM, readOnly: true });
    // A new key for the profile keeps its mark.
    expect((await run(['auth', 'login', '--with-key-stdin', '--profile', 'production'], { env, input: SANDBOX_KEY })).code).toBe(0);
    expect((await run(['auth', 'list', '--json'], { env })).json()[0].readOnly).toBe(true);
    expect((await run(['auth', 'read-write', 'production'], { env })).code).toBe(0);
    expect((await run(['auth', 'list', '--json'], { env })).json()[0].readOnly).toBe(false);
  });

  it('keep an MCP server to reading tools, and refuse one asked for more', async () => {
    const env = await profileDir('--read-only');
    requests = [];
    const result = await run(['mcp', '--allow-writes'], { env });
    expect(result.code).toBe(ExitCode.protected);
    expect(result.stderr).toContain('profile "production" is read-only, so the server cannot offer tools that change the account (--allow-writes)');
    expect(requests).toEqual([]);
  });

  it('refuse an MCP server that may write with a key of another team than the one expected, and serve one that reads', async () => {
    const expected = await run(['mcp', '--allow-destructive', '--expect-team', 'Acme Production'], { env: viaServer(), input: '' });
    expect(expected.code).toBe(ExitCode.protected);
    expect(expected.stderr).toContain(
      `Error: the key belongs to team "${TEAM}", not "Acme Production" (expected by --expect-team), so the server cannot offer tools that change the account (--allow-destructive)\n`,
    );
    expect(expected.stderr).not.toContain('loopsctl mcp:');
    const env = await profileDir();
    const recorded = join(env.LOOPSCTL_CONFIG_DIR!, 'config.json');
    writeFileSync(recorded, readFileSync(recorded, 'utf8').replace(`"${TEAM}"`, '"Acme Production"'));
    const profile = await run(['mcp', '--allow-writes'], { env, input: '' });
    expect(profile.code).toBe(ExitCode.protected);
    expect(profile.stderr).toContain(
      `Error: the key belongs to team "${TEAM}", not "Acme Production" (expected by profile "production"), so the server cannot offer tools that change the account (--allow-writes)\n`,
    );
    expect(profile.stderr).toContain('--record-team');
    // Naming the key's team for the run is what lets its writes through, and the server too.
    const named = await run(['mcp', '--allow-writes', '--expect-team', TEAM], { env, input: '' });
    expect(named.code, named.stderr).toBe(0);
    const reading = await run(['mcp', '--expect-team', 'Acme Production'], { env: viaServer(), input: '' });
    expect(reading.code, reading.stderr).toBe(0);
    expect(writes()).toEqual([]);
  });
});

/** A pulled copy of the themes (in `dir` under the home) with one changed, and the push that would send it. */
async function editedTheme(dir = 'loops'): Promise<string[]> {
  const tree = join(home, dir);
  const pulled = await run(['content', 'pull', tree, '--only', 'themes'], { env: viaServer() });
  expect(pulled.code, pulled.stderr).toBe(0);
  const file = join(tree, 'themes', readdirSync(join(tree, 'themes'))[0]!, 'theme.json');
  writeFileSync(file, readFileSync(file, 'utf8').replace(/"#[0-9a-fA-F]{6}"/, '"#123456"'));
  return ['content', 'push', tree, '--only', 'themes'];
}

/** A plan file of that push, and the apply that would play it. */
async function plannedTheme(dir = 'planned'): Promise<string[]> {
  const plan = join(home, `${dir}.json`);
  const planned = await run([...(await editedTheme(dir)), '--plan', '--out', plan], { env: viaServer() });
  expect(planned.code, planned.stderr).toBe(0);
  return ['apply', plan];
}

/**
 * A tree of the transactional emails whose environments.json names two environments, staging and
 * production, both on this sandbox: the seed's brand is staging's value, so a promotion to
 * production sends its own; and the promotion.
 */
async function promotion(dir: string): Promise<string[]> {
  const tree = join(home, dir);
  const pulled = await run(['content', 'pull', tree, '--only', 'transactional', '--force'], { env: viaServer() });
  expect(pulled.code, pulled.stderr).toBe(0);
  const environments = { staging: { profile: 'staging', values: { brand: 'Acme' } }, production: { profile: 'production', values: { brand: 'Zenith' } } };
  writeFileSync(join(tree, 'environments.json'), JSON.stringify({ environments }));
  return ['content', 'promote', tree, '--from', 'staging', '--to', 'production', '--only', 'transactional', '--force', '--yes'];
}

/** A config dir with the two environments' profiles, each holding the sandbox's key. */
async function environmentsEnv(): Promise<Record<string, string>> {
  const env = { LOOPSCTL_CONFIG_DIR: tempDir(), LOOPS_BASE_URL: server.url };
  for (const profile of ['staging', 'production']) {
    const login = await run(['auth', 'login', '--with-key-stdin', '--profile', profile], { env, input: SANDBOX_KEY });
    expect(login.code, login.stderr).toBe(0);
  }
  return env;
}

/** Where the apply below keeps its before-images, which the undo reads. */
const undoEnv = () => ({ ...viaServer(), LOOPSCTL_CONFIG_DIR: join(home, 'undo-config') });

/** A plan of that push, applied, and the undo that would put the theme back. */
async function appliedTheme(): Promise<string[]> {
  const [, plan] = await plannedTheme('applied');
  const applied = await run(['apply', plan!], { env: undoEnv() });
  expect(applied.code, applied.stderr).toBe(0);
  return ['undo', plan!];
}

describe('--dry-run', () => {
  it('on every command that may change the account sends nothing and changes nothing, and prints what it would send', async () => {
    for (const { name, spec, argv: shown, input: given, before } of writeCommands()) {
      const input = before === undefined ? given : (await run(before, { env: viaServer() })).stdout;
      // `content push` sends what was changed since a pull: one theme, here; its example only plans.
      // `apply` plays a plan file: one of that push, here; `undo` takes back one applied.
      // `content promote` reads one environment's account and writes another's: a tree naming two, here.
      const argv = await (
        {
          'content push': editedTheme,
          apply: plannedTheme,
          undo: appliedTheme,
          'content promote': () => promotion('dry-run'),
        }[name] ?? (async () => shown)
      )();
      const promotedState = name === 'content promote' ? readFileSync(join(argv[2]!, 'loopsctl-state.json'), 'utf8') : undefined;
      const state = readFileSync(stateFile, 'utf8');
      requests = [];
      const env = name === 'undo' ? undoEnv() : name === 'content promote' ? await environmentsEnv() : viaServer();
      const result = await run([...argv.filter((word) => word !== '--dry-run'), '--dry-run', '--json'], { env, input });
      expect(result.code, `${name}\n${result.stderr}`).toBe(0);
      expect(readFileSync(stateFile, 'utf8'), name).toBe(state);
      if (name === 'content promote') {
        // Staging's records read, production's values filled in, the first write held; the tree's state as it was.
        expect(writes(), name).toEqual([]);
        expect(result.json().requests[0].body.fromName, name).toBe('Zenith');
        expect(readFileSync(join(argv[2]!, 'loopsctl-state.json'), 'utf8'), name).toBe(promotedState);
      }
      // A command with a preview of its own prints that instead: a workflow edit asks the API for its dry run.
      if (spec.options?.includes(DRY_RUN_OPTION)) {
        expect(writes(), name).toEqual([]);
        const { requests: held } = result.json();
        expect(held.length, name).toBeGreaterThan(0);
        expect(held[0].method, name).not.toBe('GET');
      }
    }
  });

  it('asks for no confirmation, and needs no --yes, since it sends nothing', async () => {
    for (const argv of [
      ['contacts', 'delete', '--email', 'ada@example.com', '--dry-run'],
      ['contacts', 'suppression', 'remove', '--email', 'ada@example.com', '--dry-run'],
    ]) {
      const result = await run(argv, { env: viaServer() });
      expect(result.code, `${argv.join(' ')}: ${result.stderr}`).toBe(0);
      expect(result.stdout).toContain('Dry run');
    }
    expect(writes()).toEqual([]);
  });

  it('prints the exact request, with the idempotency key of a send', async () => {
    const result = await run(
      ['events', 'send', 'trial_started', '--email', 'ada@example.com', '--prop', 'seats:=5', '--idempotency-key', 'trial-ada-1', '--dry-run'],
      { env: viaServer() },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(
      'Dry run: nothing was sent. The request it would send:\n\nPOST /v1/events/send\nIdempotency-Key: trial-ada-1\n\n' +
        '{\n  "eventName": "trial_started",\n  "email": "ada@example.com",\n  "eventProperties": {\n    "seats": 5\n  }\n}\n',
    );
    expect(writes()).toEqual([]);
  });

  it('checks the team first', async () => {
    const result = await run(['themes', 'create', '--name', 'X', '--dry-run', '--expect-team', 'Elsewhere'], { env: viaServer() });
    expect(result.code).toBe(ExitCode.protected);
    expect(result.stderr).toContain(`Error: the key belongs to team "${TEAM}", not "Elsewhere" (expected by --expect-team); nothing was sent`);
  });

  it('is a usage error on a command that only reads, naming the flag', async () => {
    const list = await run(['themes', 'list', '--dry-run'], { env: viaServer() });
    expect(list.code).toBe(ExitCode.usage);
    expect(list.stderr).toContain('Error: --dry-run applies to commands that change the account, and `loopsctl themes list` does not');
    const get = await run(['api', '/v1/themes', '--dry-run'], { env: viaServer() });
    expect(get.code).toBe(ExitCode.usage);
    expect(get.stderr).toContain('--dry-run previews requests that change the account, and this run of `api` only reads');
    expect(requests).toEqual([]);
  });
});
