/**
 * A `content push` meets records whose writes reach people now (a component a live email embeds, a
 * workflow contacts move through): each is held back as its own row, naming its path in the tree,
 * the rest go, and the push exits 5; `--live` sends them. A plan of such an edit says it needs
 * --live, in its impact and its review, before its apply is refused.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seedId } from '../../../../src/emulator/module.js';
import { findMessage } from '../../../../src/emulator/routes/email-message-records.js';
import { tempDir } from '../../../support/main.js';
import { type RecordingSandbox, sandboxEachTest } from '../../../support/recording.js';

const HEADER = seedId('component/Header');
const FOOTER = seedId('component/Footer');
const RESET_PUBLISHED = seedId('transactional/Password reset/published');
const WELCOME = seedId('workflow/Welcome series');

const directories: string[] = [];
afterAll(() => directories.forEach((directory) => rmSync(directory, { recursive: true, force: true })));
const sandboxes = sandboxEachTest();

/** The tree's components and workflows pulled, each component and an email of Welcome series (Sending) given a paragraph more; then Header made live. */
async function editedTree(sandbox: RecordingSandbox): Promise<string> {
  const directory = tempDir('loopsctl-push-live-');
  directories.push(directory);
  const tree = join(directory, 'loops');
  const pulled = await sandbox.loopsctl(['content', 'pull', tree, '--only', 'components,workflows']);
  expect(pulled.code, pulled.stderr).toBe(0);
  for (const name of readdirSync(join(tree, 'components'))) {
    const file = join(tree, 'components', name, 'component.lmx');
    writeFileSync(file, `${readFileSync(file, 'utf8')}\n<Paragraph>One more thing.</Paragraph>\n`);
  }
  // An email of Welcome series, which contacts move through.
  const emails = join(tree, 'workflows', readdirSync(join(tree, 'workflows')).find((name) => name.startsWith('welcome-series--'))!, 'emails');
  const email = join(emails, readdirSync(emails)[0]!, 'email.lmx');
  writeFileSync(email, `${readFileSync(email, 'utf8')}<Paragraph>One more thing.</Paragraph>\n`);
  // The published email of Password reset embeds Header, as a person saves it in the app's editor.
  sandbox.server.update((state) => {
    const { message } = findMessage(state, RESET_PUBLISHED)!;
    message.lmx = `${message.lmx}\n<Component componentId="${HEADER}" />`;
  });
  sandbox.requests.length = 0;
  return tree;
}

const writesTo = (sandbox: RecordingSandbox, path: string) => sandbox.requests.filter((request) => request.method !== 'GET' && request.path.startsWith(path));

describe('a content push of records that are live', () => {
  it('holds back a live component and a live workflow alike, a row each naming its path, pushes the rest, and exits 5', async () => {
    const sandbox = await sandboxes();
    const tree = await editedTree(sandbox);
    const pushed = await sandbox.loopsctl(['content', 'push', tree]);
    expect([pushed.code, pushed.stderr]).toEqual([
      5,
      expect.stringMatching(/, 1 live \(--live\)\.\n[\s\S]*Not pushed: 1 workflow skipped; nothing of them was written/),
    ]);
    const header = pushed.stdout.split('\n').find((line) => line.includes(`components/header--${HEADER}`));
    expect(header).toMatch(/^skipped\t/);
    expect(header).toContain('it edits a component that a live email uses: the published email of transactional email "Password reset"');
    expect(header).toContain('push with --live to change it anyway; nothing of it was sent');
    expect(pushed.stdout).toMatch(new RegExp(`skipped\\tworkflows/welcome-series--${WELCOME}\\t.*push with --live to change it anyway`));
    expect(`${pushed.stdout}${pushed.stderr}`).not.toContain(`/v1/components/${HEADER}`);
    // The rest went: Footer, which no live email uses.
    expect(writesTo(sandbox, `/v1/components/${HEADER}`)).toEqual([]);
    expect(writesTo(sandbox, '/v1/email-messages/')).toEqual([]);
    expect(writesTo(sandbox, `/v1/components/${FOOTER}`)).toHaveLength(1);
    // With --live, both go.
    const live = await sandbox.loopsctl(['content', 'push', tree, '--live', '--yes']);
    expect(live.code, `${live.stdout}${live.stderr}`).toBe(0);
    expect(writesTo(sandbox, `/v1/components/${HEADER}`)).toHaveLength(1);
    expect(writesTo(sandbox, '/v1/email-messages/')).toHaveLength(1);
  });

  it("says in a plan's impact and its review that a live component's edit needs --live, before the apply is refused", async () => {
    const sandbox = await sandboxes();
    const tree = await editedTree(sandbox);
    const plan = join(tree, '..', 'plan.json');
    const planned = await sandbox.loopsctl(['content', 'push', tree, '--only', 'components', '--plan', '--out', plan]);
    expect(planned.code, planned.stderr).toBe(0);
    const needs = `components/header--${HEADER}: needs --live: it edits a component that a live email uses: the published email of transactional email "Password reset"`;
    expect(planned.stdout).toContain(needs);
    expect(planned.stdout).not.toMatch(/footer--\S+: needs --live/);
    expect(readFileSync(join(tree, '..', 'plan.review.html'), 'utf8')).toContain('needs --live: it edits a component that a live email uses');
    const applied = await sandbox.loopsctl(['apply', plan]);
    expect([applied.code, applied.stderr]).toEqual([
      11,
      expect.stringContaining(
        `Error: components/header--${HEADER}: edits a component that a live email uses: the published email of transactional email "Password reset"`,
      ),
    ]);
    expect(writesTo(sandbox, '/v1/components/')).toEqual([]);
  });
});
