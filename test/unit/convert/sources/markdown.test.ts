/**
 * React Email's `<Markdown>` read as React Email renders it: the blocks convert makes of a
 * template's Markdown, read without running it, are those it makes of the HTML React Email's own
 * component renders from the same Markdown (rendered here, in the test, where running it is the
 * point), each prop given its name in braces so that it stays a variable in both.
 */
import { Markdown } from '@react-email/markdown';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkSource } from '../../../../src/areas/content/shared/check.js';
import { convertDocument } from '../../../../src/convert/document.js';
import { Findings } from '../../../../src/convert/model.js';
import { readHtml } from '../../../../src/convert/sources/html-source.js';
import { readReact } from '../../../../src/convert/sources/react-source.js';

/** A release note in Markdown, with a prop in its text and in an address, as a template writes it. */
const MARKDOWN = [
  '# Release ${version}',
  '',
  'Hi ${name}, **builds** are *faster*, ~~slower~~ no more; see [the notes](https://acme.example/notes/${version}) or `npm i acme`.',
  '',
  '## What changed',
  '',
  '1. Caching',
  '2. Parallel steps',
  '',
  '- one',
  '- two',
  '',
  '> Thanks to everyone who tested it.',
  '',
  '```js',
  'const fast = 1 < 2;',
  '```',
  '',
  '---',
  '',
  '![The new dashboard](https://acme.example/dashboard.png)',
].join('\n');

const template = (attributes: string) => `import { Body, Html, Markdown } from '@react-email/components';
export default function Release({ version, name }) {
  return (<Html><Body><Markdown${attributes}>{\`${MARKDOWN.replaceAll('`', '\\`')}\`}</Markdown></Body></Html>);
}
`;

/** The LMX of a source, as `content convert` makes it. */
function lmxOf(read: (findings: Findings) => ReturnType<typeof readHtml>): { lmx: string; findings: Findings } {
  const findings = new Findings();
  return { lmx: convertDocument(read(findings), 'transactional', findings).lmx, findings };
}

/** React and its server renderer, which React Email's components need and the project has no types of. */
let react: { createElement(type: unknown, props: unknown, ...children: unknown[]): unknown; renderToStaticMarkup(element: unknown): string };
beforeAll(async () => {
  const [{ createElement }, { renderToStaticMarkup }] = await Promise.all(['react', 'react-dom/server'].map((name) => import(name)));
  react = { createElement, renderToStaticMarkup };
});

/** React Email's rendering of the same Markdown, the props given as their names in braces. */
function rendered(props: Record<string, unknown> = {}): string {
  const markdown = MARKDOWN.replaceAll('${version}', '{{version}}').replaceAll('${name}', '{{name}}');
  return `<!doctype html><html><body>${react.renderToStaticMarkup(react.createElement(Markdown, props, markdown))}</body></html>`;
}

describe('a React Email <Markdown>', () => {
  it('makes the blocks React Email’s own rendering of it makes: headings, lists, quote, code, rule and image, with its variables', () => {
    const read = lmxOf((findings) => readReact(template(''), 'release.tsx', findings));
    const drawn = lmxOf((findings) => readHtml(rendered(), 'release.html', findings));
    expect(read.lmx).toBe(drawn.lmx);
    for (const tag of [
      '<H1',
      '<H2',
      '<OrderedList>',
      '<UnorderedList>',
      '<Quote',
      '<CodeBlock',
      '<Divider',
      '<Image',
      '<Strong>',
      '<Em>',
      '<Strike>',
      '<Code>',
    ])
      expect(read.lmx).toContain(tag);
    expect(read.lmx).toContain('<Link href="https://acme.example/notes/{data.version}">the notes</Link>');
    // The code's monospace font is the code's, which LMX draws in its own: not the body's.
    expect(read.lmx).not.toContain('bodyFontFamily');
    expect([...read.findings.variables.values()].map((variable) => `${variable.source} ${variable.lmx}`)).toEqual([
      '{version} {data.version}',
      '{name} {data.name}',
    ]);
    expect(read.findings.remediation.filter((item) => item.outcome === 'kept as text')).toEqual([]);
    expect(checkSource('draft.lmx', read.lmx, 'transactional', new Map()).errors).toEqual([]);
  });

  it('takes its custom styles in place of the component’s own, and its container styles, as React Email does', () => {
    const attributes = " markdownCustomStyles={{ h1: { color: '#b91c1c' }, link: { color: '#0a66c2' } }} markdownContainerStyles={{ padding: '24px' }}";
    const read = lmxOf((findings) => readReact(template(attributes), 'release.tsx', findings));
    const drawn = lmxOf((findings) =>
      readHtml(
        rendered({ markdownCustomStyles: { h1: { color: '#b91c1c' }, link: { color: '#0a66c2' } }, markdownContainerStyles: { padding: '24px' } }),
        'release.html',
        findings,
      ),
    );
    expect(read.lmx).toBe(drawn.lmx);
    expect(read.lmx).toContain('textColor="#b91c1c"');
    expect(read.lmx).toContain('textLinkColor="#0a66c2"');
  });

  it('keeps its text as written where it holds the word a variable stands in as while marked reads it', () => {
    const source = `import { Html, Markdown } from '@react-email/components';
export default ({ code }) => <Html><Markdown>{\`Code lcvar0q and lcvarx0q: **\${code}**\`}</Markdown></Html>;
`;
    const { lmx } = lmxOf((found) => readReact(source, 'code.tsx', found));
    expect(lmx).toContain('Code lcvar0q and lcvarx0q: <Strong>{data.code}</Strong>');
  });

  it('is kept as one paragraph, listed, where it holds JSX, and its styles listed where they are not written out', () => {
    const source = `import { Html, Markdown } from '@react-email/components';
import { styles } from '../../areas/content/convert/styles';
export default () => <Html><Markdown markdownCustomStyles={styles}>**Hi** <b>there</b></Markdown></Html>;
`;
    const { lmx, findings } = lmxOf((found) => readReact(source, 'note.tsx', found));
    expect(lmx).toContain('<Paragraph>**Hi** <Strong>there</Strong></Paragraph>');
    expect(findings.remediation.map((item) => `${item.construct}: ${item.done}`)).toEqual(
      expect.arrayContaining(['markdownCustomStyles: not read: the styles are not written out in the file', '<Markdown>: the Markdown kept as one paragraph']),
    );
  });
});
