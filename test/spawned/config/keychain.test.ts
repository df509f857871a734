/**
 * Keys in the system keychain, against a real Secret Service: a session bus (dbus-daemon) and
 * GNOME Keyring started here, unlocked with a test password, in a temporary HOME, so that nothing
 * touches the keychain of whoever runs the tests. Where those programs are missing (.ci/run
 * installs them), the tests that need them say why they are skipped. The fallback to the config
 * file, where no keychain answers, is tested always. The keychain library finds the session bus
 * through the environment of the process it runs in, and keeps what it found (a bus, or none) for
 * the process's life: the runs with no keychain reachable are processes of the built binary, and
 * those with the Secret Service run in this process, on its bus, but for one login by the binary.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureSandbox, KEYS, startFixtureSandbox } from '../../support/fixture-sandbox.js';
import { run } from '../../support/main.js';
import { spawnCli } from '../../support/run-cli.js';
import { socketDir } from '../../support/temp.js';

// The bus's socket and the keyring's (run/keyring/control) need a path short whatever TMPDIR's depth.
const scratch = socketDir('keychain-');
const home = join(scratch, 'home');
const runtimeDir = join(scratch, 'run');
/** A runtime directory with no bus in it: libdbus looks for the session bus at $XDG_RUNTIME_DIR/bus. */
const noBusDir = join(scratch, 'no-bus');
mkdirSync(home);
mkdirSync(runtimeDir, { mode: 0o700 });
mkdirSync(noBusDir, { mode: 0o700 });
/** A home of the test's own: the keyring's files, and anything a program writes under HOME, land here. */
const homeEnv = {
  HOME: home,
  XDG_RUNTIME_DIR: runtimeDir,
  XDG_DATA_HOME: join(home, '.local/share'),
  XDG_CONFIG_HOME: join(home, '.config'),
  XDG_CACHE_HOME: join(home, '.cache'),
};

/** Why the Secret Service cannot run here, or undefined when it can. */
function missingPrograms(): string | undefined {
  const missing = ['dbus-daemon', 'gnome-keyring-daemon'].filter((program) => spawnSync('sh', ['-c', `command -v ${program}`]).status !== 0);
  return missing.length === 0 ? undefined : `${missing.join(' and ')} not installed (Debian: apt-get install dbus gnome-keyring)`;
}

let api: FixtureSandbox;
let bus: ChildProcess | undefined;
let busAddress: string | undefined;
let skipReason = missingPrograms();

