/**
 * The review is what is approved: `content push --plan --out` writes the review of its emails into
 * the plan (under the plan's digest) and its page beside it; `content review change.json` draws it
 * from the plan alone; a plan edited by hand is refused; and the question an agent's apply puts to
 * the person names the emails, the page and the review's digest.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { run, tempDir } from '../../../support/main.js';
import { type McpRun, startMcp } from '../../../support/mcp.js';
import { edit, workflowDir } from '../../../support/workflow-tree.js';

interface PlanWithReview {
  digest: string;
  review: {
    digest: string;
    page: string;
    emails: { kind: string; path: string; change: string; changed: string[] }[];
    sides: { before: object; after: object };
  };
}

const running: McpRun[] = [];
afterEach(async () => {
  for (const mcp of running.splice(0)) await mcp.close();
});

let config: string;
let root: string;
let plan: PlanWithReview;
let emailPath: string;
const env = () => ({ LOOPSCTL_CONFIG_DIR: config });

beforeAll(async () => {
  config = tempDir();
  root = tempDir();
  const tree = join(root, 'loops');
  expect((await run(['--sandbox', 'content', 'pull', tree], { env: env() })).code).toBe(0);
  // A workflow email's copy edit: the welcome series' first email.
  const welcome = workflowDir(tree, 'welcome-series');
  const email = readdirSync(join(welcome, 'emails'))[0]!;
  emailPath = `${welcome.slice(tree.length + 1)}/emails/${email}`;
  const lmx = join(welcome, 'emails', email, 'email.lmx');
  const source = readFileSync(lmx, 'utf8');
  const paragraph = /<Paragraph>([^<]+)/.exec(source)!;
  edit(lmx, paragraph[0], `<Paragraph>Reviewed: ${paragraph[1]}`);
  const planned = await run(['--sandbox', 'content', 'push', tree, '--only', 'workflows', '--plan', '--live', '--out', join(root, 'change.json')], {
    env: env(),
  });
  expect(planned.code, planned.stderr).toBe(0);
  expect(planned.stderr).toContain('1 email changes as recipients see it (1 changed)');
  plan = JSON.parse(readFileSync(join(root, 'change.json'), 'utf8')) as PlanWithReview;
});

describe('a plan carries the review of its emails', () => {
  it('lists the workflow email it edits, and writes the page beside the plan', () => {
    expect(plan.review.emails).toEqual([{ kind: 'workflow', name: expect.any(String), path: emailPath, change: 'changed', changed: ['body', 'plainText'] }]);
    expect(plan.review.page).toBe(join(root, 'change.review.html'));
    expect(readFileSync(plan.review.page, 'utf8')).toContain(`review digest <code>${plan.review.digest}</code>`);
  });

  it('content review change.json draws the same review from the plan alone, offline', async () => {
    const result = await run(['content', 'review', join(root, 'change.json'), '--json'], { env: { LOOPS_API_KEY: undefined, LOOPSCTL_CONFIG_DIR: tempDir() } });
    expect(result.code, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout) as { emails: { path: string; change: string; blocks: unknown[] }[]; digest: string };
    expect(json.emails.map(({ path, change }) => ({ path, change }))).toEqual([{ path: emailPath, change: 'changed' }]);
    expect(json.emails[0]!.blocks).toHaveLength(1);
    expect(json.digest).toBe(plan.review.digest);
  });

  it("draws a plan's page with its impact: the sends so far of the node whose email it changes, on the page and beside the email", async () => {
    const page = join(tempDir(), 'review.html');
    const result = await run(['content', 'review', join(root, 'change.json'), '--out', page], {
      env: { LOOPS_API_KEY: undefined, LOOPSCTL_CONFIG_DIR: tempDir() },
    });
    expect(result.code, result.stderr).toBe(0);
    const sends = (plan as unknown as { impact: { kind: string; record: string; node: string }[] }).impact.filter((record) => record.kind === 'sends');
    expect(sends).toHaveLength(1);
    const html = readFileSync(page, 'utf8');
    expect(html).toContain('<summary>What the plan does to people and the app</summary>');
    const line = new RegExp(`${sends[0]!.record}: changes the email of send-email node ${sends[0]!.node}, which has sent [\\d,]+ emails? so far`, 'g');
    // Once among the plan's impact, once in the email's own section.
    expect(html.match(line)).toHaveLength(2);
    expect(html.indexOf('<section class="email"')).toBeLessThan(html.lastIndexOf(sends[0]!.record));
  });

  it('a plan edited by hand is refused (exit 2), its review with it', async () => {
    const edited = join(tempDir(), 'change.json');
    const text = readFileSync(join(root, 'change.json'), 'utf8');
    writeFileSync(edited, text.replace('"changed": [', '"changed": ["subject", '));
    const result = await run(['content', 'review', edited]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('was changed after it was written: its digest does not match what it holds');
  });

  it('a plan for another account than the key reaches: exit 11', async () => {
    const other = join(tempDir(), 'change.json');
    const { planDigest } = await import('../../../../src/areas/change/plan-file.js');
    const body = { ...plan, account: { ...(plan as unknown as { account: object }).account, team: 'Another Team' } };
    writeFileSync(other, JSON.stringify({ ...body, digest: planDigest(body as never) }));
    const result = await run(['--sandbox', 'content', 'review', other], { env: env() });
    expect(result.code).toBe(11);
    expect(result.stderr).toContain('is a plan for Another Team');
  });

  it("the person asked to approve the plan's apply is told its emails, the page and the review's digest", async () => {
    const asked: string[] = [];
    const mcp = await startMcp(['--sandbox', '--allow-destructive', '--root', root], {
      env: env(),
      person: (request) => {
        asked.push(request.message);
        return { action: 'decline' };
      },
    });
    running.push(mcp);
    await mcp.client.callTool({ name: 'apply', arguments: { plan: 'change.json', live: true } });
    expect(asked[0]).toContain(`It changes 1 email as recipients see it (review digest ${plan.review.digest}):`);
    expect(asked[0]).toContain(`See them before and after in ${plan.review.page}.`);
    expect(existsSync(plan.review.page)).toBe(true);
  });
});
