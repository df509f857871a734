import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedId } from '../../../../src/emulator/module.js';
import { contentTree } from '../../../support/content-tree.js';
import { attribute, readHtml, textOf } from '../../../support/html.js';
import { run, tempDir } from '../../../support/main.js';

const WELCOME = 'transactional/welcome--cx1';
const FOOTER = 'components/footer--cmp_footer';
const OCEAN = 'themes/ocean--th_ocean';

const pulledTree = () =>
  contentTree({
    [`${WELCOME}/transactional.json`]: '{"name":"Welcome"}\n',
    [`${WELCOME}/draft.json`]: '{"subject":"Welcome, {data.firstName}","previewText":"Your account is ready"}\n',
    [`${WELCOME}/draft.lmx`]:
      '<Style themeId="th_ocean" />\n<H1>Welcome, {data.firstName}</H1>\n<Button href="{data.loginUrl}">Sign in</Button>\n<Component componentId="cmp_footer" />\n',
    [`${FOOTER}/component.json`]: '{"name":"Footer"}\n',
    [`${FOOTER}/component.lmx`]: '<Paragraph>Acme Inc, 1 Main Street</Paragraph>\n',
    [`${OCEAN}/theme.json`]: '{"name":"Ocean","styles":{"backgroundColor":"#e6f2f8","buttonBodyColor":"#0e7490"}}\n',
  });

/** A file in a directory of its own. */
function file(name: string, content: string | Buffer): string {
  const path = join(tempDir('loopsctl-render-'), name);
  writeFileSync(path, content);
  return path;
}

const offline = { LOOPS_API_KEY: undefined };

