/**
 * `npm run docs`: writes the command reference made from the declarations (src/build/reference.ts):
 * docs/commands/*.md, keeping their hand-written parts, and man/*.1, listed in package.json's
 * "man" so that an install puts them where `man` finds them, and the tables made from the
 * declarations in docs/agents.md and docs/development.md. Generated files no command makes any
 * more are removed.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../../', import.meta.url));
const packageJson = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));

const { outputFiles } = await build({
  stdin: {
    contents: `import { writtenReference } from './src/build/reference.ts';\nwrittenReference(${JSON.stringify(root)}).then((reference) => process.stdout.write(JSON.stringify(reference)));`,
    resolveDir: root,
    loader: 'ts',
  },
  bundle: true,
  // Packages are required from node_modules as they are: only the declarations' own code is bundled.
  packages: 'external',
  // An ES module, as the sources are: a package's default export (zod's locale) is what they import.
  format: 'esm',
  platform: 'node',
  target: 'node20',
  define: { LOOPSCTL_VERSION: JSON.stringify(packageJson.version) },
  logLevel: 'warning',
  write: false,
});
const made = spawnSync(process.execPath, ['--input-type=module', '-'], {
  cwd: root,
  input: outputFiles[0].text,
  encoding: 'utf8',
  stdio: ['pipe', 'pipe', 'inherit'],
  maxBuffer: 64 * 1024 * 1024,
});
if (made.status !== 0) throw new Error(`making the reference failed (exit ${made.status})`);
const { files, stale, packageJson: updatedPackageJson } = JSON.parse(made.stdout);

for (const [path, text] of Object.entries(files)) {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), text);
}
for (const path of stale) await rm(join(root, path));
await writeFile(join(root, 'package.json'), updatedPackageJson);
console.log(`wrote ${Object.keys(files).length} files${stale.length > 0 ? `, removed ${stale.join(', ')}` : ''}`);
