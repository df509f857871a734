/**
 * `content convert` on emails nobody here wrote: the corpus test/support/convert-corpus.ts lays out
 * (an MJML component's README example, React Email's demo templates, Mailgun's, Lee Munroe's and
 * Foundation for Emails' HTML templates, from the packages that publish them, or committed beside
 * their licence under test/corpus/convert).
 * Each is converted, checked, rendered, and compared with the original's text: no
 * sentence is lost; what could not be carried is listed, and the list is asserted exactly.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseJs } from '@babel/parser';
import { type DefaultTreeAdapterMap, parse, parseFragment } from 'parse5';
import { describe, expect, it } from 'vitest';
import { corpusDirectory } from '../../../support/convert-corpus.js';
import { run, sandboxEnv, startTestSandbox, tempDir } from '../../../support/main.js';

const CORPUS = corpusDirectory();

type HtmlNode = DefaultTreeAdapterMap['node'];

/** The text a reader sees in HTML: no head, styles, scripts or hidden elements; blocks on lines of their own. */
function htmlText(node: HtmlNode, lines: string[] = []): string[] {
  if (node.nodeName === '#text') lines.push((node as DefaultTreeAdapterMap['textNode']).value);
  if (!('childNodes' in node)) return lines;
  const element = node as DefaultTreeAdapterMap['element'];
  if (['head', 'style', 'script', 'title'].includes(element.tagName)) return lines;
  if (/display:\s*none/i.test(element.attrs?.find((attribute) => attribute.name === 'style')?.value ?? '')) return lines;
  for (const child of element.childNodes) htmlText(child, lines);
  if (element.tagName !== undefined && !['a', 'span', 'strong', 'b', 'em', 'i', 'font', 'u'].includes(element.tagName)) lines.push('\n');
  return lines;
}

/** MJML's text: the HTML inside its ending tags. */
function mjmlText(source: string): string[] {
  const parts: string[] = [];
  for (const match of source.matchAll(/<(mj-text|mj-button|mj-table)[^>]*>([\s\S]*?)<\/\1>/g))
    parts.push(...htmlText(parseFragment(match[2]!) as unknown as HtmlNode), '\n');
  return parts;
}

/** React Email's text: the JSX text of the template (a prop shown in it by its name), but its <Preview>. */
function reactText(source: string): string[] {
  const parts: string[] = [];
  const walk = (node: any, inPreview: boolean): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((child) => walk(child, inPreview));
    if (node.type === 'JSXElement') {
      const name: string = node.openingElement.name.name ?? '';
      const preview = inPreview || name === 'Preview';
      if (/^(p|Text|Heading|Button|Link|h\d|li|Column)$/.test(name)) parts.push('\n');
      for (const child of node.children) {
        if (child.type === 'JSXText') parts.push(preview ? '' : child.value.replace(/\s*\n\s*/g, ' '));
        else if (child.type === 'JSXExpressionContainer' && child.expression.type === 'Identifier') parts.push(preview ? '' : child.expression.name);
        else walk(child, preview);
      }
      return;
    }
    for (const [key, value] of Object.entries(node)) if (key !== 'loc' && key !== 'extra') walk(value, inPreview);
  };
  walk(parseJs(source, { sourceType: 'module', plugins: ['jsx', 'typescript'] }).program, false);
  return parts;
}

/** The text of LMX, each tag a space (a <Br /> between two lines too), entities decoded. */
function lmxText(lmx: string): string {
  return lmx
    .replace(/\{(?:contact|event|data)\.([\w-]+)\}/g, '$1')
    .replace(/<[^>]*>/g, ' ')
    .replaceAll('&lt;', '<')
    .replaceAll('&quot;', '"')
    .replaceAll('&amp;', '&');
}