describe('content render', () => {
  it("prints the email of a pulled tree's file: its theme, its components, its subject, with the values given, offline", async () => {
    const root = pulledTree();
    const values = file('values.json', '{"data":{"firstName":"Ada","loginUrl":"https://app.example.com/login"}}');
    const result = await run(['content', 'render', join(root, WELCOME, 'draft.lmx'), '--data', values], { env: offline });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    const html = readHtml(result.stdout);
    expect(html.errors).toEqual([]);
    expect(html.all('title').map(textOf)).toEqual(['Welcome, Ada']);
    expect(html.all('h1').map(textOf)).toEqual(['Welcome, Ada']);
    expect(html.all('a').map((a) => [attribute(a, 'href'), textOf(a)])).toEqual([['https://app.example.com/login', 'Sign in']]);
    expect(html.all('p').map(textOf)).toEqual(['Acme Inc, 1 Main Street']);
    expect(attribute(html.all('body')[0]!, 'style')).toContain('background-color:#e6f2f8');
    expect(result.stdout).toContain('background-color:#0e7490');
    expect(html.comments().join('')).toContain('local preview');
  });

  it('takes the values as a send takes them (dataVariables) for a transactional email, and writes --out', async () => {
    const root = pulledTree();
    const values = file('values.json', '{"firstName":"Grace","loginUrl":"https://app.example.com/login"}');
    const out = join(tempDir(), 'welcome.html');
    const result = await run(['content', 'render', join(root, WELCOME, 'draft.lmx'), '--data', values, '--out', out], { env: offline });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`Wrote ${out}, a local preview of ${join(root, WELCOME, 'draft.lmx')}.\n`);
    expect(readHtml(readFileSync(out, 'utf8')).all('h1').map(textOf)).toEqual(['Welcome, Grace']);
  });

  it('names on stderr the variables it had no value for, the component and theme it could not find, and shows them', async () => {
    const lmx = file('email.lmx', '<Style themeId="th_gone" />\n<H1>Hi {data.firstName}</H1>\n<Component componentId="cmp_gone" />\n');
    const result = await run(['content', 'render', lmx, '--kind', 'transactional'], { env: offline });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe(
      [
        'No value for {data.firstName}: shown as written. Give values with --data <json file>.',
        'Component cmp_gone is not in the tree (nor the account): shown as a placeholder.',
        'Theme th_gone (its <Style themeId>) is not in the tree: drawn with the default theme. Name one with --theme.',
        '',
      ].join('\n'),
    );
    expect(readHtml(result.stdout).all('h1').map(textOf)).toEqual(['Hi {data.firstName}']);
  });

  it('draws a component that embeds itself once, with a placeholder where it nests, and says so and that the file has an error', async () => {
    const root = contentTree({
      [`${FOOTER}/component.json`]: '{"name":"Footer"}\n',
      [`${FOOTER}/component.lmx`]: '<Paragraph>self</Paragraph>\n<Component componentId="cmp_footer" />\n',
      [`${WELCOME}/transactional.json`]: '{"name":"Welcome"}\n',
      [`${WELCOME}/draft.lmx`]: '<Component componentId="cmp_footer" />\n',
    });
    const component = join(root, FOOTER, 'component.lmx');
    const result = await run(['content', 'render', component], { env: offline });
    expect(result.code, result.stderr).toBe(0);
    expect(readHtml(result.stdout).all('p').map(textOf)).toEqual(['self', 'Component cmp_footer: components do not nest, so not shown']);
    expect(result.stderr).toBe(
      [
        'Component cmp_footer stands in a component, and components do not nest: shown as a placeholder.',
        `${component} has 1 error (see \`loopsctl content check ${component}\`): the preview shows what could be read.`,
        '',
      ].join('\n'),
    );
    const email = await run(['content', 'render', join(root, WELCOME, 'draft.lmx'), '--json'], { env: offline });
    expect(email.code, email.stderr).toBe(0);
    expect(email.json()).toMatchObject({ nestedComponents: ['cmp_footer'], errors: [] });
    expect(readHtml(email.json().html).all('p').map(textOf)).toEqual(['self', 'Component cmp_footer: components do not nest, so not shown']);
  });

  it("says, on stderr and in --json, that a section's link was not written because the section holds links", async () => {
    const lmx = file(
      'email.lmx',
      '<Section href="https://acme.example/card"><Paragraph><Link href="https://acme.example/docs">Docs</Link></Paragraph></Section>\n',
    );
    const result = await run(['content', 'render', lmx, '--kind', 'campaign'], { env: offline });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe(
      '<Section> href "https://acme.example/card" is not written: the section holds links of its own, and a link cannot hold another; link the section or its content, not both.\n',
    );
    const json = await run(['content', 'render', lmx, '--kind', 'campaign', '--json'], { env: offline });
    expect(json.json().inert).toEqual([
      { tag: 'Section', attribute: 'href', value: 'https://acme.example/card', reason: expect.stringContaining('the section holds links of its own') },
    ]);
  });

  it("prints a workflow's email as a workflow email of its tree: its subject, the tree's components and theme", async () => {
    const root = pulledTree();
    const email = 'workflows/welcome-flow--wf1/emails/hello';
    mkdirSync(join(root, email), { recursive: true });
    writeFileSync(join(root, 'workflows/welcome-flow--wf1/workflow.yaml'), 'name: Welcome flow\n');
    writeFileSync(join(root, email, 'email.json'), '{"subject":"Hello, {contact.firstName}"}\n');
    writeFileSync(
      join(root, email, 'email.lmx'),
      '<Style themeId="th_ocean" />\n<H1>Hello, {contact.firstName}</H1>\n<Component componentId="cmp_footer" />\n',
    );
    const result = await run(['content', 'render', join(root, email, 'email.lmx'), '--json'], { env: offline });
    expect(result.code, result.stderr).toBe(0);
    const report = result.json();
    expect(report).toMatchObject({ kind: 'workflow', missingComponents: [], errors: [] });
    const html = readHtml(report.html);
    expect(html.all('title').map(textOf)).toEqual(['Hello, {contact.firstName}']);
    expect(html.all('p').map(textOf)).toEqual(['Acme Inc, 1 Main Street']);
    expect(attribute(html.all('body')[0]!, 'style')).toContain('background-color:#e6f2f8');
  });

  it('--json: the HTML and what it could not fill, as one record', async () => {
    const lmx = file('email.lmx', '<Paragraph>Hi {contact.firstName}</Paragraph>\n<Paragraph>{data.code}</Paragraph>\n');
    const result = await run(['content', 'render', lmx, '--kind', 'campaign', '--json'], { env: offline });
    expect(result.code).toBe(0);
    const report = result.json();
    expect(report).toMatchObject({
      file: lmx,
      kind: 'campaign',
      missingVariables: ['{contact.firstName}', '{data.code}'],
      missingComponents: [],
      nestedComponents: [],
      dropped: [],
      inert: [],
      warnings: [],
    });
    expect(report.errors.map((error: { rule: string; line: number }) => [error.rule, error.line])).toEqual([['variable-namespace', 2]]);
    expect(readHtml(report.html).all('p')).toHaveLength(2);
  });

  it('--theme: a theme.json, its directory, or the id of a theme in the tree', async () => {
    const root = pulledTree();
    const lmx = join(root, WELCOME, 'draft.lmx');
    const themeFile = file('theme.json', '{"id":"th_x","name":"Rose","styles":{"backgroundColor":"#fff1f2"},"isDefault":false}');
    for (const [theme, colour] of [
      [themeFile, '#fff1f2'],
      [join(root, OCEAN), '#e6f2f8'],
      ['th_ocean', '#e6f2f8'],
    ] as const) {
      const result = await run(['content', 'render', lmx, '--theme', theme], { env: offline });
      expect(result.code, result.stderr).toBe(0);
      expect(attribute(readHtml(result.stdout).all('body')[0]!, 'style')).toContain(`background-color:${colour}`);
    }
    const unknown = await run(['content', 'render', lmx, '--theme', 'th_nowhere'], { env: offline });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^Error: --theme th_nowhere: no such file, and no theme with this id in the pulled tree\n/);
  });

  it('reads a component and theme the tree lacks from the account when a key is at hand (--sandbox)', async () => {
    const footer = seedId('component/Footer');
    const lmx = file('email.lmx', `<Paragraph>Hi</Paragraph>\n<Component componentId="${footer}" />\n`);
    const result = await run(['content', 'render', lmx, '--sandbox'], { env: offline });
    expect(result.code, result.stderr).toBe(0);
    expect(readHtml(result.stdout).all('a').map(textOf)).toEqual(['Email preferences']);
  });
});

