/**
 * Bundles the CLI into dist/: a small entry (dist/cli.js) and lazily loaded chunks per command
 * group, with every dependency inlined so that start-up reads a few files instead of resolving
 * hundreds in node_modules. Type checking is `tsc --noEmit`, run before this by `npm run build`.
 */
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const outdir = fileURLToPath(new URL('../dist/', import.meta.url));
const undiciSlim = fileURLToPath(new URL('./undici-slim.js', import.meta.url));

/** Resolves `undici` to the slim entry that loads only what loopsctl uses. */
const slimUndici = {
  name: 'slim-undici',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^undici$/ }, () => ({ path: undiciSlim }));
  },
};

await rm(outdir, { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli.ts' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Flat, so that src/version.ts finds ../package.json from whichever file it lands in.
  chunkNames: '[name]-[hash]',
  // CommonJS dependencies (commander, undici, cli-table3) call require() for Node's own modules.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  plugins: [slimUndici],
  // Less to parse at start-up; names are kept so that --debug stack traces stay readable.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  logLevel: 'warning',
});
