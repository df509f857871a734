/**
 * content_push and workflow_propose through `loopsctl mcp` link the review of the emails they
 * change: the question put to the person names them, the review's digest and its page (kept under
 * the config directory while the change waits); the tool's answer carries the same review; and an
 * approval is for the plan reviewed: approved_apply applies it, whatever the tree holds since.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { run, tempDir, typedInput } from '../../../support/main.js';
import { type McpRun, type Person, startMcp } from '../../../support/mcp.js';

const running: McpRun[] = [];
afterEach(async () => {
  for (const mcp of running.splice(0)) await mcp.close();
});

type Answer = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: any };

let config: string;
let root: string;
let draft: string;
let original: string;
let emailPath: string;

beforeAll(async () => {
  config = tempDir();
  root = tempDir();
  const tree = join(root, 'loops');
  expect((await run(['--sandbox', 'content', 'pull', tree, '--only', 'transactional'], { env: { LOOPSCTL_CONFIG_DIR: config } })).code).toBe(0);
  const email = readdirSync(join(tree, 'transactional')).sort()[0]!;
  emailPath = `transactional/${email}`;
  draft = join(tree, emailPath, 'draft.lmx');
  original = readFileSync(draft, 'utf8');
  const paragraph = /<Paragraph>([^<]+)/.exec(original)!;
  writeFileSync(draft, original.replace(paragraph[0], `<Paragraph>Reviewed: ${paragraph[1]}`));
});

async function serve(person: Person) {
  const mcp = await startMcp(['--sandbox', '--allow-destructive', '--root', root], { env: { LOOPSCTL_CONFIG_DIR: config }, person });
  running.push(mcp);
  return async (name: string, input: Record<string, unknown>) => (await mcp.client.callTool({ name, arguments: input })) as Answer;
}

describe('content_push and the review of its emails', () => {
  it('asks the person with the emails it changes, the review’s digest and its page', async () => {
    const asked: string[] = [];
    const call = await serve((request) => {
      asked.push(request.message);
      return { action: 'decline' };
    });
    const answer = await call('content_push', { dir: 'loops', only: 'transactional' });
    expect(answer.structuredContent.error).toMatchObject({ code: 'not_approved' });
    expect(asked[0]).toMatch(/It changes 1 email as recipients see it \(review digest [0-9a-f]{64}\):\n {4}changed transactional "[^"]+": body/);
    const page = /See them before and after in (\S+review\.html)\./.exec(asked[0]!)![1]!;
    expect(page.startsWith(join(config, 'approvals'))).toBe(true);
    expect(readFileSync(page, 'utf8')).toContain('Reviewed: ');
  });

  it('answers "pending approval" with the review, and applies the plan reviewed, not the tree edited since', async () => {
    const call = await serve(false);
    const answer = await call('content_push', { dir: 'loops', only: 'transactional' });
    expect(answer.isError, answer.content[0]!.text).toBeFalsy();
    const { plan: id, review } = answer.structuredContent as { plan: string; review: { digest: string; page: string; summary: string; emails: object[] } };
    expect(review).toEqual({
      digest: expect.stringMatching(/^[0-9a-f]{64}$/),
      page: join(config, 'approvals', id, 'review.html'),
      summary: expect.stringContaining('1 email changes as recipients see it (1 changed)'),
      emails: [{ kind: 'transactional', name: expect.any(String), path: emailPath, change: 'changed', changed: expect.arrayContaining(['body']) }],
    });
    expect(readFileSync(review.page, 'utf8')).toContain(`review digest <code>${review.digest}</code>`);
    expect(answer.content.at(-1)!.text).toBe(`Review (digest ${review.digest}): ${review.summary} See them before and after in ${review.page}.`);
    expect(answer.structuredContent.change.join('\n')).toContain(`(review digest ${review.digest})`);

    const input = typedInput();
    input.write('y\r');
    const approved = await run(['approve', id], { env: { LOOPSCTL_CONFIG_DIR: config }, input, tty: { columns: 100 } });
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stderr).toContain(review.digest);
    // The email edited again after the approval: the yes is for the plan reviewed, which is what is applied, never the tree as it is now.
    const reviewed = readFileSync(draft, 'utf8');
    writeFileSync(draft, reviewed.replace('Reviewed: ', 'Edited since: '));
    const applied = await call('approved_apply', { plan: id });
    expect(applied.isError, applied.content[0]!.text).toBeFalsy();
    writeFileSync(draft, reviewed);
    const diff = await run(['--sandbox', 'content', 'diff', join(root, 'loops'), '--only', 'transactional'], { env: { LOOPSCTL_CONFIG_DIR: config } });
    expect(diff.stdout).not.toContain('Reviewed: ');
    expect(existsSync(review.page)).toBe(true);
  });
});

describe('workflow_propose and the review of its emails', () => {
  const WIN_BACK = 'cw509z9tjxv56rte3vt30437u';

  it('answers the review of the emails the proposal changes, and none for a change no recipient sees', async () => {
    const call = await serve(false);
    const removed = await call('workflow_propose', { workflow: WIN_BACK, edits: [{ node: 'we-saved-your-workspace', remove: true }] });
    expect(removed.isError, removed.content[0]!.text).toBeFalsy();
    const { plan: id, review } = removed.structuredContent as { plan: string; review: { digest: string; page: string; emails: object[] } };
    expect(review.emails).toEqual([
      {
        kind: 'workflow',
        name: expect.any(String),
        path: expect.stringMatching(/^workflows\/win-back-draft--cw509z9tjxv56rte3vt30437u\/emails\/we-saved-your-workspace$/),
        change: 'changed',
        changed: ['node'],
      },
    ]);
    expect(review.page).toBe(join(config, 'approvals', id, 'change.review.html'));
    expect(readFileSync(review.page, 'utf8')).toContain(`review digest <code>${review.digest}</code>`);
    // The words a person approves name it too.
    const approvals = JSON.parse(readFileSync(join(config, 'approvals', `${id}.json`), 'utf8')) as { words: string[] };
    expect(approvals.words.join('\n')).toContain(`It changes 1 email as recipients see it (review digest ${review.digest}):`);

    const rate = await call('workflow_propose', { workflow: WIN_BACK, edits: [{ node: 'experiment', set: { samplingRate: 30 } }] });
    expect(rate.structuredContent.review).toMatchObject({ emails: [], summary: expect.stringContaining('No email changes as recipients see it') });
  });
});
