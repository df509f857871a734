/**
 * `content check`'s qa rules by the rules file `check` reads (--rules here; found in the working
 * directory as `check` finds it: test/e2e/areas/check/rules-file.test.ts): a rule turned off,
 * raised, allowed for one email, and the spam threshold making a total an error; and the text,
 * links and images of the components an email embeds judged as the email's. `content preview`'s
 * check panel and `content review`'s findings follow the same file.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentTree } from '../../../support/content-tree.js';
import { run, startRun, tempDir } from '../../../support/main.js';

const RESET = 'transactional/password-reset--cx1';
const WELCOME = 'campaigns/welcome--cm1';
const FOOTER = 'components/footer--cmp_footer';

/** Two emails whose link reads "here", which says nothing to a screen reader listing links; a footer to embed. */
const tree = (footer = '<Paragraph>Acme, 1 Main Street.</Paragraph>\n') =>
  contentTree({
    [`${RESET}/transactional.json`]: '{"name":"Password reset"}\n',
    [`${RESET}/draft.lmx`]: '<H1>Reset your password</H1>\n<Paragraph>Choose a new password <Link href="{data.resetLink}">here</Link>.</Paragraph>\n',
    [`${WELCOME}/campaign.json`]: '{"name":"Welcome"}\n',
    [`${WELCOME}/email.lmx`]: '<H1>Welcome</H1>\n<Paragraph>Read the guide <Link href="https://acme.example/guide">here</Link>.</Paragraph>\n',
    [`${FOOTER}/component.json`]: '{"name":"Footer"}\n',
    [`${FOOTER}/component.lmx`]: footer,
  });

interface Checked {
  file: string;
  errors: { rule: string; message: string; line: number; column: number }[];
  warnings: { rule: string; message: string; line: number; column: number }[];
}

function rulesFile(text: string): string {
  const file = join(tempDir('loopsctl-rules-'), 'loops.check.yaml');
  writeFileSync(file, text);
  return file;
}

async function check(root: string, ...args: string[]): Promise<{ code: number; byFile: Record<string, { errors: string[]; warnings: string[] }> }> {
  const result = await run(['content', 'check', root, '--json', ...args], { env: { LOOPS_API_KEY: undefined } });
  const byFile: Record<string, { errors: string[]; warnings: string[] }> = {};
  for (const file of result.json<Checked[]>())
    byFile[file.file.slice(root.length + 1)] = { errors: file.errors.map((each) => each.rule), warnings: file.warnings.map((each) => each.rule) };
  return { code: result.code, byFile };
}

