/**
 * `content convert` and `migrate report` on hostile input: MJML includes that multiply, markup
 * nested thousands deep, a paragraph as long as a file convert reads, text hidden by CSS. Each is refused or listed with the file and the place
 * named, exit 2 at most, and nothing written that the run did not show.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { directoryOf } from '../../../support/content-tree.js';
import { run, tempDir } from '../../../support/main.js';

const sources = (files: Record<string, string>) => directoryOf(files, 'loopsctl-bounds-src-');

async function convert(source: string, ...options: string[]) {
  const out = join(tempDir('loopsctl-bounds-out-'), 'loops');
  return { out, result: await run(['content', 'convert', source, '--out', out, ...options]) };
}

describe('content convert: bounds', () => {
  it('refuses includes that multiply (each partial including the next twice, 14 deep), naming the include', async () => {
    const files: Record<string, string> = {
      'email.mjml': '<mjml><mj-body><mj-include path="parts/p0.mjml" /></mj-body></mjml>',
      'parts/p14.mjml': '<mj-section><mj-column><mj-text>Leaf</mj-text></mj-column></mj-section>',
    };
    for (let level = 0; level < 14; level += 1)
      files[`parts/p${level}.mjml`] = `<mj-include path="p${level + 1}.mjml" />\n<mj-include path="p${level + 1}.mjml" />`;
    const root = sources(files);
    const { out, result } = await convert(join(root, 'email.mjml'));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/parts\/p\d+\.mjml:\d+:1: <mj-include> brings in more than 500 partials for one email/);
    expect(existsSync(out)).toBe(false);
    const report = await run(['migrate', 'report', root, '--json']);
    expect(report.code, report.stderr).toBe(0);
    expect(JSON.parse(report.stdout).templates[0].refused).toContain('brings in more than 500 partials');
  });

  it('refuses HTML nested 2,000 deep and JSX nested 3,000 deep with the file named, never a crash; migrate report goes on', async () => {
    const root = sources({
      'emails/deep.html': `<html><body>${'<div>'.repeat(2000)}Hi${'</div>'.repeat(2000)}</body></html>`,
      'emails/deep.tsx': `import { Html } from '@react-email/components';\nexport default function Deep() {\n  return <Html>${'<div>'.repeat(3000)}Hi${'</div>'.repeat(3000)}</Html>;\n}\n`,
    });
    for (const name of ['deep.html', 'deep.tsx']) {
      const { out, result } = await convert(join(root, 'emails', name));
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(join(root, 'emails', name));
      expect(result.stderr).toContain('nested more than 256 deep');
      expect(existsSync(out)).toBe(false);
    }
    const report = await run(['migrate', 'report', root, '--json']);
    expect(report.code, report.stderr).toBe(0);
    const refused = JSON.parse(report.stdout).templates.map((template: { refused?: string }) => template.refused);
    expect(refused).toEqual([expect.stringContaining('nested more than 256 deep'), expect.stringContaining('nested more than 256 deep')]);
  });

  it('reads a paragraph of 200,000 words (a long one ended the stack: one argument a word), in HTML and in React Email’s <Markdown>, never a crash', async () => {
    const words = 'word '.repeat(200_000);
    const root = sources({
      'long.html': `<html><body><p>${words}</p></body></html>`,
      'long.tsx': `import { Html, Markdown } from '@react-email/components';\nexport default () => <Html><Markdown>{${JSON.stringify(words)}}</Markdown></Html>;\n`,
      // A quote in a quote, 50,000 deep: refused at the nesting's bound, as any markup nested so deep.
      'quotes.tsx': `import { Html, Markdown } from '@react-email/components';\nexport default () => <Html><Markdown>{${JSON.stringify(`${'>'.repeat(50_000)} deep`)}}</Markdown></Html>;\n`,
    });
    for (const name of ['long.html', 'long.tsx']) {
      const { result } = await convert(join(root, name), '--json');
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout).records[0].fidelity.words).toEqual({ source: 200_000, kept: 200_000 });
    }
    const { out, result } = await convert(join(root, 'quotes.tsx'));
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('nested more than 256 deep');
    expect(existsSync(out)).toBe(false);
  });

  it('refuses MJML layout nested 5,000 deep where MJML’s tags recurse, at the element past the bound; migrate report goes on', async () => {
    const root = sources({
      'wrappers.mjml': `<mjml><mj-body>${'<mj-wrapper>'.repeat(5000)}${'</mj-wrapper>'.repeat(5000)}</mj-body></mjml>`,
      'columns.mjml': `<mjml><mj-body>${'<mj-section><mj-column>'.repeat(2500)}<mj-text>x</mj-text>${'</mj-column></mj-section>'.repeat(2500)}</mj-body></mjml>`,
      'classes.mjml': `<mjml><mj-head><mj-attributes>${'<mj-class name="a">'.repeat(5000)}${'</mj-class>'.repeat(5000)}</mj-attributes></mj-head><mj-body></mj-body></mjml>`,
      'ok.mjml': '<mjml><mj-body><mj-section><mj-column><mj-text>Fine</mj-text></mj-column></mj-section></mj-body></mjml>',
    });
    for (const [name, column] of [
      ['wrappers.mjml', 16 + 12 * 254],
      ['columns.mjml', 16 + 23 * 127],
      ['classes.mjml', 31 + 19 * 253],
    ] as const) {
      const { out, result } = await convert(join(root, name));
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(`${join(root, name)}:1:${column}: elements nested more than 256 deep`);
      expect(existsSync(out)).toBe(false);
    }
    const report = await run(['migrate', 'report', root, '--json']);
    expect(report.code, report.stderr).toBe(0);
    const templates = JSON.parse(report.stdout).templates as { path: string; refused?: string }[];
    expect(templates.map((template) => `${template.path}: ${template.refused ?? 'converted'}`)).toEqual([
      `classes.mjml: ${join(root, 'classes.mjml')}:1:${31 + 19 * 253}: elements nested more than 256 deep`,
      `columns.mjml: ${join(root, 'columns.mjml')}:1:${16 + 23 * 127}: elements nested more than 256 deep`,
      'ok.mjml: converted',
      `wrappers.mjml: ${join(root, 'wrappers.mjml')}:1:${16 + 12 * 254}: elements nested more than 256 deep`,
    ]);
  });

  it('refuses templates nested 200,000 deep as they are read (HTML, HTML in <mj-text>, MJML, JSX), naming the place; exit 2', async () => {
    const root = sources({
      'deep.html': `<html><body>${'<div>'.repeat(200_000)}Hi</body></html>`,
      'text.mjml': `<mjml><mj-body><mj-section><mj-column><mj-text>${'<b>'.repeat(200_000)}Hi</mj-text></mj-column></mj-section></mj-body></mjml>`,
      'groups.mjml': `<mjml><mj-body>${'<mj-group>'.repeat(190_000)}</mj-body></mjml>`,
      'deep.tsx': `import { Html } from '@react-email/components';\nexport default function Deep() {\n  return <Html>${'<i>'.repeat(200_000)}</Html>;\n}\n`,
    });
    for (const name of ['deep.html', 'text.mjml', 'groups.mjml', 'deep.tsx']) {
      const { out, result } = await convert(join(root, name));
      expect(result.code, `${name}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`${join(root, name)}(:1:\\d+)?: elements nested more than 256 deep`));
      expect(existsSync(out)).toBe(false);
    }
  });

  it('never writes what content check refuses: a computed or dynamic image gets a placeholder, a button to a computed address becomes text', async () => {
    const root = sources({
      'welcome.tsx': [
        "import { Button, Html, Img, Text } from '@react-email/components';",
        'export default function Welcome({ avatar }: { avatar: string }) {',
        '  return (',
        '    <Html>',
        '      <Img src={avatar} alt="You" />',
        '      <Img src={cdn()} alt="Logo" />',
        '      <Button href={loginLink()}>Log in</Button>',
        '      <Text>Welcome aboard.</Text>',
        '    </Html>',
        '  );',
        '}',
      ].join('\n'),
    });
    const { out, result } = await convert(join(root, 'welcome.tsx'), '--json');
    expect(result.code, result.stderr).toBe(0);
    const lmx = readFileSync(join(out, 'transactional/welcome/draft.lmx'), 'utf8');
    expect(lmx).toContain('bodyXPadding="8"');
    expect(lmx).toContain('<Image src="https://placehold.co/600x300.png" dynamicSrc="{data.avatar}" alt="You" align="left" />');
    expect(lmx).toContain('<Image src="https://placehold.co/600x300.png" alt="Logo" align="left" />');
    expect(lmx).toContain('<Paragraph>Log in</Paragraph>');
    const listed = JSON.parse(result.stdout).records[0].remediation.map((item: { line: number; construct: string }) => `${item.line} ${item.construct}`);
    expect(listed).toEqual(
      expect.arrayContaining([
        '5 <img src="{{avatar}}">',
        '6 an image whose address is computed when the app runs',
        '7 a button whose address is computed when the app runs',
      ]),
    );
    const check = await run(['content', 'check', out, '--json']);
    expect((JSON.parse(check.stdout) as { errors: unknown[] }[]).flatMap((checked) => checked.errors)).toEqual([]);
  });

  it('lists text CSS hides (display:none, a zero font size), at its place', async () => {
    const root = sources({
      'hidden.html': [
        '<html><body>',
        '<p>Welcome aboard.</p>',
        '<p>Thanks, <span style="display:none">Internal note for the team</span> the Acme team.</p>',
        '<p style="font-size:0">Secret keywords here</p>',
        '</body></html>',
      ].join('\n'),
    });
    const { result } = await convert(join(root, 'hidden.html'), '--json');
    expect(result.code, result.stderr).toBe(0);
    const listed = JSON.parse(result.stdout).records[0].remediation.map((item: { line: number; construct: string }) => `${item.line} ${item.construct}`);
    expect(listed).toEqual(
      expect.arrayContaining(['3 text hidden by display:none: "Internal note for the team"', '4 text hidden by a zero font size: "Secret keywords here"']),
    );
  });
});