const words = (text: string) => (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(' ');

/** The sentences of a text: its lines, each cut at the end of a sentence. */
function sentences(parts: string[]): string[] {
  return parts
    .join('')
    .split(/\n|(?<=[.!?])\s+/)
    .map(words)
    .filter((sentence) => sentence !== '');
}

interface Record {
  source: string;
  kind: string;
  path: string;
  files: string[];
  variables: { source: string; lmx: string; reason: string }[];
  remediation: { file: string; line: number; column: number; construct: string; outcome: string; done: string; todo: string }[];
}

async function convert(source: string, ...options: string[]) {
  const out = join(tempDir('loopsctl-convert-'), 'loops');
  const result = await run(['content', 'convert', source, '--out', out, '--json', ...options]);
  return { out, result, records: result.code === 0 || result.code === 1 ? (JSON.parse(result.stdout).records as Record[]) : [] };
}

/** LMX's inline tags, left out of a structure made of blocks. */
const INLINE = new Set(['Strong', 'Em', 'Underline', 'Strike', 'Code', 'Text', 'Link', 'Br']);

const CASES = [
  { file: 'mjml/group-readme.mjml', text: (source: string) => mjmlText(source) },
  { file: 'react-email/notion-magic-link.tsx', text: reactText },
  { file: 'react-email/stripe-welcome.tsx', text: reactText },
  { file: 'react-email/vercel-invite-user.tsx', text: reactText },
  { file: 'react-email-1.2/vercel-invite-user.tsx', text: reactText },
  { file: 'html-mailgun/action.html', text: (source: string) => htmlText(parse(source) as unknown as HtmlNode) },
  { file: 'html-mailgun/alert.html', text: (source: string) => htmlText(parse(source) as unknown as HtmlNode) },
  { file: 'html-mailgun/billing.html', text: (source: string) => htmlText(parse(source) as unknown as HtmlNode) },
  { file: 'html-leemunroe/email.html', text: (source: string) => htmlText(parse(source) as unknown as HtmlNode) },
  { file: 'foundation-emails/sidebar-hero.html', text: (source: string) => htmlText(parse(source) as unknown as HtmlNode) },
  { file: 'foundation-emails/marketing.html', text: (source: string) => htmlText(parse(source) as unknown as HtmlNode) },
];

describe('content convert on the corpus', () => {
  for (const { file, text } of CASES) {
    it(`${file}: converts, passes content check, renders, keeps every sentence, and lists what it could not carry`, async () => {
      const source = join(CORPUS, file);
      const { out, result, records } = await convert(source);
      expect(result.code, result.stderr).toBe(0);
      expect(records).toHaveLength(1);
      const [record] = records;
      const lmxFile = join(out, record!.path, 'draft.lmx');
      expect(record!.files).toEqual(['transactional.json', 'draft.json', 'draft.lmx']);
      // The check passes, or each of its errors is on the list.
      const check = await run(['content', 'check', out, '--json']);
      const errors = (JSON.parse(check.stdout) as { errors: { line: number; column: number; rule: string }[] }[]).flatMap((checked) => checked.errors);
      expect(check.code).toBe(errors.length > 0 ? 1 : 0);
      for (const error of errors)
        expect(record!.remediation).toContainEqual(
          expect.objectContaining({ file: lmxFile, line: error.line, column: error.column, construct: `content check: ${error.rule}` }),
        );
      const render = await run(['content', 'render', lmxFile]);
      expect(render.code, render.stderr).toBe(0);
      expect(render.stdout).toContain('<html');
      const converted = words(lmxText(readFileSync(lmxFile, 'utf8')));
      const original = sentences(text(readFileSync(source, 'utf8')));
      expect(original.length).toBeGreaterThan(2);
      for (const sentence of original) expect(converted, sentence).toContain(sentence);
      // Structure: every image of the original is an image of the converted email, and the blocks are snapshotted.
      const lmxSource = readFileSync(lmxFile, 'utf8');
      expect(lmxSource.match(/<Image /g)?.length ?? 0).toBe(readFileSync(source, 'utf8').match(/<(img|mj-image|Img)[\s/>]/g)?.length ?? 0);
      const structure = lmxSource.match(/<[A-Z][A-Za-z0-9]*/g)!.filter((tag) => !INLINE.has(tag.slice(1)));
      const listed = record!.remediation.map(
        (item) => `${item.file.replace(out, '<out>').replace(CORPUS, '<corpus>')}:${item.line}:${item.column} ${item.construct} (${item.outcome})`,
      );
      expect({
        structure: structure.join(' '),
        listed,
        variables: record!.variables.map((variable) => `${variable.source} -> ${variable.lmx}`),
      }).toMatchSnapshot();
    });
  }
});

describe('a converted directory', () => {
  it('pulled first, then converted into, pushes to the sandbox as new drafts', async () => {
    const server = await startTestSandbox();
    try {
      const env = sandboxEnv(server);
      // Converted into a directory pulled from the account, as a push needs.
      const out = join(tempDir('loopsctl-convert-'), 'loops');
      const pull = await run(['content', 'pull', out, '--only', 'transactional'], { env });
      expect(pull.code, pull.stderr).toBe(0);
      const result = await run(['content', 'convert', join(CORPUS, 'html-mailgun'), '--out', out]);
      expect(result.code, result.stderr).toBe(0);
      const push = await run(['content', 'push', out, '--only', 'transactional', '--yes'], { env });
      expect(push.code, push.stderr).toBe(0);
      const listed = await run(['transactional', 'list', '--json'], { env });
      const names = (JSON.parse(listed.stdout) as { name: string }[]).map((email) => email.name);
      expect(names).toEqual(expect.arrayContaining(['Reset your password', 'You are approaching your limit', 'Paid']));
    } finally {
      await server.close();
    }
  });

  it('converted as workflow emails, gets a workflow file that checks and pushes as a new draft sending them', async () => {
    const server = await startTestSandbox();
    try {
      const env = sandboxEnv(server);
      const out = join(tempDir('loopsctl-convert-'), 'loops');
      const pull = await run(['content', 'pull', out, '--only', 'workflows'], { env });
      expect(pull.code, pull.stderr).toBe(0);
      const source = join(CORPUS, 'html-mailgun');
      const result = await run(['content', 'convert', source, '--out', out, '--kind', 'workflow', '--workflow', 'Mailgun onboarding', '--json']);
      expect(result.code, result.stderr).toBe(0);
      const made = (JSON.parse(result.stdout).records as { kind: string; path: string; files: string[] }[]).filter((record) => record.kind === 'workflow-file');
      expect(made).toEqual([expect.objectContaining({ path: 'workflows/mailgun-onboarding', files: ['workflow.yaml'] })]);
      const yaml = readFileSync(join(out, 'workflows/mailgun-onboarding/workflow.yaml'), 'utf8');
      // Each email converted is sent by a node of the draft.
      const emails = readdirSync(join(out, 'workflows/mailgun-onboarding/emails'));
      for (const email of emails) expect(yaml).toContain(`email: emails/${email}/email.json`);
      const check = await run(['content', 'check', out]);
      expect(check.stdout + check.stderr).not.toMatch(/workflow\.yaml:\d+:\d+ .*\(error\)/);
      const push = await run(['content', 'push', out, '--only', 'workflows', '--yes'], { env });
      expect(push.code, push.stderr).toBe(0);
      const listed = JSON.parse((await run(['workflow', 'list', '--json'], { env })).stdout) as { id: string; name: string }[];
      const workflow = listed.find((candidate) => candidate.name === 'Mailgun onboarding')!;
      expect(workflow).toBeDefined();
      const shown = JSON.parse((await run(['workflow', 'get', workflow.id, '--json'], { env })).stdout) as { nodes: { [key: string]: { typeName: string } } };
      const nodes = Object.values(shown.nodes) as { typeName: string }[];
      expect(nodes.filter((node) => node.typeName === 'SendEmailAction')).toHaveLength(emails.length);
      // A second conversion into the workflow, now in the account, adds no node: the file is left as the push wrote it.
      const pushed = readFileSync(join(out, 'workflows/mailgun-onboarding/workflow.yaml'), 'utf8');
      const again = await run([
        'content',
        'convert',
        join(source, 'action.html'),
        '--out',
        out,
        '--kind',
        'workflow',
        '--workflow',
        'mailgun-onboarding',
        '--force',
      ]);
      expect(again.code, again.stderr).toBe(0);
      expect(readFileSync(join(out, 'workflows/mailgun-onboarding/workflow.yaml'), 'utf8')).toBe(pushed);
    } finally {
      await server.close();
    }
  });
});