describe('content check: the qa rules and the rules file', () => {
  it('turns a rule off, raises one, and allows one for a single email', async () => {
    const root = tree();
    const plain = await check(root);
    expect(plain.code).toBe(0);
    expect(plain.byFile[`${RESET}/draft.lmx`]).toEqual({ errors: [], warnings: ['vague-link-text'] });
    expect(plain.byFile[`${WELCOME}/email.lmx`]).toEqual({ errors: [], warnings: ['vague-link-text'] });

    const off = await check(root, '--rules', rulesFile('rules: { vague-link-text: off }\n'));
    expect(off.code).toBe(0);
    expect(off.byFile[`${RESET}/draft.lmx`]).toEqual({ errors: [], warnings: [] });
    expect(off.byFile[`${WELCOME}/email.lmx`]).toEqual({ errors: [], warnings: [] });

    const raised = await check(
      root,
      '--rules',
      rulesFile('rules: { vague-link-text: error }\nallow: [ { rule: vague-link-text, record: campaign/Welcome } ]\n'),
    );
    expect(raised.code).toBe(1);
    expect(raised.byFile[`${RESET}/draft.lmx`]).toEqual({ errors: ['vague-link-text'], warnings: [] });
    // The allow-list names the campaign by its record, as `check` names it.
    expect(raised.byFile[`${WELCOME}/email.lmx`]).toEqual({ errors: [], warnings: [] });
  });

  it("makes a spam total at or over the file's spamScore an error, naming the rules that added to it", async () => {
    const root = tree();
    writeFileSync(
      join(root, WELCOME, 'email.lmx'),
      '<H1>Welcome</H1>\n<Paragraph>Seats are going fast, act now and order now!!! The guide is <Link href="https://acme.example/guide">on our site</Link>.</Paragraph>\n',
    );
    // 2 trigger phrases and a run of "!!!": 3.5 points, under the 5 a spam total is told at.
    expect((await check(root)).byFile[`${WELCOME}/email.lmx`]).toEqual({ errors: [], warnings: [] });
    const result = await run(['content', 'check', root, '--json', '--rules', rulesFile('spamScore: 3\n')]);
    expect(result.code).toBe(1);
    const welcome = result.json<Checked[]>().find((file) => file.file.endsWith(`${WELCOME}/email.lmx`))!;
    expect(welcome.errors).toEqual([
      expect.objectContaining({
        rule: 'spam-score',
        message: 'spam score 3.5 (spam-punctuation 1.5, spam-trigger-phrase 2), at or over 3',
        line: 1,
        column: 1,
      }),
    ]);
    expect(welcome.warnings.map((each) => each.rule).sort()).toEqual(['spam-punctuation', 'spam-trigger-phrase']);
  });

  it('refuses a rules file with an unknown rule before checking anything (exit 2)', async () => {
    const result = await run(['content', 'check', tree(), '--rules', rulesFile('rules: { no-such-rule: off }\n')]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('rules.no-such-rule: no rule is named no-such-rule');
  });

  it("judges an embedded component's text as the email's: its vague link at the <Component>, its text against an image-only email", async () => {
    const root = tree(
      '<Paragraph>You get this email because you signed up for Acme; manage what we send you <Link href="https://acme.example/preferences">here</Link>.</Paragraph>\n',
    );
    writeFileSync(
      join(root, WELCOME, 'email.lmx'),
      '<Image src="https://acme.example/spring.png" alt="Spring sale: every plan 20% off" />\n<Component componentId="cmp_footer" />\n',
    );
    const result = await run(['content', 'check', root, '--json'], { env: { LOOPS_API_KEY: undefined } });
    const welcome = result.json<Checked[]>().find((file) => file.file.endsWith(`${WELCOME}/email.lmx`))!;
    expect(welcome.warnings).toEqual([
      expect.objectContaining({
        rule: 'vague-link-text',
        line: 2,
        column: 1,
        message: expect.stringMatching(/^the link text "here" says nothing alone.* \(in the component cmp_footer\)$/),
      }),
    ]);
    // The footer's text is read with the image: no "an email that is one image" spam finding, at any threshold.
    const strict = await run(['content', 'check', root, '--json', '--rules', rulesFile('spamScore: 1\n')]);
    expect(strict.json<Checked[]>().find((file) => file.file.endsWith(`${WELCOME}/email.lmx`))!.errors).toEqual([]);
  });

  it('prints typical findings within a terminal of 80 columns', async () => {
    const root = tree('<Paragraph>Manage what we send you <Link href="https://acme.example/preferences">here</Link>.</Paragraph>\n');
    writeFileSync(
      join(root, WELCOME, 'email.lmx'),
      [
        '<Style textBaseColor="#aaaaaa" textBaseFontSize="11" />',
        '<H1>Welcome</H1>',
        '<H3>Your first week</H3>',
        '<Paragraph>Act now and order now!!! Your seats are ready: <Link href="https://acme.example/seats">click here</Link>.</Paragraph>',
        '<Image src="https://acme.example/a-banner-with-a-rather-long-file-name-for-the-spring-sale-of-this-year.png" />',
        '<Button href="https://acme.example/account" bgColor="#eeeeee" textColor="#ffffff">Read more</Button>',
        '<Component componentId="cmp_footer" />',
        '',
      ].join('\n'),
    );
    const result = await run(['content', 'check', root, '--no-color', '--no-pager', '--rules', rulesFile('spamScore: 3\n')], { tty: { columns: 80 } });
    expect(result.code).toBe(1);
    for (const rule of ['low-contrast', 'heading-order', 'vague-link-text', 'small-text', 'image-without-alt', 'spam-score'])
      expect(result.stdout).toContain(` ${rule} `);
    // A file's place is one word, as long as the directory it is in (here a temp dir's): it goes on a line of its own.
    for (const line of result.stdout.split('\n'))
      if (!(line.startsWith(`${root}/`) && /^\S+:\d+:\d+$/.test(line))) expect(line.length, line).toBeLessThanOrEqual(80);
  });
});

describe('content preview and content review: the qa findings by the same rules file', () => {
  const OFF = 'rules: { vague-link-text: off }\n';
  const RAISED = 'rules: { vague-link-text: error }\n';

  it('content preview: the check panel leaves out a rule turned off and shows a raised one as an error', async () => {
    const root = tree();
    /** The check panel's findings of the welcome campaign, `severity rule`, as the page serves them. */
    const panel = async (...options: string[]) => {
      const running = startRun(['content', 'preview', root, '--port', '0', ...options], { env: { LOOPS_API_KEY: undefined } });
      try {
        const [, url] = await running.waitFor(/^(http:\/\/127\.0\.0\.1:\d+\/)\n/);
        const page = await (await fetch(`${url!}?email=${encodeURIComponent(`${WELCOME}/email.lmx`)}`)).text();
        return [...page.matchAll(/<li class="(error|warning)"[^>]*><div><span class="where">[^<]*<\/span> <code class="rule">([^<]+)<\/code>/g)].map(
          (match) => `${match[1]} ${match[2]}`,
        );
      } finally {
        await running.stop();
      }
    };
    expect(await panel()).toEqual(['warning vague-link-text']);
    expect(await panel('--rules', rulesFile(OFF))).toEqual([]);
    expect(await panel('--rules', rulesFile(RAISED))).toEqual(['error vague-link-text']);
  });

  it('content review: a finding the change brings is left out when its rule is off, and an error when raised', async () => {
    const root = tree();
    const git = (...args: string[]) =>
      spawnSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: root, encoding: 'utf8' });
    writeFileSync(
      join(root, WELCOME, 'email.lmx'),
      '<H1>Welcome</H1>\n<Paragraph>Read <Link href="https://acme.example/guide">the guide</Link>.</Paragraph>\n',
    );
    for (const args of [
      ['init', '--quiet'],
      ['add', '-A'],
      ['commit', '--quiet', '-m', 'content'],
    ])
      expect(git(...args).status).toBe(0);
    // The change: the link's text becomes "here", which says nothing alone.
    writeFileSync(
      join(root, WELCOME, 'email.lmx'),
      '<H1>Welcome</H1>\n<Paragraph>Read the guide <Link href="https://acme.example/guide">here</Link>.</Paragraph>\n',
    );
    interface Reviewed {
      emails: { path: string; findings: { appeared: { severity: string; rule: string }[] } }[];
    }
    const review = async (...options: string[]) => {
      const result = await run(['content', 'review', root, '--base', 'HEAD', '--json', ...options], { env: { LOOPS_API_KEY: undefined } });
      expect(result.code, result.stderr).toBe(0);
      const email = result.json<Reviewed>().emails.find((each) => each.path === WELCOME)!;
      return email.findings.appeared.map((finding) => `${finding.severity} ${finding.rule}`);
    };
    expect(await review()).toEqual(['warning vague-link-text']);
    expect(await review('--rules', rulesFile(OFF))).toEqual([]);
    expect(await review('--rules', rulesFile(RAISED))).toEqual(['error vague-link-text']);
    // The text says it so too; the email is not drawn as one whose LMX fails to compile.
    const text = await run(['content', 'review', root, '--base', 'HEAD', '--no-color', '--rules', rulesFile(RAISED)], { env: { LOOPS_API_KEY: undefined } });
    expect(text.stdout).toContain('error (moderate) vague-link-text:');
    const page = join(tempDir('loopsctl-review-rules-'), 'review.html');
    expect(
      (await run(['content', 'review', root, '--base', 'HEAD', '--out', page, '--rules', rulesFile(RAISED)], { env: { LOOPS_API_KEY: undefined } })).code,
    ).toBe(0);
    const html = readFileSync(page, 'utf8');
    expect(html).toContain('new error (moderate): ');
    expect(html).not.toContain('does not compile');
    const off = await run(['content', 'review', root, '--base', 'HEAD', '--no-color', '--rules', rulesFile(OFF)], { env: { LOOPS_API_KEY: undefined } });
    expect(off.stdout).not.toContain('vague-link-text');
  });
});

