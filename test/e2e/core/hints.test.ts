/** Errors that point to the next step: the list to look in, what to do first, the setting that is wrong. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run, startTestSandbox } from '../../support/main.js';

const dir = mkdtempSync(join(tmpdir(), 'loopsctl-hints-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let runs = 0;
const config = () => ({ LOOPSCTL_CONFIG_DIR: join(dir, `config-${++runs}`) });

/** "Payment failed" in the sandbox's seed: a draft, never published. */
const UNPUBLISHED = 'clnbezeie7a6e97br15gg5obs';

describe('hints', () => {
  it('points an unknown mailing list of a campaign to `lists list`', async () => {
    const { code, stderr } = await run(['--sandbox', 'campaigns', 'create', '--name', 'Launch', '--list', 'cnosuchlist0000000000000'], { env: config() });
    // Refused before anything is sent: the account's lists are read once, by id or by name.
    expect(code).toBe(2);
    expect(stderr).toContain('the account has no mailing list "cnosuchlist0000000000000"');
    expect(stderr).toContain('see them with `loopsctl lists list`');
  });

  it('says to publish an unpublished transactional email before sending it', async () => {
    const { code, stderr } = await run(['--sandbox', 'transactional', 'send', UNPUBLISHED, '--to', 'ada@example.com'], { env: config() });
    expect(code).toBe(5);
    expect(stderr).toContain(`Hint: publish the email first: \`loopsctl transactional publish ${UNPUBLISHED}\``);
  });

  it('names --base-url or LOOPS_BASE_URL when its path cannot be right, before anything is sent', async () => {
    const flag = await run(['--base-url', 'https://app.loops.so/api/v1', 'themes', 'list'], { env: { ...config(), LOOPS_API_KEY: 'test-key-not-real' } });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toBe(
      'Error: --base-url "https://app.loops.so/api/v1" ends in /v1, which loopsctl adds to every request path\nHint: give https://app.loops.so/api\n',
    );
    const variable = await run(['themes', 'list'], { env: { ...config(), LOOPS_API_KEY: 'test-key-not-real', LOOPS_BASE_URL: 'https://app.loops.so' } });
    expect(variable.code).toBe(2);
    expect(variable.stderr).toContain('Error: LOOPS_BASE_URL "https://app.loops.so" has no /api path: the Loops API is at https://app.loops.so/api');
  });
});

describe('hints for a mistyped name', () => {
  it('keeps the did-you-mean of a mistyped command followed by its flags', async () => {
    const result = await run(['contacts', 'fnd', '--email', 'ada@example.com'], { env: config() });
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe("Error: unknown command 'fnd'\nHint: did you mean find? See `loopsctl contacts --help`\n");
  });

  it('names a word that is none of the commands of a group with a default command, not the default command', async () => {
    for (const [args, group, hint] of [
      [['open', 'bogus'], 'open', 'see `loopsctl open --help`'],
      [['open', 'domian'], 'open', 'did you mean domain? See `loopsctl open --help`'],
      [['sandbox', 'bogus'], 'sandbox', 'see `loopsctl sandbox --help`'],
    ] as const) {
      const result = await run([...args], { env: config() });
      expect(result, group).toMatchObject({ code: 2, stdout: '' });
      expect(result.stderr).toBe(`Error: unknown command '${args[1]}'\nHint: ${hint}\n`);
    }
    // The default command named, its own arguments are what is wrong.
    const named = await run(['open', 'home', 'bogus'], { env: config() });
    expect(named.code).toBe(2);
    expect(named.stderr).toContain("too many arguments for 'home'");
  });

  it('says where a cursor comes from when the API refuses one given to a listing', async () => {
    const sandbox = await startTestSandbox();
    try {
      const env = { ...config(), LOOPS_API_KEY: 'sandbox-key', LOOPS_BASE_URL: sandbox.url };
      const result = await run(['themes', 'list', '--cursor', 'bogus'], { env });
      expect(result).toMatchObject({ code: 5, stdout: '' });
      expect(result.stderr).toContain('Hint: give --cursor the cursor a listing of the same records names in its "run again with --cursor" note');
      // The cursor the note names is one the API takes.
      const first = await run(['themes', 'list', '--per-page', '10', '--cursor', ''], { env });
      const cursor = /run again with --cursor (\S+)/.exec(first.stderr)![1]!;
      expect((await run(['themes', 'list', '--per-page', '10', '--cursor', cursor], { env })).code).toBe(0);
    } finally {
      await sandbox.close();
    }
  });

  it('suggests the stored profile close to a mistyped one', async () => {
    const env = config();
    for (const profile of ['staging', 'production']) {
      expect((await run(['auth', 'login', '--profile', profile, '--with-key-stdin', '--skip-verify'], { env, input: `test-key-${profile}` })).code).toBe(0);
    }
    for (const args of [
      ['auth', 'switch', 'stagin'],
      ['auth', 'remove', 'stagin', '--yes'],
    ]) {
      const result = await run(args, { env });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe('Error: there is no profile "stagin"\nHint: did you mean staging? Or see the profiles with `loopsctl auth list`\n');
    }
  });

  it("points an unknown node of a workflow edit to the workflow's nodes", async () => {
    const workflow = 'cw509z9tjxv56rte3vt30437u';
    const result = await run(['--sandbox', 'workflow', 'nodes', 'delete', workflow, 'cnosuchnode00000000000000', '--yes'], { env: config() });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain(`Hint: see the workflow's nodes and their ids with \`loopsctl workflow show ${workflow}\``);
  });

  it('points an unknown list of a contact to `lists list`', async () => {
    for (const command of ['create', 'update']) {
      const result = await run(['--sandbox', 'contacts', command, '--email', 'new@example.com', '--list', 'cnosuchlist0000000000000=true'], { env: config() });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('see them with `loopsctl lists list`');
    }
  });
});

