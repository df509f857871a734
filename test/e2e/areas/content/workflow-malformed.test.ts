/**
 * A workflow file or directory that is malformed is the person's to fix: every command that reads
 * it ends with exit 2 and says what is wrong where, never exit 70 ("a bug in loopsctl").
 */
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALIAS_BOMB } from '../../../support/hostile.js';
import { tempDir } from '../../../support/main.js';
import { type Recorded, sandboxEachTest } from '../../../support/recording.js';

const sandboxes = sandboxEachTest();
const writes = (requests: Recorded[]) => requests.filter((request) => request.method !== 'GET');

async function pulled(sandbox: Awaited<ReturnType<typeof sandboxes>>): Promise<{ root: string; welcome: string }> {
  const root = join(tempDir('loopsctl-workflows-'), 'loops');
  const pull = await sandbox.loopsctl(['content', 'pull', root, '--only', 'workflows']);
  expect(pull.code, pull.stderr).toBe(0);
  sandbox.requests.length = 0;
  const welcome = join(root, 'workflows', readdirSync(join(root, 'workflows')).find((name) => name.startsWith('welcome-series'))!);
  return { root, welcome };
}

describe('a workflow file that is malformed', () => {
  it('an alias bomb: content check, diff, push --plan, workflow show --file and workflow test --file exit 2', async () => {
    const sandbox = await sandboxes();
    const { root, welcome } = await pulled(sandbox);
    writeFileSync(join(welcome, 'workflow.yaml'), ALIAS_BOMB);
    for (const argv of [
      ['content', 'check', root],
      ['content', 'diff', root, '--only', 'workflows'],
      ['content', 'push', root, '--only', 'workflows', '--plan'],
      ['workflow', 'show', '--file', welcome],
      ['workflow', 'test', '--file', welcome, '--contact', 'sam@example.com'],
    ]) {
      const result = await sandbox.loopsctl(argv);
      expect(result.code, `${argv.join(' ')}: ${result.stderr}`).toBe(argv[1] === 'check' ? 1 : 2);
      expect(result.stdout + result.stderr, argv.join(' ')).toContain('aliases expand past what loopsctl reads');
    }
    expect(writes(sandbox.requests)).toEqual([]);
  });

  it('a field given twice in a node is named with its node, not as a repeated node key', async () => {
    const sandbox = await sandboxes();
    const { root, welcome } = await pulled(sandbox);
    const file = join(welcome, 'workflow.yaml');
    const text = readFileSync(file, 'utf8');
    // The first node's type, given again on the line after it.
    const repeated = text.replace(/^( {4}type: )(\w+)\n/m, '$1$2\n$1$2\n');
    expect(repeated).not.toBe(text);
    const node = /^ {2}([\w-]+):\n {4}type: /m.exec(repeated)![1]!;
    writeFileSync(file, repeated);
    const checked = await sandbox.loopsctl(['content', 'check', root, '--json']);
    expect(checked.code).toBe(1);
    const problem = (checked.json() as { errors: { message: string }[] }[]).flatMap((file) => file.errors).find((error) => error.message.includes('twice'));
    expect(problem?.message).toBe(`node "${node}": the field "type" is given twice`);
    const diff = await sandbox.loopsctl(['content', 'diff', root, '--only', 'workflows']);
    expect(diff.code).toBe(2);
    expect(diff.stderr).toMatch(new RegExp(`workflow\\.yaml:\\d+:\\d+: node "${node}": the field "type" is given twice\\n`));
    expect(diff.stderr).toContain('Hint: keep one type in the node');
    // A node key given twice is still said as such.
    const keyTwice = text.replace(/^nodes:\n/m, `nodes:\n  ${node}:\n    type: TimerAction\n    next: []\n`);
    writeFileSync(file, keyTwice);
    const keys = await sandbox.loopsctl(['content', 'diff', root, '--only', 'workflows']);
    expect(keys.stderr).toContain(`the node key "${node}" is used twice`);
  });
});

describe('a workflow directory whose id does not decode', () => {
  it('diff, push and pull exit 2, naming the directory', async () => {
    const sandbox = await sandboxes();
    const { root, welcome } = await pulled(sandbox);
    const evil = join(root, 'workflows', 'evil--%E0%A4%A');
    renameSync(welcome, evil);
    for (const command of ['diff', 'push', 'pull']) {
      const result = await sandbox.loopsctl(['content', command, root, '--only', 'workflows']);
      expect(result.code, `${command}: ${result.stderr}`).toBe(2);
      expect(result.stderr, command).toContain('workflows/evil--%E0%A4%A: the end of its name after -- is not an id that a pull writes');
    }
    expect(writes(sandbox.requests)).toEqual([]);
  });
});
