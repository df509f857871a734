/**
 * The files of dist/vendor/: packages (and modules of the source) bundled on their own, loaded only
 * by the commands that need them, or shared by the CLI's bundles and loopsctl's libraries; and the
 * esbuild plugin that leaves them out of a bundle (src/build/build.mjs builds both).
 */
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const buildDir = fileURLToPath(new URL('.', import.meta.url));

/**
 * Packages bundled on their own, and what each bundle exports (`stdin`); or a module of the source
 * bundled on its own, with all it exports (`source`), which the bundles and loopsctl's libraries share.
 */
export const vendored = {
  // Colour, needed only for text on a terminal.
  chalk: { stdin: { contents: "export * from 'chalk';", resolveDir: buildDir } },
  // The JavaScript and TypeScript parser of `check --code`, loaded only when it scans an app's source.
  'babel-parser': { imports: /^@babel\/parser$/, stdin: { contents: "export { parse } from '@babel/parser';", resolveDir: buildDir } },
  // The HTML parser of `content convert`, loaded only when it reads an email.
  parse5: { stdin: { contents: "export { defaultTreeAdapter, parse, parseFragment } from 'parse5';", resolveDir: buildDir } },
  // The CSS parser and selector engine of `content convert`, which read and apply an HTML email's stylesheet, loaded with parse5.
  css: {
    imports: /^(postcss|css-select)$/,
    stdin: { contents: "export { parse } from 'postcss';\nexport { selectAll } from 'css-select';", resolveDir: buildDir },
  },
  // The selector parser css-select is built on, which convert reads selectors' specificity with (its `parse` is postcss's name too).
  'css-what': { stdin: { contents: "export { parse } from 'css-what';", resolveDir: buildDir } },
  // The Markdown parser of `content convert`, which reads a React Email <Markdown> as React Email renders it, loaded with it.
  marked: { stdin: { contents: "export { marked } from 'marked';", resolveDir: buildDir } },
  // The language detector of `content check`'s language rules, loaded only when an email's language is judged.
  tinyld: { imports: /^tinyld\/light$/, stdin: { contents: "export { detect, supportedLanguages, toISO2 } from 'tinyld/light';", resolveDir: buildDir } },
  // The MIME parser of `content check --html`, loaded only when it reads a saved .eml.
  'postal-mime': { stdin: { contents: "export { default } from 'postal-mime';", resolveDir: buildDir } },
  // MJML's own reader (htmlparser2, as mjml-parser-xml uses it), loaded only when convert reads MJML.
  htmlparser2: { stdin: { contents: "export { Parser } from 'htmlparser2';", resolveDir: buildDir } },
  // jq for --jq; it loads jq.wasm from its own directory, where copyJqWasm puts it.
  'jq-web': { stdin: { contents: "module.exports = require('jq-web');", resolveDir: buildDir } },
  // The YAML reader and writer of workflow files, and of the sandbox's fixture files: loopsctl/sandbox
  // requires this same file (buildSandboxApi), so the package holds one copy of yaml.
  yaml: {
    stdin: { contents: "export { Document, isMap, isPair, isScalar, LineCounter, parse, parseDocument, visit } from 'yaml';", resolveDir: buildDir },
  },
  // Font Awesome's glyphs of the icons LMX draws (src/lmx/icon-glyphs.ts, 63 KB of SVG paths):
  // loopsctl/sandbox requires this same file, so the package holds one copy.
  'icon-glyphs': { source: 'src/lmx/icon-glyphs.ts' },
  // zod's functional form as src/base/zod.ts sets it up: the CLI's schemas, loopsctl/sandbox's and
  // loopsctl/webhooks's require this same file, so the package holds one copy of zod/mini (the MCP
  // SDK's classic zod apart), with a configuration of its own (ownZodConfig).
  zod: { source: 'src/base/zod.ts', plugins: [ownZodConfig()] },
  // The PostgreSQL client, loaded only when a postgres:// delivery store opens; loopsctl/webhooks
  // requires this same file (src/build/webhooks-api.mjs), so the package holds one copy of pg.
  pg: { stdin: { contents: "module.exports = require('pg');", resolveDir: buildDir } },
  // The MCP SDK, for `loopsctl mcp` alone, from any of its modules that the source imports. It
  // brings a zod of its own: it uses the whole of zod, and sharing the one in client.cjs would put
  // all of zod there, where every command that checks an answer reads it (see src/base/zod.ts).
  'mcp-sdk': {
    imports: /^@modelcontextprotocol\/sdk\//,
    stdin: {
      contents: [
        "export { Server } from '@modelcontextprotocol/sdk/server/index.js';",
        "export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';",
        "export { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';",
        'export { CallToolRequestSchema, ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema,',
        "  ListToolsRequestSchema, ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';",
      ].join('\n'),
      resolveDir: buildDir,
    },
  },
};

