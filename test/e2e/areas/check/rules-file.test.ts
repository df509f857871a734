/**
 * `check` finds loops.check.yaml in the directory it runs in, which is often a repository that
 * anyone can commit to: what it finds there is read as a tree's files are, never through a link,
 * only as a regular file and bounded. A committed link to a credentials file is refused without a
 * word of the file; a link to /dev/zero is refused before any of it is read. `content check` finds
 * and reads it the same way. A FIFO there, and SIGTERM were it opened, need a process of their own
 * (test/spawned/areas/check/rules-file.test.ts). The secrets are made up.
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Result, run } from '../../../support/main.js';
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

/** loopsctl run in the repository, as a person runs it there; the working directory is put back after. */
async function inRepo(repo: string, argv: string[]): Promise<Result> {
  const cwd = process.cwd();
  process.chdir(repo);
  try {
    return await run(argv, { env: { LOOPS_API_KEY: 'test-key-never-used' } });
  } finally {
    process.chdir(cwd);
  }
}

function expectRefusedQuietly(result: Result, message: string): void {
  expect(result.code, result.stderr).toBe(2);
  expect(result.stderr).toContain(message);
  expect(result.stdout + result.stderr).not.toContain(KEY_ID);
  expect(result.stdout + result.stderr).not.toContain(SECRET);
}

describe('check and the loops.check.yaml of the directory it runs in', () => {
  it('refuses a committed link to a credentials file, here or in ./loops, quoting none of it', async () => {
    const { repo } = repository();
    symlinkSync('../home/.aws/credentials', join(repo, 'loops.check.yaml'));
    expectRefusedQuietly(await inRepo(repo, ['check']), 'Error: loops.check.yaml is a symbolic link');
    const other = repository();
    symlinkSync('../../home/.aws/credentials', join(other.repo, 'loops', 'loops.check.yaml'));
    expectRefusedQuietly(await inRepo(other.repo, ['check']), 'Error: loops/loops.check.yaml is a symbolic link');
  });

  it('refuses a link to /dev/zero and /dev/zero named by --rules before reading any of it', async () => {
    const { repo } = repository();
    symlinkSync('/dev/zero', join(repo, 'loops.check.yaml'));
    expectRefusedQuietly(await inRepo(repo, ['check']), 'Error: loops.check.yaml is a symbolic link');
    expectRefusedQuietly(await inRepo(repo, ['check', '--rules', '/dev/zero']), 'Error: /dev/zero is not a regular file');
  });

  it('reads a rules file that is a regular file, here', async () => {
    const { repo } = repository();
    writeFileSync(join(repo, 'loops.check.yaml'), 'rules: { no-such-rule: off }\n');
    const result = await inRepo(repo, ['check']);
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
    const plain = await inRepo(repo, ['content', 'check']);
    expect([plain.code, plain.stdout]).toEqual([0, expect.stringContaining('vague-link-text')]);
    writeFileSync(join(repo, 'loops', 'loops.check.yaml'), 'rules: { vague-link-text: error }\n');
    const raised = await inRepo(repo, ['content', 'check']);
    expect(raised.code).toBe(1);
    expect(raised.stderr).toContain('1 error, 0 warnings');
    rmSync(join(repo, 'loops', 'loops.check.yaml'));
    symlinkSync(credentials, join(repo, 'loops', 'loops.check.yaml'));
    expectRefusedQuietly(await inRepo(repo, ['content', 'check']), 'Error: loops/loops.check.yaml is a symbolic link');
  });
});