/** Starts a session bus, then GNOME Keyring on it, unlocked: it returns once the keyring is ready. */
async function startSecretService(): Promise<void> {
  bus = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1', `--address=unix:path=${join(runtimeDir, 'bus')}`], {
    env: { PATH: process.env.PATH, ...homeEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  busAddress = await new Promise<string>((resolve, reject) => {
    bus!.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      printed += chunk;
      if (printed.includes('\n')) resolve(printed.trim());
    });
    bus!.on('exit', (code) => reject(new Error(`dbus-daemon exited (${code}) before printing its address`)));
  });
  // --daemonize: the command returns once the daemon is up and the login keyring unlocked.
  const keyring = spawnSync('gnome-keyring-daemon', ['--daemonize', '--unlock', '--components=secrets'], {
    env: { PATH: process.env.PATH, ...homeEnv, DBUS_SESSION_BUS_ADDRESS: busAddress },
    input: 'loopsctl-test-password',
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (keyring.status !== 0) throw new Error(`gnome-keyring-daemon failed (${keyring.status}): ${keyring.stderr}`);
}

beforeAll(async () => {
  api = await startFixtureSandbox();
  if (skipReason !== undefined) return;
  try {
    await startSecretService();
  } catch (error) {
    skipReason = `the Secret Service did not start: ${(error as Error).message}`;
  }
});

afterAll(async () => {
  await api.close();
  // The keyring daemon leaves when its bus goes away.
  bus?.kill();
  rmSync(scratch, { recursive: true, force: true });
});

/** The built binary with no keychain in reach: no bus, keys stored where it decides. */
function withoutBus(dir: string, args: string[], options: { input?: string; env?: Record<string, string | undefined> } = {}) {
  return spawnCli(args, {
    env: {
      ...homeEnv,
      DBUS_SESSION_BUS_ADDRESS: undefined,
      XDG_RUNTIME_DIR: noBusDir,
      LOOPSCTL_KEY_STORAGE: undefined,
      LOOPSCTL_CONFIG_DIR: dir,
      LOOPS_BASE_URL: api.url,
      ...options.env,
    },
    input: options.input,
  });
}

/** The session bus, as this process's environment gives it to the keychain library while a run of the Secret Service's tests is under way. */
const SESSION = ['DBUS_SESSION_BUS_ADDRESS', 'XDG_RUNTIME_DIR'] as const;

/** loopsctl in this process with the Secret Service in reach, keys stored where it decides. */
async function loopsctl(dir: string, args: string[], options: { input?: string } = {}) {
  const saved = SESSION.map((name) => [name, process.env[name]] as const);
  Object.assign(process.env, { DBUS_SESSION_BUS_ADDRESS: busAddress, XDG_RUNTIME_DIR: runtimeDir });
  try {
    return await run(args, {
      env: { ...homeEnv, DBUS_SESSION_BUS_ADDRESS: busAddress, LOOPSCTL_KEY_STORAGE: undefined, LOOPSCTL_CONFIG_DIR: dir, LOOPS_BASE_URL: api.url },
      input: options.input,
    });
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

const configOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
/** Every byte loopsctl keeps in its config dir, to look for a key in. */
const filesOf = (dir: string) =>
  readdirSync(dir)
    .map((name) => readFileSync(join(dir, name), 'utf8'))
    .join('\n');

describe('with no keychain reachable', () => {
  it('auth login falls back to the config file, and says why and where', async () => {
    const dir = mkdtempSync(join(scratch, 'config-'));
    const login = await withoutBus(dir, ['auth', 'login', '--with-key-stdin'], { input: KEYS.valid });
    expect(login.code).toBe(0);
    expect(login.stdout).toBe(`Logged in to Acme Inc (profile "default").\nThe key is in ${join(dir, 'config.json')} (readable by you only).\n`);
    // In a person's words, not D-Bus's ("autolaunch was disabled at compile time", a socket path).
    expect(login.stderr).toBe(
      'Note: no system keychain answered (this session has no D-Bus session bus, so no Secret Service such as GNOME Keyring can answer); the key is stored in the config file instead.\n',
    );
    expect(configOf(dir).profiles.default).toMatchObject({ keyStorage: 'file', apiKey: KEYS.valid });
    expect((await withoutBus(dir, ['auth', 'token'])).stdout).toBe(`${KEYS.valid}\n`);
  });

  it('LOOPSCTL_KEY_STORAGE=keychain refuses to fall back, and stores nothing', async () => {
    const dir = mkdtempSync(join(scratch, 'config-'));
    const login = await withoutBus(dir, ['auth', 'login', '--with-key-stdin'], { input: KEYS.valid, env: { LOOPSCTL_KEY_STORAGE: 'keychain' } });
    expect(login).toMatchObject({ code: 2, stdout: '' });
    expect(login.stderr).toMatch(/^Error: the key was not stored: no system keychain answered/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a key that lives in the keychain is an error naming the keychain, with the way out', async () => {
    const dir = mkdtempSync(join(scratch, 'config-'));
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: { keyStorage: 'keychain', keychainAccount: `default@${dir}` } } }), {
      mode: 0o600,
    });
    const result = await withoutBus(dir, ['ips', 'list']);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^Error: the key of profile "default" is in the system keychain, which could not be read: no system keychain answered/);
    expect(result.stderr).toContain(
      'Hint: unlock the keychain and try again, or store the key in the config file instead: loopsctl auth login --insecure-storage\n',
    );
  });
});

