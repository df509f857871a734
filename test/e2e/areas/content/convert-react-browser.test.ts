/**
 * The layout model held to React Email's own rendering: each React Email template of the corpus
 * (react-email/, react-email-1.2/ and react-email-proofkit/, as test/support/convert-corpus.ts lays
 * them out from their packages) is rendered by `@react-email/components`' renderer, here in the test, where
 * running the template is the point (convert itself never runs one), and drawn in Chromium at 600
 * and 375 px. Each JSX element is marked with its place in the source before it is
 * rendered (`data-lc`, which React Email's components pass on to the element they draw), and the
 * content box of every element a converted block stands in is compared with the box convert's
 * model of the source (src/convert/layout/layout.ts) computes for it.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from '@babel/parser';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { convertDocument } from '../../../../src/convert/document.js';
import { LAYOUT_TOLERANCE, VIEWPORTS } from '../../../../src/convert/layout/layout-carry.js';
import { Findings } from '../../../../src/convert/model.js';
import { readReact } from '../../../../src/convert/sources/react-source.js';
import { LineIndex } from '../../../../src/lmx/index.js';
import { describeBrowser } from '../../../support/browser.js';
import { corpusDirectory } from '../../../support/convert-corpus.js';
import { measureBoxes, pairs } from '../../../support/convert-layout.js';
import { tempDir } from '../../../support/main.js';

const ROOT = resolve(import.meta.dirname, '../../../..');
const CORPUS = corpusDirectory();

/** The source with `data-lc="lc-L-C"` on every JSX element, found by Babel, not by a pattern (TypeScript's `<T>` is no element). */
function marked(source: string): string {
  const lines = new LineIndex(source);
  const inserts: number[] = [];
  const walk = (node: any): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(walk);
    if (node.type === 'JSXOpeningElement') inserts.push(node.name.end);
    for (const [key, value] of Object.entries(node)) if (key !== 'loc' && key !== 'extra') walk(value);
  };
  walk(parse(source, { sourceType: 'module', plugins: ['jsx', 'typescript'] }).program);
  let out = source;
  for (const at of inserts.sort((a, b) => b - a)) {
    // The element's place is its `<`, one before its name.
    let start = at;
    while (start > 0 && source[start] !== '<') start -= 1;
    const { line, column } = lines.at(start);
    out = `${out.slice(0, at)} data-lc="lc-${line}-${column}"${out.slice(at)}`;
  }
  return out;
}

/**
 * Every template rendered to HTML by React Email's renderer, its default export given no props:
 * bundled by esbuild in one build (React and the components shared, not bundled again for each),
 * each template importing `@react-email/components` as published. The `react-email` package, which
 * later starters import every component from (`Tailwind` too), re-exports the same components; it is
 * not installed, and its imports are given `@react-email/components`, which exports each of them.
 */
async function renderAll(templates: readonly string[], directory: string): Promise<(string | Error)[]> {
  const entryPoints: Record<string, string> = {};
  templates.forEach((file, index) => {
    writeFileSync(join(directory, `template-${index}.tsx`), marked(readFileSync(join(CORPUS, file), 'utf8')));
    const entry = `import * as Email from './template-${index}.tsx';\nimport { render } from '@react-email/components';\nimport * as React from 'react';\nexport default () => render(React.createElement(Email.default));\n`;
    writeFileSync(join(directory, `entry-${index}.tsx`), entry);
    entryPoints[`rendered-${index}`] = join(directory, `entry-${index}.tsx`);
  });
  const out = join(directory, 'out');
  await build({
    entryPoints,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    outdir: out,
    outExtension: { '.js': '.mjs' },
    nodePaths: [join(ROOT, 'node_modules')],
    alias: { 'react-email': '@react-email/components' },
    jsx: 'automatic',
    logLevel: 'silent',
    define: { 'process.env.VERCEL_URL': '""', 'process.env.NODE_ENV': '"production"' },
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
  return Promise.all(
    templates.map(async (_file, index) => {
      try {
        return (await (await import(pathToFileURL(join(out, `rendered-${index}.mjs`)).href)).default()) as string;
      } catch (error) {
        return error as Error;
      }
    }),
  );
}

const files = ['react-email', 'react-email-1.2', 'react-email-proofkit']
  .flatMap((folder) =>
    readdirSync(join(CORPUS, folder))
      .filter((file) => file.endsWith('.tsx'))
      .map((file) => `${folder}/${file}`),
  )
  .sort();

describe('the layout model against React Email’s renderer and Chromium, on the corpus', () => {
  const chromium = describeBrowser();

  it('places every block’s box where the browser draws React Email’s rendering, within a few pixels, at 600 and 375 px', async (context) => {
    const browser = chromium(context, 'the layout model against React Email’s renderer');
    const directory = tempDir('loopsctl-react-render-');
    const page = await browser.page(VIEWPORTS[0], 800);
    const renderings = await renderAll(files, directory);
    let measured = 0;
    const off: string[] = [];
    const unrendered: string[] = [];
    for (const [at, file] of files.entries()) {
      const findings = new Findings();
      const document = readReact(readFileSync(join(CORPUS, file), 'utf8'), file, findings);
      const { blocks } = convertDocument(document, 'transactional', findings);
      const paired = pairs(blocks);
      const html = renderings[at]!;
      if (html instanceof Error) {
        unrendered.push(`${file}: ${html.message.split('\n')[0]}`);
        continue;
      }
      for (const { width, place, model, browser: drawn } of await measureBoxes(page, html, document.body, paired, VIEWPORTS)) {
        if (drawn === undefined) continue;
        measured += 1;
        if (Math.abs(model.left - drawn.left) > LAYOUT_TOLERANCE || Math.abs(model.right - drawn.right) > LAYOUT_TOLERANCE)
          off.push(
            `${file} ${place} at ${width}: model ${Math.round(model.left)}–${Math.round(model.right)}, Chromium ${Math.round(drawn.left)}–${Math.round(drawn.right)}`,
          );
      }
    }
    console.log(`${measured} boxes measured, ${off.length} apart; not rendered: ${unrendered.join('; ') || 'none'}\n${off.join('\n')}`);
    expect(unrendered).toEqual([]);
    // Measured: 180 boxes in the 10 templates (React Email's four starters as create-email 0.0.24 and 1.2.5 ship them,
    // ProofKit's two), none apart.
    expect(measured).toBeGreaterThan(170);
    expect(off).toEqual([]);
  }, 180_000);
});