describe('hints for the setting behind a failure', () => {
  it('a listing that finds no path names the base URL', async () => {
    const sandbox = await startTestSandbox();
    try {
      const result = await run(['themes', 'list'], { env: { ...config(), LOOPS_API_KEY: 'sandbox-key', LOOPS_BASE_URL: `${sandbox.url}/apx` } });
      expect(result.code).toBe(4);
      expect(result.stderr).toContain('Hint: the API has no such path: check the base URL (--base-url, LOOPS_BASE_URL), whose path goes before /v1');
    } finally {
      await sandbox.close();
    }
  });

  it('a connection refused on this machine asks whether the sandbox runs', async () => {
    const result = await run(['ips', 'list', '--retries', '0'], { env: { ...config(), LOOPS_API_KEY: 'test-key-x', LOOPS_BASE_URL: 'http://127.0.0.1:9' } });
    expect(result.code).toBe(7);
    expect(result.stderr).toContain('Hint: nothing listens at that address: is `loopsctl sandbox` (or the server the base URL names) running?');
  });

  it('a key refused by a content or metrics command says where the key came from, and what else it can mean', async () => {
    const sandbox = await startTestSandbox();
    try {
      const env = { ...config(), LOOPS_API_KEY: 'test-key-wrong', LOOPS_BASE_URL: sandbox.url };
      const content = await run(['content', 'pull', join(dir, `content-${runs}`)], { env });
      expect(content.code).toBe(3);
      expect(content.stderr).toMatch(/^Error: .* \(the key in the environment variable LOOPS_API_KEY\)\n/);
      expect(content.stderr).toContain('Hint: check the value of LOOPS_API_KEY, or unset it to use a stored profile');
      expect(content.stderr).toContain('or the key is right and the content API is not enabled for this team (ask Loops support to enable it)');

      const stored = config();
      expect((await run(['auth', 'login', '--profile', 'ops', '--with-key-stdin', '--skip-verify'], { env: stored, input: 'test-key-wrong' })).code).toBe(0);
      const metrics = await run(['transactional', 'metrics', 'cxxxxxxxxxxxxxxxxxxxxxxxx', '--profile', 'ops'], {
        env: { ...stored, LOOPS_BASE_URL: sandbox.url },
      });
      expect(metrics.code).toBe(3);
      expect(metrics.stderr).toContain('(the key of profile "ops")');
      expect(metrics.stderr).toContain(
        'Hint: check the key with `loopsctl auth status --profile ops`, or store a new one with `loopsctl auth login --profile ops`; or the key is right and the metrics API is not enabled',
      );
    } finally {
      await sandbox.close();
    }
  });
});
