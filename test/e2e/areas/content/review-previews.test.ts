/**
 * `content review --send-previews <address>` against the sandbox, which implements the preview
 * operation and its allowance: "Each team can send up to 100 preview emails per day." Only an
 * email whose draft on the account draws as the reviewed side is sent, a workflow's email as a
 * transactional one; each digest once; more than the allowance left is refused before anything is
 * sent.
 */
import { appendFileSync, cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findMessage } from '../../../../src/emulator/routes/email-message-records.js';
import { PREVIEWS_PER_DAY } from '../../../../src/platform/email-messages/previews.js';
import { tempDir } from '../../../support/main.js';
import { type RecordingSandbox, sandboxEachTest } from '../../../support/recording.js';
import { commitWorkingTree } from '../../../support/review-tree.js';

const ADDRESS = 'alex@example.com';

interface Previews {
  address: string;
  sent: { path: string; emailMessageId: string }[];
  skipped: { path: string; reason: string }[];
  notSent: { path: string }[];
}

/** The directory of the tree's transactional email whose name starts so. */
function emailDirectory(tree: string, prefix: string): string {
  return `transactional/${readdirSync(join(tree, 'transactional')).find((entry) => entry.startsWith(prefix))!}`;
}

/** Words added to the first paragraph of an email's LMX: a transactional email's draft, else `file`. */
function edit(tree: string, path: string, words: string, file = 'draft.lmx'): void {
  const lmx = join(tree, path, file);
  writeFileSync(lmx, readFileSync(lmx, 'utf8').replace(/<\/Paragraph>/, ` ${words}</Paragraph>`));
}

/** The sandbox's content pulled into a git repository's `loops`, committed; the cache directory of the runs. */
async function pulledRepository(sandbox: RecordingSandbox): Promise<{ tree: string; cache: string; env: Record<string, string> }> {
  const repository = tempDir('loopsctl-review-previews-');
  const tree = join(repository, 'loops');
  const cache = join(tempDir('loopsctl-review-previews-cache-'), 'cache');
  const env = { XDG_CACHE_HOME: cache };
  expect((await sandbox.loopsctl(['content', 'pull', tree], { env })).code).toBe(0);
  commitWorkingTree(repository, 'pulled');
  return { tree, cache, env };
}

/** `content review --base HEAD --send-previews` of the tree, asked and answered: the previews it reports. */
async function reviewedPreviews(sandbox: RecordingSandbox, tree: string, env: Record<string, string>): Promise<Previews> {
  const review = await sandbox.loopsctl(['content', 'review', tree, '--base', 'HEAD', '--send-previews', ADDRESS, '--yes', '--json'], { env });
  expect(review.code, review.stderr).toBe(0);
  return (JSON.parse(review.stdout) as { previews: Previews }).previews;
}

const previewsSent = (sandbox: RecordingSandbox) => sandbox.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/preview'));

