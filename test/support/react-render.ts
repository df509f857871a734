/**
 * React Email's own rendering of the corpus's templates, for the tests that draw it in Chromium
 * (convert-react-browser.test.ts, the layout model; convert-look-browser-react.test.ts, colours and
 * positions): here in the tests, where running a template is the point (convert itself never runs
 * one), each JSX element marked with its place in the source (`data-lc`, which React Email's
 * components pass on to the element they draw).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from '@babel/parser';
import { build } from 'esbuild';
import { LineIndex } from '../../src/lmx/index.js';

const ROOT = resolve(import.meta.dirname, '../..');

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
export async function renderAll(corpus: string, templates: readonly string[], directory: string): Promise<(string | Error)[]> {
  const entryPoints: Record<string, string> = {};
  templates.forEach((file, index) => {
    writeFileSync(join(directory, `template-${index}.tsx`), marked(readFileSync(join(corpus, file), 'utf8')));
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