describe('content render with bad input', () => {
  it('refuses a file that is not UTF-8, naming where', async () => {
    const lmx = file('latin1.lmx', Buffer.concat([Buffer.from('<Paragraph>caf'), Buffer.from([0xe9]), Buffer.from('</Paragraph>')]));
    const result = await run(['content', 'render', lmx, '--kind', 'campaign'], { env: offline });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`Error: ${lmx}:1:15: byte 15 (0xe9) is not UTF-8`);
  });

  it('refuses a 10 MB file without reading it all', async () => {
    const lmx = file('huge.lmx', Buffer.alloc(10 * 1024 * 1024, '<Paragraph>x</Paragraph>\n'));
    const result = await run(['content', 'render', lmx, '--kind', 'campaign'], { env: offline });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^Error: .*huge\.lmx is larger than 102400 bytes \(100 KB\), more LMX than the API takes\n/);
  });

  it('renders what it can of 10,000 nested tags, and says the file has errors', async () => {
    const lmx = file('deep.lmx', `<Paragraph>${'<Em>'.repeat(10_000)}deep${'</Em>'.repeat(10_000)}</Paragraph>`);
    const result = await run(['content', 'render', lmx, '--kind', 'campaign'], { env: offline });
    expect(result.code, result.stderr).toBe(0);
    expect(readHtml(result.stdout).all('p')).toHaveLength(1);
    expect(result.stderr).toContain(`${lmx} has 1 error (see \`loopsctl content check ${lmx}\`): the preview shows what could be read.`);
  });

  it('refuses values that are not an object of values', async () => {
    const lmx = file('email.lmx', '<Paragraph>{contact.firstName}</Paragraph>');
    const values = file('values.json', '["Ada"]');
    const result = await run(['content', 'render', lmx, '--kind', 'workflow', '--data', values], { env: offline });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('the values must be a JSON object');
  });
});
