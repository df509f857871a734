/**
 * `content review --base <ref>` on a tree of 42 emails using 5 components and 2 themes: for each
 * kind of change, the emails reported are exactly those whose rendered result differs.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { contentTree } from '../../../support/content-tree.js';
import { run, tempDir } from '../../../support/main.js';
import { githubHtml, textOfHtml } from '../../../support/markdown.js';
import { sandboxEachTest } from '../../../support/recording.js';
import {
  ALL_EMAILS,
  CAMPAIGNS,
  editTree,
  insertionBeforeComponent,
  PROMO_USERS,
  removeTree,
  resetRepository,
  reviewRepository,
  TRANSACTIONAL,
  themeOf,
  WORKFLOWS,
  writeTree,
} from '../../../support/review-tree.js';

interface ReviewJson {
  emails: {
    kind: string;
    name: string;
    path: string;
    change: string;
    changed: string[];
    blocks: { change: string; text: string }[];
    variables: { added: string[]; removed: string[] };
  }[];
  unchanged: number;
  digest: string;
}

let root: string;
beforeAll(() => {
  root = reviewRepository();
});
afterEach(() => resetRepository(root));

async function review(...options: string[]): Promise<ReviewJson> {
  const result = await run(['content', 'review', root, '--base', 'HEAD', '--json', ...options], { env: { LOOPS_API_KEY: undefined } });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as ReviewJson;
}

const paths = (json: ReviewJson) => json.emails.map((email) => email.path).sort();

describe('content review --base: the emails whose rendered result changes, and no others', () => {
  it('reports nothing for the tree as committed, and counts every email', async () => {
    const json = await review();
    expect(json.emails).toEqual([]);
    expect(json.unchanged).toBe(ALL_EMAILS.length);
    const text = await run(['content', 'review', root, '--base', 'HEAD']);
    expect(text.stderr).toContain('No email changes as recipients see it');
  });

  it('a copy edit in one email: that email, its body and plain text, the block that changed', async () => {
    editTree(root, `${CAMPAIGNS[0]}/email.lmx`, 'It says something', 'It now says something');
    const json = await review();
    expect(paths(json)).toEqual([CAMPAIGNS[0]]);
    expect(json.emails[0]).toMatchObject({ kind: 'campaign', change: 'changed', changed: ['body', 'plainText'] });
    expect(json.emails[0]!.blocks).toEqual([expect.objectContaining({ change: 'changed', text: expect.stringContaining('It now says something') })]);
    expect(json.unchanged).toBe(ALL_EMAILS.length - 1);
  });

  it('a component edit: every email that embeds it (7), none other', async () => {
    editTree(root, 'components/promo--cmp3/component.lmx', '14 days', '30 days');
    expect(paths(await review())).toEqual([...PROMO_USERS].sort());
  });

  it('a theme colour change: every email drawn with that theme', async () => {
    editTree(root, 'themes/ember--th2/theme.json', '#c2410c', '#9a3412');
    const json = await review();
    expect(paths(json)).toEqual(ALL_EMAILS.filter((email) => themeOf(email) === 'th2').sort());
    expect(json.emails.every((email) => email.changed.includes('body'))).toBe(true);
  });

  it('an LMX reformat with no visible effect, a component no email uses: none', async () => {
    editTree(root, `${TRANSACTIONAL[13]}/draft.lmx`, /<Button href="([^"]+)" align="center">/, '\n\n  <Button align="center"   href="$1">');
    editTree(root, `${TRANSACTIONAL[13]}/draft.lmx`, '<H1>', '   <H1>');
    editTree(root, 'components/unused--cmp6/component.lmx', 'Nobody', 'No one');
    const json = await review();
    expect(json.emails).toEqual([]);
    expect((json as ReviewJson & { unusedComponents?: string[] }).unusedComponents).toEqual(['components/unused--cmp6']);
    const text = await run(['content', 'review', root, '--base', 'HEAD']);
    expect(text.code).toBe(0);
    expect(text.stderr).toContain('No email changes as recipients see it');
    expect(text.stderr).toContain('components/unused--cmp6 changed, and no email embeds it: no recipient sees that change.');
  });

  it('a subject only, a preview text only, a sender only: those emails, that field alone', async () => {
    editTree(root, `${TRANSACTIONAL[11]}/draft.json`, '"Subject 12"', '"Your subject, renewed"');
    editTree(root, `${TRANSACTIONAL[12]}/draft.json`, '"Preview 13"', '"A new preview"');
    editTree(root, `${TRANSACTIONAL[13]}/draft.json`, '"fromName": "Acme"', '"fromName": "Acme Billing"');
    const json = await review();
    expect(json.emails.map(({ path, changed }) => ({ path, changed }))).toEqual([
      { path: TRANSACTIONAL[11], changed: ['subject'] },
      { path: TRANSACTIONAL[12], changed: ['previewText'] },
      { path: TRANSACTIONAL[13], changed: ['from'] },
    ]);
  });

  it("a data variable's fallback, an image's address: those emails' bodies", async () => {
    editTree(root, `${TRANSACTIONAL[9]}/draft.json`, '"there"', '"friend"');
    editTree(root, `${TRANSACTIONAL[10]}/draft.lmx`, 'hero-1.png', 'hero-2.png');
    const json = await review();
    expect(paths(json)).toEqual([TRANSACTIONAL[9], TRANSACTIONAL[10]]);
    expect(json.emails.every((email) => email.changed.includes('body'))).toBe(true);
  });

  it("a workflow's nodes reordered with no email change: none", async () => {
    const yaml = `${WORKFLOWS[0]}/workflow.yaml`;
    editTree(root, yaml, /( {2}send-1:\n(?: {4}.*\n)+)((?: {2}.*\n(?: {4}.*\n)+)+)/, '$2$1');
    const json = await review();
    expect(json.emails).toEqual([]);
  });

  it('a send-email node pointed at another email: the emails it stops and starts sending', async () => {
    editTree(root, `${WORKFLOWS[1]}/workflow.yaml`, 'email: emails/step-2/email.json', 'email: emails/step-3/email.json');
    const json = await review();
    expect(json.emails.map(({ path, changed }) => ({ path, changed }))).toEqual([
      { path: `${WORKFLOWS[1]}/emails/step-2`, changed: ['node'] },
      { path: `${WORKFLOWS[1]}/emails/step-3`, changed: ['node'] },
    ]);
  });

  it('a new email and a removed one: listed as added and removed, with their variables', async () => {
    writeTree(root, 'transactional/t21--cx21/transactional.json', '{"name":"T 21"}\n');
    writeTree(root, 'transactional/t21--cx21/draft.json', '{"subject":"Hello"}\n');
    writeTree(root, 'transactional/t21--cx21/draft.lmx', '<Paragraph>Your code is {data.code}</Paragraph>\n');
    removeTree(root, CAMPAIGNS[11]!);
    const json = await review();
    expect(json.emails.map(({ path, change }) => ({ path, change }))).toEqual([
      { path: CAMPAIGNS[11], change: 'removed' },
      { path: 'transactional/t21--cx21', change: 'added' },
    ]);
    expect(json.emails[1]!.variables).toEqual({ added: ['data.code'], removed: [] });
  });

  it('an email whose LMX does not compile on one side: reported, with its errors on that side', async () => {
    editTree(root, `${TRANSACTIONAL[2]}/draft.lmx`, '</Paragraph>', '</Heading>');
    const json = (await review()) as ReviewJson & { emails: { afterErrors?: unknown[]; beforeErrors?: unknown[] }[] };
    expect(paths(json)).toEqual([TRANSACTIONAL[2]]);
    expect(json.emails[0]!.afterErrors?.length).toBeGreaterThan(0);
    expect(json.emails[0]!.beforeErrors).toBeUndefined();
  });

  it('lists the qa findings a change brings under their email, in 80 columns, and in --json', async () => {
    editTree(
      root,
      `${CAMPAIGNS[0]}/email.lmx`,
      'It says something',
      'Read the details <Link href="https://acme.example/details">here</Link>. It says something',
    );
    const json = (await review()) as ReviewJson & { emails: { findings: { appeared: { rule: string }[]; disappeared: unknown[] } }[] };
    expect(paths(json)).toEqual([CAMPAIGNS[0]]);
    expect(json.emails[0]!.findings).toEqual({
      appeared: [expect.objectContaining({ severity: 'warning', rule: 'vague-link-text', impact: 'moderate' })],
      disappeared: [],
    });
    const text = await run(['content', 'review', root, '--base', 'HEAD', '--no-color'], { env: { LOOPS_API_KEY: undefined, COLUMNS: '80' } });
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.trimEnd().split('\n');
    const from = lines.indexOf('New findings of `content check`:');
    expect(from).toBeGreaterThan(0);
    expect(lines[from + 1]).toMatch(new RegExp(`^\\S.* \\(${CAMPAIGNS[0]}\\)$`));
    expect(lines[from + 2]).toMatch(/^ {2}warning \(moderate\) vague-link-text: the link text "here" says nothing alone/);
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
    // A pull request's comment and a Slack message name their rules beside what changed.
    const markdown = await run(['content', 'review', root, '--base', 'HEAD', '--format', 'markdown'], { env: { LOOPS_API_KEY: undefined } });
    expect(githubHtml(markdown.stdout)).toContain('<td>body (1 block changed); new findings: vague-link-text</td>');
    expect(githubHtml(markdown.stdout)).toContain('<p>Accessibility findings the change brings: 0 critical, 0 serious, 1 moderate, 0 mild.</p>');
    // The page's summary counts them too, and each email's list says the impact.
    const page = join(tempDir('loopsctl-review-page-'), 'review.html');
    const written = await run(['content', 'review', root, '--base', 'HEAD', '--out', page], { env: { LOOPS_API_KEY: undefined } });
    expect(written.code, written.stderr).toBe(0);
    const html = readFileSync(page, 'utf8');
    expect(html).toContain('<p>Accessibility findings the change brings: 0 critical, 0 serious, 1 moderate, 0 mild.</p>');
    expect(html).toContain('<li>new warning (moderate): the link text &quot;here&quot; says nothing alone');
    const slack = await run(['content', 'review', root, '--base', 'HEAD', '--format', 'slack'], { env: { LOOPS_API_KEY: undefined } });
    expect(slack.stdout).toContain('new findings: vague-link-text');
  });

  it('the same change reviewed twice has the same digest; another change another', async () => {
    editTree(root, `${CAMPAIGNS[0]}/email.lmx`, 'It says something', 'It now says something');
    const first = await review();
    expect((await review()).digest).toBe(first.digest);
    editTree(root, `${CAMPAIGNS[0]}/email.lmx`, 'now says', 'still says');
    expect((await review()).digest).not.toBe(first.digest);
  });
});

describe('content review pairs blocks as a diff does', () => {
  it('a paragraph reworded, one inserted before a component, the component edited: one added, one changed, the component changed, in every view', async () => {
    const { root: tree, email } = insertionBeforeComponent();
    const env = { LOOPS_API_KEY: undefined };
    const json = await run(['content', 'review', tree, '--base', 'HEAD', '--json'], { env });
    expect(json.code, json.stderr).toBe(0);
    const [reviewed] = (JSON.parse(json.stdout) as ReviewJson).emails;
    expect(reviewed).toMatchObject({ path: email, change: 'changed' });
    expect(reviewed!.blocks).toEqual([
      { change: 'changed', before: 1, after: 1, tag: 'Paragraph', text: 'Thank you for joining Acme. Your workspace is ready whenever you are.' },
      { change: 'added', after: 3, tag: 'Paragraph', text: 'Questions? Reply to this email and a person will answer.' },
      { change: 'changed', before: 3, after: 4, tag: 'Component', componentId: 'cmp2', text: 'Acme Inc · 2 Market Square' },
    ]);
    // The terminal, a pull request comment and a Slack message count the blocks alike.
    const said = 'body (2 blocks changed, 1 added)';
    const text = await run(['content', 'review', tree, '--base', 'HEAD'], { env });
    expect(text.stdout).toContain(said);
    const markdown = await run(['content', 'review', tree, '--base', 'HEAD', '--format', 'markdown'], { env });
    expect(githubHtml(markdown.stdout)).toContain(`<td>transactional</td>\n<td>changed</td>\n<td>${said}</td>`);
    const slack = await run(['content', 'review', tree, '--base', 'HEAD', '--format', 'slack'], { env });
    expect(slack.stdout).toContain(`(transactional, changed): ${said}`);
  });
});

describe("content review's comment and message: an email's name is text", () => {
  const NAME = '[Reset your password](https://evil.example/login) ![pixel](https://evil.example/p.png) <img src=x> @acme/owners #12 | *now*';

  it('in the pull request comment: no link, no image, no HTML, no mention, no cell of its own', async () => {
    writeTree(root, 'transactional/t21--cx21/transactional.json', `${JSON.stringify({ name: NAME })}\n`);
    writeTree(root, 'transactional/t21--cx21/draft.json', '{"subject":"Hello","languageCode":"en"}\n');
    writeTree(root, 'transactional/t21--cx21/draft.lmx', '<Paragraph>Hello.</Paragraph>\n');
    const env = { LOOPS_API_KEY: undefined };
    const out = join(tempDir('loopsctl-review-comment-'), 'review (1).html');
    const markdown = await run(['content', 'review', root, '--base', 'HEAD', '--format', 'markdown', '--out', out], { env });
    expect(markdown.code, markdown.stderr).toBe(0);
    const html = githubHtml(markdown.stdout);
    expect(html, html).not.toMatch(/<(a|img|em|strong)\b/);
    const cells = [...html.matchAll(/<td>([\s\S]*?)<\/td>/g)].map((cell) => textOfHtml(cell[1]!.replace(/<br \/>|<br>/g, '\n')));
    expect(cells).toEqual([`${NAME}\ntransactional/t21--cx21`, 'transactional', 'added', 'new email']);
    expect(html).toContain(`<code>${out}</code>`);

    const slack = await run(['content', 'review', root, '--base', 'HEAD', '--format', 'slack'], { env });
    const message = JSON.parse(slack.stdout) as {
      text: string;
      blocks: { text?: { type: string; text: string; verbatim?: boolean }; elements?: { type: string; verbatim?: boolean }[] }[];
    };
    const objects = message.blocks.flatMap((block) => [block.text, ...(block.elements ?? [])]).filter((text) => text?.type === 'mrkdwn');
    expect(objects.every((text) => text!.verbatim === true)).toBe(true);
    expect(slack.stdout).toContain('&lt;img src=x&gt;');
    expect(slack.stdout).not.toContain('<img');
  });
});

describe('content review: bad input', () => {
  it('a base ref that does not exist: exit 2, named', async () => {
    const result = await run(['content', 'review', root, '--base', 'no-such-branch']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--base no-such-branch: no such branch, tag or commit');
  });

  it('a tree outside any git repository: exit 2, named', async () => {
    const tree = contentTree({ 'transactional/x--1/transactional.json': '{"name":"X"}\n' });
    const result = await run(['content', 'review', tree, '--base', 'HEAD']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--base: ${tree} is not in a git repository`);
  });

  it('a directory with no pulled content: exit 2', async () => {
    const result = await run(['content', 'review', CAMPAIGNS[0]!.startsWith('campaigns') ? `${root}/campaigns` : root, '--base', 'HEAD']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('holds no pulled content');
  });

  it('no side to compare with: exit 2, saying how', async () => {
    const result = await run(['content', 'review', root]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--base main');
  });
});

describe('content review --against account', () => {
  const sandboxes = sandboxEachTest();

  it("lists the emails the tree draws otherwise than the account, the account's side drawn from what it holds", async () => {
    const sandbox = await sandboxes();
    const tree = join(tempDir('loopsctl-review-account-'), 'loops');
    const pull = await sandbox.loopsctl(['content', 'pull', tree]);
    expect(pull.code, pull.stderr).toBe(0);
    const same = await sandbox.loopsctl(['content', 'review', tree, '--against', 'account', '--json']);
    expect(same.code, same.stderr).toBe(0);
    expect(JSON.parse(same.stdout)).toMatchObject({ emails: [], unchanged: expect.any(Number) });
    expect((JSON.parse(same.stdout) as ReviewJson).unchanged).toBeGreaterThan(0);
    const reset = readdirSync(join(tree, 'transactional')).find((entry) => entry.startsWith('password-reset--'))!;
    const lmx = join(tree, 'transactional', reset, 'draft.lmx');
    writeFileSync(lmx, readFileSync(lmx, 'utf8').replace(/<\/Paragraph>/, ' Thank you.</Paragraph>'));
    const changed = await sandbox.loopsctl(['content', 'review', tree, '--against', 'account', '--json']);
    expect(changed.code, changed.stderr).toBe(0);
    const json = JSON.parse(changed.stdout) as ReviewJson;
    expect(json.emails.map(({ path, change, changed }) => ({ path, change, changed }))).toEqual([
      { path: `transactional/${reset}`, change: 'changed', changed: ['body', 'plainText'] },
    ]);
    expect(sandbox.requests.filter((request) => request.method !== 'GET')).toEqual([]);
  });

  it('a tree with no pulled state: exit 2, nothing read from the account', async () => {
    const sandbox = await sandboxes();
    const result = await sandbox.loopsctl([
      'content',
      'review',
      contentTree({ 'transactional/x--1/transactional.json': '{"name":"X"}\n' }),
      '--against',
      'account',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('loopsctl-state.json is missing');
    expect(sandbox.requests).toEqual([]);
  });
});