describe('content review --send-previews', () => {
  const sandboxes = sandboxEachTest();

  it("sends only the emails whose account draft is the reviewed change, each digest once, within the team's daily allowance", async () => {
    const sandbox = await sandboxes();
    const { tree, cache, env } = await pulledRepository(sandbox);
    const reset = emailDirectory(tree, 'password-reset--');
    const other = readdirSync(join(tree, 'transactional'))
      .map((entry) => `transactional/${entry}`)
      .find((path) => path !== reset)!;
    edit(tree, reset, 'Thank you.');
    edit(tree, other, 'See you soon.');
    // Only the password reset is pushed: the account's draft of the other is not the change.
    const push = await sandbox.loopsctl(['content', 'push', tree, '--only', reset, '--no-check', '--yes'], { env });
    expect(push.code, push.stderr).toBe(0);

    const previews = await reviewedPreviews(sandbox, tree, env);
    expect(previews.sent.map((email) => email.path)).toEqual([reset]);
    expect(previews.skipped).toEqual([
      expect.objectContaining({ path: other, reason: "the account's draft is not this change: push it with `content push` first, then review again" }),
    ]);
    expect(previewsSent(sandbox)).toEqual([
      expect.objectContaining({ path: `/v1/email-messages/${previews.sent[0]!.emailMessageId}/preview`, body: { emails: [ADDRESS] } }),
    ]);

    // The same change reviewed again: nothing is sent twice.
    const again = await reviewedPreviews(sandbox, tree, env);
    expect(again.sent).toEqual([]);
    expect(again.skipped.find((email) => email.path === reset)?.reason).toBe(`a preview of this email as reviewed was sent to ${ADDRESS} before`);
    expect(previewsSent(sandbox)).toHaveLength(1);

    // The team's allowance spent today by earlier sends: the next change is refused before anything is sent.
    const file = join(cache, 'loopsctl', 'previews-sent.json');
    const [sent] = JSON.parse(readFileSync(file, 'utf8')) as { team: string; at: string }[];
    writeFileSync(file, JSON.stringify(Array.from({ length: 100 }, (_, index) => ({ ...sent, emailMessageId: `earlier${index}`, address: ADDRESS }))));
    edit(tree, reset, 'Truly.');
    expect((await sandbox.loopsctl(['content', 'push', tree, '--only', reset, '--no-check', '--yes'], { env })).code).toBe(0);
    const over = await sandbox.loopsctl(['content', 'review', tree, '--base', 'HEAD', '--send-previews', ADDRESS, '--yes', '--json'], { env });
    expect(over.code).toBe(2);
    expect(over.stderr).toContain('--send-previews would send 1 preview, and');
    // "Each team can send up to 100 preview emails per day." (the preview operation's description)
    expect(PREVIEWS_PER_DAY).toBe(100);
    expect(over.stderr).toContain('has 0 left today (UTC) of the 100 a day');
    expect(previewsSent(sandbox)).toHaveLength(1);
  });

  it("sends a workflow's email whose account copy is the change, skips one the account holds otherwise or not yet, each digest once", async () => {
    const sandbox = await sandboxes();
    const { tree, env } = await pulledRepository(sandbox);
    const directory = readdirSync(join(tree, 'workflows')).find((entry) => entry.startsWith('beta-onboarding-subject-test--'))!;
    const workflow = `workflows/${directory}`;
    const control = `${workflow}/emails/you-re-in-the-beta`;
    const variant = `${workflow}/emails/your-early-access-is`;
    const added = `${workflow}/emails/second-welcome`;
    edit(tree, control, 'Welcome.', 'email.lmx');
    // The workflow is paused: a push changes it only with --live.
    const push = await sandbox.loopsctl(['content', 'push', tree, '--only', workflow, '--no-check', '--yes', '--live'], { env });
    expect(push.code, push.stderr).toBe(0);
    // Then, not pushed: the variant edited, and an email added with the node that sends it.
    edit(tree, variant, 'Early.', 'email.lmx');
    cpSync(join(tree, control), join(tree, added), { recursive: true });
    appendFileSync(
      join(tree, workflow, 'workflow.yaml'),
      '  second-welcome:\n    type: SendEmailAction\n    next: [exit]\n    email: emails/second-welcome/email.json\n',
    );

    const previews = await reviewedPreviews(sandbox, tree, env);
    expect(previews.sent.map((email) => email.path)).toEqual([control]);
    expect(previews.skipped).toEqual([
      expect.objectContaining({ path: added, reason: 'the account holds no such email yet: push it with `content push` first, then review again' }),
      expect.objectContaining({ path: variant, reason: "the account's draft is not this change: push it with `content push` first, then review again" }),
    ]);
    // What the sandbox sent is the control node's email message, as pushed.
    const { emailMessageId } = previews.sent[0]!;
    const state = sandbox.server.state();
    expect(state.previews).toEqual([expect.objectContaining({ emailMessageId, emails: [ADDRESS] })]);
    const sent = findMessage(state, emailMessageId);
    expect(sent?.parent).toEqual(expect.objectContaining({ kind: 'workflow', id: directory.slice(directory.lastIndexOf('--') + 2) }));
    expect(sent?.message.lmx).toContain('Welcome.');

    // The same change reviewed again: the workflow's email is not sent twice.
    const again = await reviewedPreviews(sandbox, tree, env);
    expect(again.sent).toEqual([]);
    expect(again.skipped.find((email) => email.path === control)?.reason).toBe(`a preview of this email as reviewed was sent to ${ADDRESS} before`);
    expect(previewsSent(sandbox)).toHaveLength(1);
    // Every request, the workflows' reads and the preview included, is one the published description describes.
    expect(sandbox.problems()).toEqual([]);
  });

  it('a preview sent is not sent twice of the same email as reviewed, and is sent again of a new edit pushed: the record keeps its digest', async () => {
    const sandbox = await sandboxes();
    const { tree, env } = await pulledRepository(sandbox);
    const reset = emailDirectory(tree, 'password-reset--');
    const pushed = async (words: string) => {
      edit(tree, reset, words);
      expect((await sandbox.loopsctl(['content', 'push', tree, '--only', reset, '--no-check', '--yes'], { env })).code).toBe(0);
    };
    await pushed('Thank you.');
    const first = await reviewedPreviews(sandbox, tree, env);
    expect(first.sent.map((email) => email.path)).toEqual([reset]);
    // The same email message, the same address, another drawing: a preview of it has not been seen.
    await pushed('Truly.');
    const second = await reviewedPreviews(sandbox, tree, env);
    expect(second.sent.map((email) => ({ path: email.path, emailMessageId: email.emailMessageId }))).toEqual([
      { path: reset, emailMessageId: first.sent[0]!.emailMessageId },
    ]);
    expect(previewsSent(sandbox)).toHaveLength(2);
    expect((await reviewedPreviews(sandbox, tree, env)).sent).toEqual([]);
    expect(previewsSent(sandbox)).toHaveLength(2);
  });

  it('a 429 of the API mid-way stops: what was sent and what was not, exit 6', async () => {
    const sandbox = await sandboxes();
    const { tree, env } = await pulledRepository(sandbox);
    const paths = readdirSync(join(tree, 'transactional'))
      .slice(0, 2)
      .map((entry) => `transactional/${entry}`);
    for (const path of paths) edit(tree, path, 'Thank you.');
    expect((await sandbox.loopsctl(['content', 'push', tree, '--only', paths.join(','), '--no-check', '--yes'], { env })).code).toBe(0);
    // The team sent 99 previews today by other means: the sandbox takes one more.
    sandbox.server.update((state) => {
      state.previews = Array.from({ length: PREVIEWS_PER_DAY - 1 }, () => ({
        emailMessageId: 'elsewhere',
        emails: [ADDRESS],
        sentAt: new Date().toISOString(),
      }));
    });
    const result = await sandbox.loopsctl(['content', 'review', tree, '--base', 'HEAD', '--send-previews', ADDRESS, '--yes', '--json'], { env });
    expect(result.code).toBe(6);
    const previews = (JSON.parse(result.stdout) as { previews: Previews }).previews;
    expect(previews.sent.map((email) => email.path)).toEqual([paths[0]]);
    expect(previews.notSent.map((email) => email.path)).toEqual([paths[1]]);
    expect(result.stderr).toContain('sent 1 of 2 previews');
    expect(previewsSent(sandbox).map((request) => request.status)).toEqual([200, 429]);
  });

  it('a send needs a yes: refused off a terminal without --yes, nothing sent', async () => {
    const sandbox = await sandboxes();
    const { tree, env } = await pulledRepository(sandbox);
    const reset = emailDirectory(tree, 'password-reset--');
    edit(tree, reset, 'Thank you.');
    expect((await sandbox.loopsctl(['content', 'push', tree, '--only', reset, '--no-check', '--yes'], { env })).code).toBe(0);
    const result = await sandbox.loopsctl(['content', 'review', tree, '--base', 'HEAD', '--send-previews', ADDRESS], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('not confirmed');
    expect(previewsSent(sandbox)).toEqual([]);
  });
});