describe('with a Secret Service (GNOME Keyring)', () => {
  const test = (name: string, body: () => Promise<void>) =>
    it(name, async (context) => {
      if (skipReason !== undefined) {
        console.warn(`skipped "${name}": ${skipReason}`);
        context.skip();
      }
      await body();
    });

  test('auth login stores the key there, and nothing of it in the config file; commands read it from there', async () => {
    const dir = mkdtempSync(join(scratch, 'config-'));
    // The built binary's keychain module, on the Secret Service; this process reads what it stored.
    const login = await spawnCli(['auth', 'login', '--with-key-stdin'], {
      env: { ...homeEnv, DBUS_SESSION_BUS_ADDRESS: busAddress, LOOPSCTL_KEY_STORAGE: undefined, LOOPSCTL_CONFIG_DIR: dir, LOOPS_BASE_URL: api.url },
      input: KEYS.valid,
    });
    expect(login).toMatchObject({ code: 0, stderr: '' });
    expect(login.stdout).toBe('Logged in to Acme Inc (profile "default").\nThe key is in the system keychain.\n');
    expect(configOf(dir).profiles.default).toEqual({ keyStorage: 'keychain', keychainAccount: `default@${dir}`, teamName: 'Acme Inc' });
    expect(filesOf(dir)).not.toContain(KEYS.valid);
    const list = await loopsctl(dir, ['ips', 'list', '--plain']);
    expect(list).toMatchObject({ code: 0, stdout: '52.21.45.123\n2600:1f18:4a3::10\n' });
    expect(api.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEYS.valid}`);
    expect((await loopsctl(dir, ['auth', 'status', '--json'])).stdout).toContain('"storage": "keychain"');
    expect((await loopsctl(dir, ['auth', 'list'])).stdout).toBe('PROFILE\tDEFAULT\tKEY IN\tREAD-ONLY\tTEAM\ndefault\tyes\tkeychain\t\tAcme Inc\n');
  });

  test('moving the key to the file and back leaves no copy behind, in either place', async () => {
    const dir = mkdtempSync(join(scratch, 'config-'));
    await loopsctl(dir, ['auth', 'login', '--with-key-stdin', '--profile', 'work'], { input: KEYS.noDomain });
    const keychainEntry = configOf(dir).profiles.work;

    const toFile = await loopsctl(dir, ['auth', 'login', '--with-key-stdin', '--insecure-storage', '--profile', 'work'], { input: KEYS.noDomain });
    expect(toFile.stdout).toContain(`The key is in ${join(dir, 'config.json')} (readable by you only).`);
    expect(configOf(dir).profiles.work).toEqual({ keyStorage: 'file', apiKey: KEYS.noDomain, teamName: 'Acme Inc' });
    // The keychain entry is gone: pointing the profile back at it finds nothing.
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { work: keychainEntry } }), { mode: 0o600 });
    const gone = await loopsctl(dir, ['--profile', 'work', 'auth', 'token']);
    expect(gone).toMatchObject({ code: 3, stderr: expect.stringContaining('the system keychain has no key for profile "work"') });
    expect(gone.stderr).toContain('store the key again: loopsctl auth login --profile work');

    const back = await loopsctl(dir, ['auth', 'login', '--with-key-stdin', '--profile', 'work'], { input: KEYS.noDomain });
    expect(back.stdout).toContain('The key is in the system keychain.');
    expect(filesOf(dir)).not.toContain(KEYS.noDomain);
    expect((await loopsctl(dir, ['--profile', 'work', 'auth', 'token'])).stdout).toBe(`${KEYS.noDomain}\n`);
  });

  test('rename keeps the key where it is; remove deletes it from the keychain', async () => {
    const dir = mkdtempSync(join(scratch, 'config-'));
    await loopsctl(dir, ['auth', 'login', '--with-key-stdin', '--profile', 'old'], { input: KEYS.noWorkflows });
    const entry = configOf(dir).profiles.old;
    expect((await loopsctl(dir, ['auth', 'rename', 'old', 'new'])).code).toBe(0);
    expect((await loopsctl(dir, ['--profile', 'new', 'auth', 'token'])).stdout).toBe(`${KEYS.noWorkflows}\n`);
    // A new profile of the old name gets an entry of its own.
    await loopsctl(dir, ['auth', 'login', '--with-key-stdin', '--profile', 'old'], { input: KEYS.noContent });
    expect(configOf(dir).profiles.old.keychainAccount).toBe(`old@${dir}#2`);
    expect((await loopsctl(dir, ['--profile', 'old', 'auth', 'token'])).stdout).toBe(`${KEYS.noContent}\n`);
    expect((await loopsctl(dir, ['--profile', 'new', 'auth', 'token'])).stdout).toBe(`${KEYS.noWorkflows}\n`);
    expect(await loopsctl(dir, ['auth', 'remove', 'new', '--yes'])).toMatchObject({ code: 0, stderr: '' });
    expect((await loopsctl(dir, ['--profile', 'old', 'auth', 'token'])).stdout).toBe(`${KEYS.noContent}\n`);
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { new: entry } }), { mode: 0o600 });
    expect(await loopsctl(dir, ['--profile', 'new', 'auth', 'token'])).toMatchObject({
      code: 3,
      stderr: expect.stringContaining('has no key for profile "new"'),
    });
  });

  test('two config directories keep separate keys for profiles of the same name', async () => {
    const first = mkdtempSync(join(scratch, 'config-'));
    const second = mkdtempSync(join(scratch, 'config-'));
    await loopsctl(first, ['auth', 'login', '--with-key-stdin'], { input: KEYS.valid });
    await loopsctl(second, ['auth', 'login', '--with-key-stdin'], { input: KEYS.noContent });
    expect((await loopsctl(first, ['auth', 'token'])).stdout).toBe(`${KEYS.valid}\n`);
    expect((await loopsctl(second, ['auth', 'token'])).stdout).toBe(`${KEYS.noContent}\n`);
  });
});