describe('content check: impacts, --severity and the message language', () => {
  const ENGLISH =
    '<H1>Reset your password</H1>\n<Paragraph>Someone asked to reset the password of your account. Choose a new one with the button below.</Paragraph>\n<Button href="{data.resetLink}">Choose a new password</Button>\n';
  const emailTree = (fields: string, lmx = ENGLISH) =>
    contentTree({
      [`${RESET}/transactional.json`]: '{"name":"Password reset"}\n',
      [`${RESET}/draft.json`]: fields,
      [`${RESET}/draft.lmx`]: lmx,
    });

  it("finds a missing languageCode (serious) and one that is not the text's language (moderate)", async () => {
    const missing = await run(['content', 'check', emailTree('{"subject":"Reset your password"}\n'), '--json'], { env: { LOOPS_API_KEY: undefined } });
    expect(missing.code).toBe(0);
    expect(missing.json<Checked[]>()[0]!.warnings.map((each) => [each.rule, (each as { impact?: string }).impact])).toEqual([
      ['language-code-missing', 'serious'],
    ]);
    // The rules file rules it as it rules the other qa rules.
    const off = await check(emailTree('{"subject":"Reset your password"}\n'), '--rules', rulesFile('rules: { language-code-missing: off }\n'));
    expect(off).toEqual({ code: 0, byFile: { [`${RESET}/draft.lmx`]: { errors: [], warnings: [] } } });
    const french = await run(['content', 'check', emailTree('{"subject":"Reset your password","languageCode":"fr"}\n'), '--json'], {
      env: { LOOPS_API_KEY: undefined },
    });
    expect(french.json<Checked[]>()[0]!.warnings.map((each) => each.rule)).toEqual(['language-mismatch']);
    const english = await run(['content', 'check', emailTree('{"subject":"Reset your password","languageCode":"en"}\n'), '--json'], {
      env: { LOOPS_API_KEY: undefined },
    });
    expect(english.json<Checked[]>()[0]!.warnings).toEqual([]);
  });

  it('keeps accessibility findings warnings without --severity, and fails at the line it names', async () => {
    const root = emailTree('{"subject":"Reset your password","languageCode":"en"}\n', ENGLISH.replace('Choose a new password', 'Click here'));
    const plain = await check(root);
    expect(plain).toEqual({ code: 0, byFile: { [`${RESET}/draft.lmx`]: { errors: [], warnings: ['vague-link-text'] } } });
    const serious = await check(root, '--severity', 'serious');
    expect(serious).toEqual({ code: 0, byFile: { [`${RESET}/draft.lmx`]: { errors: [], warnings: ['vague-link-text'] } } });
    const moderate = await check(root, '--severity', 'moderate');
    expect(moderate).toEqual({ code: 1, byFile: { [`${RESET}/draft.lmx`]: { errors: ['vague-link-text'], warnings: [] } } });
    const text = await run(['content', 'check', root, '--severity', 'moderate'], { env: { LOOPS_API_KEY: undefined } });
    expect(text.stdout).toContain(
      `${join(root, RESET, 'draft.lmx')}:3:1 vague-link-text the button text "Click here" says nothing alone: screen readers list links by their text (moderate)`,
    );
    expect(text.stderr).toBe('Checked 1 file: 1 error, 0 warnings in 1 file.\nAccessibility: 0 critical, 0 serious, 1 moderate, 0 mild.\n');
  });
});