/**
 * zod 4 keeps its configuration (the locale, `jitless`, the memoizer) on
 * globalThis.__zod_globalConfig, which every copy of zod 4 in a process reads and writes.
 * loopsctl/webhooks and loopsctl/sandbox run in an app's process: src/base/zod.ts's English would
 * become the app's zod/mini's messages, and the app's settings (its own messages, its memoizer)
 * would change loopsctl's parsing. The copy in dist/vendor/zod.cjs keeps its configuration in an
 * object of its own instead.
 */
function ownZodConfig() {
  return {
    name: 'own-zod-config',
    setup(pluginBuild) {
      pluginBuild.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]core[\\/]core\.c?js$/ }, async ({ path }) => {
        const source = await readFile(path, 'utf8');
        const globals = source.match(/\bglobalThis\b(\)?\.__zod_globalConfig\b)?/g) ?? [];
        if (globals.length === 0 || globals.some((use) => !use.endsWith('__zod_globalConfig')))
          throw new Error(`zod's core no longer keeps its configuration on globalThis.__zod_globalConfig alone: update ${import.meta.filename}`);
        return { contents: `const ownGlobals = {};\n${source.replaceAll('globalThis', 'ownGlobals')}`, loader: 'js' };
      });
    },
  };
}

/**
 * Leaves the vendored packages (those `names`) out of a bundle: each becomes a require() of its
 * file in `directory`; a vendored module of the source (`source`), any relative import of it. A
 * dynamic import() of one becomes that require() run on first use, as esbuild makes of a dynamic
 * import of a module it bundles: Node cannot import() where bin/loopsctl.js runs a bundle (see
 * refuseDynamicImport).
 */
export const VENDORED_LATER = 'vendored-later';
export function requireVendoredFrom(directory, names = Object.keys(vendored)) {
  return {
    name: 'require-vendored',
    setup(pluginBuild) {
      for (const name of names) {
        const { imports, source } = vendored[name];
        const path = `${directory}/${name}.cjs`;
        const required = ({ kind }) => (kind === 'dynamic-import' ? { path, namespace: VENDORED_LATER } : { path, external: true });
        if (source === undefined) pluginBuild.onResolve({ filter: imports ?? new RegExp(`^${name.replace(/[^\w]/g, '\\$&')}$`) }, required);
        else {
          const file = fileURLToPath(new URL(`../../${source}`, import.meta.url));
          const filter = new RegExp(`^\\.\\.?/(.*/)?${basename(source, '.ts')}\\.js$`);
          pluginBuild.onResolve({ filter }, (args) => (join(args.resolveDir, args.path.replace(/\.js$/, '.ts')) === file ? required(args) : undefined));
        }
      }
      pluginBuild.onLoad({ filter: /.*/, namespace: VENDORED_LATER }, ({ path }) => ({
        contents: `module.exports = require(${JSON.stringify(path)});`,
        loader: 'js',
      }));
      pluginBuild.onResolve({ filter: /.*/, namespace: VENDORED_LATER }, ({ path }) => ({ path, external: true }));
    },
  };
}
