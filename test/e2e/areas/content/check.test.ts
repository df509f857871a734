import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentTree } from '../../../support/content-tree.js';
import { run, tempDir } from '../../../support/main.js';
import { sandboxEachTest } from '../../../support/recording.js';

const RESET = 'transactional/password-reset--cx1';
const WELCOME = 'campaigns/welcome--cm1';
const FOOTER = 'components/footer--cmp_footer';

const cleanTree = () =>
  contentTree({
    [`${RESET}/transactional.json`]: '{"name":"Password reset"}\n',
    [`${RESET}/draft.lmx`]: '<H1>Reset your password</H1>\n<Button href="{data.resetLink}">Reset</Button>\n',
    [`${WELCOME}/campaign.json`]: '{"name":"Welcome"}\n',
    [`${WELCOME}/email.lmx`]: '<Paragraph>Hi {contact.firstName}</Paragraph>\n<Component componentId="cmp_footer" />\n',
    [`${FOOTER}/component.json`]: '{"name":"Footer"}\n',
    [`${FOOTER}/component.lmx`]: '<Paragraph>Acme, {contact.email}</Paragraph>\n',
  });

const sandboxes = sandboxEachTest();

describe('content check', () => {
  it("passes the demo account's own content, pulled from the sandbox, warning only of the button Guardian refuses, the draft that cannot start, a vague link and a subject not yet written", async () => {
    const sandbox = await sandboxes();
    const root = join(tempDir('loopsctl-check-'), 'loops');
    const pull = await sandbox.loopsctl(['content', 'pull', root]);
    expect(pull.code, pull.stderr).toBe(0);
    const result = await run(['content', 'check', root, '--json']);
    expect(result.code, result.stdout).toBe(0);
    const records = result.json();
    expect(new Set(records.map((record: { kind: string }) => record.kind))).toEqual(new Set(['transactional', 'campaign', 'component', 'workflow', null]));
    // No message of the demo account says its language (the API gives languageCode only when set): each email says so.
    type Checked = { file: string; kind: string | null; errors: { rule: string }[]; warnings: { rule: string; impact?: string }[] };
    const emails = records.filter((record: Checked) => record.file.endsWith('.lmx') && record.kind !== 'component');
    expect(emails.length).toBeGreaterThan(0);
    for (const email of emails as Checked[])
      expect(
        email.warnings.filter((each) => each.rule === 'language-code-missing'),
        email.file,
      ).toEqual([expect.objectContaining({ impact: 'serious', line: 1, column: 1 })]);
    const found = (records as Checked[])
      .map((record) => ({ ...record, warnings: record.warnings.filter((each) => each.rule !== 'language-code-missing') }))
      .filter((record) => record.errors.length + record.warnings.length > 0);
    // The payment-failed draft's button leads nowhere: the seed's Guardian error, which the check foresees.
    // And the win-back draft's holdout control sends nothing: "you must add at least one email within
    // each control or variant branch before starting" (the docs' experiments page), a start rule.
    // The receipt's link reads "here", which says nothing to a screen reader listing links (qa).
    // The Spring sale campaign's draft has an empty subject, which the platform would send as it is.
    const receipt = (version: string) => ({
      file: expect.stringMatching(new RegExp(`/transactional/order-receipt--\\w+/${version}\\.lmx$`)),
      kind: 'transactional',
      errors: [],
      warnings: [expect.objectContaining({ rule: 'vague-link-text', line: 4, column: 33 })],
    });
    expect(found).toEqual([
      {
        file: expect.stringMatching(/\/campaigns\/spring-sale--\w+\/email\.lmx$/),
        kind: 'campaign',
        errors: [],
        warnings: [expect.objectContaining({ rule: 'no-subject', line: 1, column: 1 })],
      },
      receipt('draft'),
      receipt('published'),
      {
        file: expect.stringMatching(/\/transactional\/payment-failed--\w+\/draft\.lmx$/),
        kind: 'transactional',
        errors: [],
        warnings: [expect.objectContaining({ rule: 'button-href', line: 3 })],
      },
      {
        file: expect.stringMatching(/\/workflows\/win-back-draft--\w+\/workflow\.yaml$/),
        kind: null,
        errors: [],
        warnings: [
          expect.objectContaining({ rule: 'experiment-email', message: expect.stringContaining('the control path "control" holds no email of its own') }),
        ],
      },
    ]);
  });

  it('passes a clean pulled tree, offline: no key, no request', async () => {
    const root = cleanTree();
    const result = await run(['content', 'check', root], { env: { LOOPS_API_KEY: undefined } });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Checked 3 files: 0 errors, 0 warnings.');
  });

  it('prints file:line:column rule message, the line with a caret under the column, and the fix; exit 1 on errors', async () => {
    const root = cleanTree();
    writeFileSync(join(root, RESET, 'draft.lmx'), '<H1>Reset</H1>\n<Paragraph>Hi {contact.firstName}, <Bold>now</Bold></Paragraph>\n');
    const result = await run(['content', 'check', root]);
    expect(result.code).toBe(1);
    const file = join(root, RESET, 'draft.lmx');
    expect(result.stdout).toBe(
      [
        `${file}:2:15 variable-namespace {contact.firstName} in a transactional email, which takes {data.*} only`,
        '2 | <Paragraph>Hi {contact.firstName}, <Bold>now</Bold></Paragraph>',
        '  |               ^',
        '  = fix: write {data.firstName} and send firstName in the dataVariables of each send',
        `${file}:2:36 unknown-tag <Bold> is not an LMX tag`,
        '2 | <Paragraph>Hi {contact.firstName}, <Bold>now</Bold></Paragraph>',
        '  |                                    ^',
        '  = fix: write <Strong>',
        '',
      ].join('\n'),
    );
    expect(result.stderr).toContain('Checked 3 files: 2 errors, 0 warnings in 1 file.');
  });

  it('on a narrow terminal, puts the rule and message under the location, wrapped, and wraps the fix', async () => {
    const root = cleanTree();
    writeFileSync(join(root, RESET, 'draft.lmx'), '<H1>Reset</H1>\n<Paragraph>Hi {contact.firstName}</Paragraph>\n');
    const file = join(root, RESET, 'draft.lmx');
    const columns = Math.max(60, `${file}:2:15`.length);
    const result = await run(['content', 'check', root, '--no-color'], { tty: { columns } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('1 error');
    const lines = result.stdout.split('\n');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(columns);
    expect(lines[0]).toBe(`${file}:2:15`);
    expect(lines[1]).toMatch(/^ {2}variable-namespace \{contact\.firstName\} in a transactional email/);
    expect(result.stdout.replace(/\s+/g, ' ')).toContain('= fix: write {data.firstName} and send firstName in the dataVariables of each send');
  });

  it("takes each file's kind from the tree: the same variable is right in a campaign and wrong in a transactional email", async () => {
    const root = cleanTree();
    writeFileSync(join(root, WELCOME, 'email.lmx'), '<Paragraph>{data.code} {event.plan}</Paragraph>\n');
    const result = await run(['content', 'check', root, '--json']);
    expect(result.code).toBe(1);
    const records = result.json();
    expect(records.map((record: { file: string; kind: string }) => [record.file.slice(root.length + 1), record.kind])).toEqual([
      [`${WELCOME}/email.lmx`, 'campaign'],
      [`${FOOTER}/component.lmx`, 'component'],
      [`${RESET}/draft.lmx`, 'transactional'],
    ]);
    expect(records[0].errors).toEqual([
      {
        line: 1,
        column: 12,
        rule: 'variable-namespace',
        message: '{data.code} in a campaign, which takes {contact.*} only',
        fix: 'data variables exist only in transactional emails: use {contact.code}',
      },
      {
        line: 1,
        column: 24,
        rule: 'variable-namespace',
        message: '{event.plan} in a campaign, which takes {contact.*} only',
        fix: 'event properties exist only in workflow emails: use a contact property, {contact.plan}',
      },
    ]);
    expect(records[1]).toEqual({ file: join(root, FOOTER, 'component.lmx'), kind: 'component', errors: [], warnings: [] });
  });

  it("takes a named file's kind from its place: a workflow's email is a workflow email", async () => {
    const email = join(cleanTree(), 'workflows/welcome--wf1/emails/hello/email.lmx');
    mkdirSync(dirname(email), { recursive: true });
    writeFileSync(email, '<Paragraph>{event.plan} {data.code}</Paragraph>\n');
    const result = await run(['content', 'check', email, '--json']);
    expect(result.code).toBe(1);
    const [record] = result.json();
    expect(record).toMatchObject({ file: email, kind: 'workflow' });
    expect(record.errors).toMatchObject([
      { rule: 'variable-namespace', message: '{data.code} in a workflow email, which takes {contact.*} and {event.*} only' },
    ]);
  });

  it('a <Component> whose id the tree lacks is a warning: exit 0, or 1 with --strict', async () => {
    const root = cleanTree();
    writeFileSync(join(root, WELCOME, 'email.lmx'), '<Component componentId="cmp_gone" />\n');
    const lenient = await run(['content', 'check', root, '--json']);
    expect(lenient.code).toBe(0);
    expect(lenient.json()[0].warnings).toEqual([expect.objectContaining({ line: 1, column: 12, rule: 'unknown-component' })]);
    const strict = await run(['content', 'check', root, '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toBe('Checked 3 files: 0 errors, 1 warning in 1 file.\n');
    expect(strict.stdout).toContain(`${join(root, WELCOME, 'email.lmx')}:1:12 unknown-component cmp_gone is not among the account's components (warning)`);
  });

  it("a component whose variables the embedding email's kind does not take is an error at its <Component>", async () => {
    const root = cleanTree();
    writeFileSync(join(root, RESET, 'draft.lmx'), '<H1>Reset</H1>\n<Component componentId="cmp_footer" />\n');
    const result = await run(['content', 'check', root, '--json']);
    expect(result.code).toBe(1);
    const reset = result.json().find((record: { kind: string }) => record.kind === 'transactional');
    expect(reset.errors).toEqual([
      {
        line: 2,
        column: 12,
        rule: 'variable-namespace',
        message: `the component ${FOOTER} shows {contact.email}, which a transactional email does not take`,
        fix: 'take it out of the component, or embed a component without it',
      },
    ]);
  });

  it('checks loose files with --kind; without one, says that namespaces went unchecked', async () => {
    const root = tempDir();
    const file = join(root, 'welcome.lmx');
    writeFileSync(file, '<Paragraph>{event.plan}</Paragraph>');
    expect((await run(['content', 'check', file, '--kind', 'workflow'])).code).toBe(0);
    const campaign = await run(['content', 'check', file, '--kind', 'campaign']);
    expect(campaign.code).toBe(1);
    expect(campaign.stderr).toBe('Checked 1 file: 1 error, 0 warnings in 1 file.\n');
    expect(campaign.stdout).toContain(`${file}:1:12 variable-namespace`);
    const unkinded = await run(['content', 'check', root]);
    expect(unkinded.code).toBe(0);
    expect(unkinded.stderr).toContain("1 file outside a pulled tree: their variables' namespaces were not checked; say the kind of email with --kind.");
    const unknownKind = await run(['content', 'check', file, '--kind', 'newsletter']);
    expect(unknownKind.code).toBe(2);
    expect(unknownKind.stderr).toContain(
      "option '--kind <kind>' argument 'newsletter' is invalid. Allowed choices are transactional, campaign, workflow, component.",
    );
  });

  it('exit 2 when a path names nothing to check: missing, not .lmx, or a directory without .lmx files', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'notes.txt'), 'hello');
    const missing = await run(['content', 'check', join(root, 'nowhere')]);
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining('no such file or directory')]);
    const text = await run(['content', 'check', join(root, 'notes.txt')]);
    expect([text.code, text.stderr]).toEqual([2, expect.stringContaining('not an .lmx file')]);
    const empty = await run(['content', 'check', root]);
    expect([empty.code, empty.stderr]).toEqual([2, expect.stringContaining('no .lmx files in it')]);
    expect(empty.stdout).toBe('');
  });

  it('reports a file that is not UTF-8 at its first bad byte, and goes on with the others', async () => {
    const root = cleanTree();
    writeFileSync(join(root, FOOTER, 'component.lmx'), Buffer.concat([Buffer.from('<Paragraph>Caf'), Buffer.from([0xe9]), Buffer.from('</Paragraph>\n')]));
    const result = await run(['content', 'check', root, '--json']);
    expect(result.code).toBe(1);
    const [, footer, reset] = result.json();
    expect(footer.errors).toEqual([
      {
        line: 1,
        column: 15,
        rule: 'not-utf8',
        message: 'byte 15 (0xe9) is not UTF-8: the file is in another encoding',
        fix: expect.stringContaining('save the file as UTF-8'),
      },
    ]);
    expect(reset.errors).toEqual([]);
  });

  it("refuses a file over the API's 100 KB without parsing it, and survives 10,000 nested tags", async () => {
    const root = tempDir();
    writeFileSync(join(root, 'huge.lmx'), `<Paragraph>${'a'.repeat(10 * 1024 * 1024)}</Paragraph>`);
    writeFileSync(join(root, 'deep.lmx'), `<Paragraph>${'<Em>'.repeat(10_000)}x${'</Em>'.repeat(10_000)}</Paragraph>`);
    const result = await run(['content', 'check', root, '--json']);
    expect(result.code).toBe(1);
    const [deep, huge] = result.json();
    expect(huge.errors).toEqual([
      expect.objectContaining({
        line: 1,
        column: 1,
        rule: 'too-large',
        message: expect.stringContaining('10485783 bytes of LMX; the API takes at most 102400'),
      }),
    ]);
    expect(deep.errors.map((problem: { rule: string }) => problem.rule)).toEqual(['too-deep']);
  });

  it('shows control characters in a source line escaped, the caret still under the column', async () => {
    const root = tempDir();
    const file = join(root, 'escape.lmx');
    writeFileSync(file, '<Paragraph>\u001b[31mred\u001b[0m & more</Paragraph>');
    const result = await run(['content', 'check', file, '--kind', 'campaign']);
    expect(result.stdout).toContain(`1 | <Paragraph>\\x1b[31mred\\x1b[0m & more</Paragraph>\n  | ${' '.repeat(30)}^\n`);
  });
});
