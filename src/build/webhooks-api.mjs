/**
 * `loopsctl/webhooks` (package.json's exports), the library an app verifies, parses and journals
 * the platform's webhooks with: one CommonJS bundle of src/webhooks/index.ts with all it uses but
 * zod and pg, which it requires from the CLI's own copies (dist/vendor/zod.cjs; dist/vendor/pg.cjs
 * only when a postgres:// store opens; `requireVendored` makes those requires), an ES module that re-exports it by name, and their types in one declaration file, made
 * from the library's own declarations (src/webhooks/), which name nothing outside it (no zod: the
 * event types are written out in src/webhooks/event-types.ts).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { build } from 'esbuild';

const SOURCE = 'src/webhooks/index.ts';

/**
 * Builds dist/webhooks/ with esbuild options `common` (the CLI's), but not minified: Node prints an
 * app's uncaught error after the line it was thrown from (minified, one line of 126,000
 * characters), and a source map would serve only a Node run with --enable-source-maps.
 */
export async function buildWebhooksApi(root, dist, common, requireVendored) {
  const out = join(dist, 'webhooks');
  await mkdir(out, { recursive: true });
  await build({
    ...common,
    minifyWhitespace: false,
    minifySyntax: false,
    entryPoints: [SOURCE],
    absWorkingDir: root,
    outfile: join(out, 'index.cjs'),
    plugins: [requireVendored],
  });
  const require = createRequire(import.meta.url);
  const names = Object.keys(require(join(out, 'index.cjs'))).sort();
  await writeFile(join(out, 'index.mjs'), `import webhooks from './index.cjs';\n\nexport const { ${names.join(', ')} } = webhooks;\n`);
  const declared = declarations(root, require('typescript'));
  await writeFile(join(out, 'index.d.cts'), declared);
  // The ES module's types are the CommonJS module's, as index.mjs re-exports its values.
  await writeFile(join(out, 'index.d.mts'), "export * from './index.cjs';\n");
}

/**
 * The library's declarations as one module: each file's, from the entry through its relative
 * imports, with their own imports and exports taken off, then the entry's exports listed once.
 */
function declarations(root, ts) {
  const entry = join(root, SOURCE);
  const program = ts.createProgram([entry], {
    declaration: true,
    emitDeclarationOnly: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    types: ['node'],
    rootDir: join(root, 'src'),
    outDir: '/declarations',
  });
  const emitted = new Map();
  const result = program.emit(undefined, (file, text) => emitted.set(file, text), undefined, true);
  if (result.diagnostics.length > 0) throw new Error(`${SOURCE}'s declarations: ${ts.flattenDiagnosticMessageText(result.diagnostics[0].messageText, '\n')}`);
  const start = '/declarations/webhooks/index.d.ts';
  const seen = new Set();
  /** Types from other packages (node:http's), by module. */
  const external = new Map();
  const parts = [];
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = emitted.get(file);
    if (text === undefined) throw new Error(`no declarations were made for ${file}`);
    for (const match of text.matchAll(/^(?:import|export)[^;]*? from '(\.[^']+)';$/gms)) visit(join(dirname(file), match[1].replace(/\.js$/, '.d.ts')));
    for (const match of text.matchAll(/^import type \{([^}]*)\} from '([^.][^']*)';$/gm)) {
      const names = external.get(match[2]) ?? new Set();
      for (const name of match[1].split(',')) names.add(name.trim());
      external.set(match[2], names);
    }
    if (file === start) return;
    const where = relative('/declarations', file);
    if (!where.startsWith('webhooks/')) throw new Error(`loopsctl/webhooks's public types reach ${where}, outside src/webhooks/: declare them there`);
    const body = text
      .replace(/^(?:import|export)[^;]*? from '[^']+';\n/gms, '')
      .replace(/^export \{\};\n/gm, '')
      .replace(/^export (declare |default )?/gm, (_, kind) => (kind === 'declare ' ? 'declare ' : 'declare '))
      .replace(/^declare (interface|type) /gm, '$1 ');
    parts.push(`// ${where}\n${body.trim()}\n`);
  };
  visit(start);
  const exported = [...emitted.get(start).matchAll(/^export (type )?(?:\* from|\{([^}]*)\} from) '([^']+)';$/gms)].flatMap((match) => {
    if (match[2] === undefined)
      return namesDeclaredIn(emitted.get(join('/declarations/webhooks', match[3].replace(/\.js$/, '.d.ts')))).map((name) => `type ${name}`);
    return match[2]
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '')
      .map((name) => (match[1] === undefined ? name : name.startsWith('type ') ? name : `type ${name}`));
  });
  const imports = [...external].map(([module, names]) => `import type { ${[...names].sort().join(', ')} } from '${module}';`);
  return `${imports.join('\n')}\n\n${parts.join('\n')}\nexport { ${exported.join(', ')} };\n`;
}

/** The names a declaration file exports itself. */
function namesDeclaredIn(text) {
  return [...text.matchAll(/^export (?:declare )?(?:interface|type|class|function|const) ([A-Za-z_$][\w$]*)/gm)].map((match) => match[1]);
}
