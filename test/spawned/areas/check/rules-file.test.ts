/**
 * `check` finds loops.check.yaml in the directory it runs in, which is often a repository that
 * anyone can commit to: what it finds there is read as a tree's files are, never through a link,
 * only as a regular file and bounded. A committed link to a credentials file is refused without a
 * word of the file; a link to /dev/zero is refused before any of it is read; a FIFO is never
 * opened, and were it opened, SIGTERM would still end the run. `content check` finds and reads it
 * the same way. The secrets are made up.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, openSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCli, tempConfigDir, type CliResult, type SpawnedCli } from '../../../support/run-cli.js';
import { tempDir } from '../../../support/temp.js';

const KEY_ID = 'AKIA0000FAKE0000TEST';
const SECRET = 'fakeSecret0000NotARealKey0000';

/** A home with a credentials file, and a repository beside it to run `check` in. */
function repository(): { home: string; repo: string; credentials: string } {
  const base = tempDir('loopsctl-check-repo-');
  const home = join(base, 'home');
  const repo = join(base, 'repo');
  mkdirSync(join(home, '.aws'), { recursive: true });
  mkdirSync(join(repo, 'loops'), { recursive: true });
  const credentials = join(home, '.aws', 'credentials');
  writeFileSync(credentials, `[default]\naws_access_key_id = ${KEY_ID}\naws_secret_access_key = ${SECRET}\n`);
  return { home, repo, credentials };
}

const env = () => ({ LOOPSCTL_CONFIG_DIR: tempConfigDir(), LOOPS_API_KEY: 'test-key-never-used' });

function expectRefusedQuietly(result: CliResult, message: string): void {
  expect(result.code, result.stderr).toBe(2);
  expect(result.stderr).toContain(message);
  expect(result.stdout + result.stderr).not.toContain(KEY_ID);
  expect(result.stdout + result.stderr).not.toContain(SECRET);
}

describe('check and the loops.check.yaml of the directory it runs in', () => {
  it('refuses a committed link to a credentials file, here or in ./loops, quoting none of it', async () => {
    const { repo } = repository();
    symlinkSync('../home/.aws/credentials', join(repo, 'loops.check.yaml'));
    expectRefusedQuietly(await spawnCli(['check'], { cwd: repo, env: env() }), 'Error: loops.check.yaml is a symbolic link');
    const other = repository();
    symlinkSync('../../home/.aws/credentials', join(other.repo, 'loops', 'loops.check.yaml'));
    expectRefusedQuietly(await spawnCli(['check'], { cwd: other.repo, env: env() }), 'Error: loops/loops.check.yaml is a symbolic link');
  });

  it('refuses a link to /dev/zero and /dev/zero named by --rules before reading any of it', async () => {
    const { repo } = repository();
    symlinkSync('/dev/zero', join(repo, 'loops.check.yaml'));
    expectRefusedQuietly(await spawnCli(['check'], { cwd: repo, env: env() }), 'Error: loops.check.yaml is a symbolic link');
    expectRefusedQuietly(await spawnCli(['check', '--rules', '/dev/zero'], { cwd: repo, env: env() }), 'Error: /dev/zero is not a regular file');
  });

  it('never opens a FIFO there; were it opened, SIGTERM would end the run', async () => {
    const { repo } = repository();
    const fifo = join(repo, 'loops.check.yaml');
    execFileSync('mkfifo', [fifo]);
    // Opening the write end waits until a reader opens the FIFO: if loopsctl does, this resolves.
    const writer = open(fifo, 'w');
    let child: SpawnedCli | undefined;
    const run = spawnCli(['check'], { cwd: repo, env: env(), onSpawn: (spawned) => (child = spawned) });
    const first = await Promise.race([run.then((result) => ({ ended: result })), writer.then(() => ({ opened: true }) as const)]);
    if ('opened' in first) {
      child!.kill('SIGTERM');
      const ended = await run;
      expect(ended.code === null || ended.code !== 0, 'SIGTERM ended the run').toBe(true);
      expect.fail('loopsctl opened the FIFO it found where loops.check.yaml goes');
    }
    expectRefusedQuietly(first.ended, 'Error: loops.check.yaml is not a regular file');
    // The test's own pending open ends once a reader comes: this one, which it then closes.
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    await (await writer).close();
    closeSync(reader);
  });

  it('reads a rules file that is a regular file, here', async () => {
    const { repo } = repository();
    writeFileSync(join(repo, 'loops.check.yaml'), 'rules: { no-such-rule: off }\n');
    const result = await spawnCli(['check'], { cwd: repo, env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Error: loops.check.yaml at rules.no-such-rule: no rule is named no-such-rule');
  });

  it('`content check` finds the same file, in ./loops, and takes its rules; refuses a link there', async () => {
    const { repo, credentials } = repository();
    mkdirSync(join(repo, 'loops', 'campaigns', 'welcome--cm1'), { recursive: true });
    writeFileSync(join(repo, 'loops', 'campaigns', 'welcome--cm1', 'campaign.json'), '{"name":"Welcome"}\n');
    writeFileSync(
      join(repo, 'loops', 'campaigns', 'welcome--cm1', 'email.lmx'),
      '<H1>Welcome</H1>\n<Paragraph>Read the guide <Link href="https://acme.example/guide">here</Link>.</Paragraph>\n',
    );
    const plain = await spawnCli(['content', 'check'], { cwd: repo, env: env() });
    expect([plain.code, plain.stdout]).toEqual([0, expect.stringContaining('vague-link-text')]);
    writeFileSync(join(repo, 'loops', 'loops.check.yaml'), 'rules: { vague-link-text: error }\n');
    const raised = await spawnCli(['content', 'check'], { cwd: repo, env: env() });
    expect(raised.code).toBe(1);
    expect(raised.stderr).toContain('1 error, 0 warnings');
    rmSync(join(repo, 'loops', 'loops.check.yaml'));
    symlinkSync(credentials, join(repo, 'loops', 'loops.check.yaml'));
    expectRefusedQuietly(await spawnCli(['content', 'check'], { cwd: repo, env: env() }), 'Error: loops/loops.check.yaml is a symbolic link');
  });
});
