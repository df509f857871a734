/**
 * The build's last step: V8's code cache, recorded from the staged build (src/build/build.mjs
 * makes it, src/build/staged-dir.mjs stages it) before it is renamed into place: the CLI's, by one
 * process running the commands of src/build/code-cache-runs.mjs with each Node that will run it
 * (bin/loopsctl.js, handed src/build/record-code-cache.cjs),
 * and loopsctl/sandbox's (src/build/record-sandbox-cache.cjs).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { codeCacheRuns } from './code-cache-runs.mjs';

const buildDir = fileURLToPath(new URL('.', import.meta.url));
/** What bin/loopsctl.js runs to record the caches: the build's, never shipped. */
const RECORDER = join(buildDir, 'record-code-cache.cjs');

/** Records every code cache of the build staged in `stage` (src/build/staged-dir.mjs). */
export function recordCodeCaches(stage) {
  for (const node of [process.execPath, ...(process.env.LOOPSCTL_CODE_CACHE_NODES ?? '').split(delimiter).filter(Boolean)]) recordCodeCache(node, stage);
  recordSandboxCodeCache(stage);
}

/** The code cache of loopsctl/sandbox's bundle (see src/build/sandbox-loader.cjs), recorded without flags, as it serves runs without them. */
function recordSandboxCodeCache(stage) {
  const recorded = spawnSync(process.execPath, [`${buildDir}record-sandbox-cache.cjs`, join(stage.dir, 'sandbox'), join(stage.target, 'sandbox')], {
    env: { ...process.env, NODE_OPTIONS: '' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (recorded.status !== 0) throw new Error(`recording the sandbox's code cache failed (exit ${recorded.status})`);
}

/**
 * With the Node at `node`: the build's own, and any that LOOPSCTL_CODE_CACHE_NODES lists (the one
 * the single executable embeds, npm run release), each cache named for its Node version.
 */
function recordCodeCache(node, stage) {
  // The sandbox's state lives in a config directory of the recording's own, made beforehand, as
  // a person's is after their first run: making it runs code that a run reading it never does.
  const configDir = mkdtempSync(join(tmpdir(), 'loopsctl-code-cache-'));
  const bin = join(stage.staged, 'bin', 'loopsctl.js');
  const seeded = spawnSync(node, [bin, 'sandbox', 'reset'], { env: { ...process.env, LOOPSCTL_CONFIG_DIR: configDir }, encoding: 'utf8' });
  if (seeded.status !== 0) throw new Error(`making the sandbox's state for the code cache with ${node} failed (exit ${seeded.status}): ${seeded.stderr}`);
  // A small email for `content check`.
  const email = join(configDir, 'email.lmx');
  writeFileSync(email, '<H1>Hello</H1>\n<Paragraph>Hi {contact.firstName}, welcome.</Paragraph>\n');
  // A delivery store for `deliveries find`, made beforehand as its tables are once a store has been written.
  const store = join(configDir, 'deliveries.db');
  const made = spawnSync(node, [bin, 'deliveries', 'find', '--store', store], { env: { ...process.env, LOOPSCTL_CONFIG_DIR: configDir }, encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`making a delivery store for the code cache with ${node} failed (exit ${made.status}): ${made.stderr}`);
  const recorded = spawnSync(node, [bin], {
    env: {
      ...process.env,
      // The shipped cache serves runs without flags: it is recorded without them.
      NODE_OPTIONS: '',
      // root: where the bundles will be, once renamed into place: the name their caches keep; recorder: what records them.
      LOOPSCTL_RECORD_CODE_CACHE: JSON.stringify({ root: dirname(stage.target), recorder: RECORDER, ...codeCacheRuns(email, store) }),
      LOOPSCTL_CONFIG_DIR: configDir,
      // For `webhooks sign` (base64 of "loopsctl-build-secret"); the body is the empty stdin.
      LOOPS_WEBHOOK_SECRET: 'whsec_bG9vcHNjdGwtYnVpbGQtc2VjcmV0',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  rmSync(configDir, { recursive: true, force: true });
  if (recorded.status !== 0) throw new Error(`recording the code cache with ${node} failed (exit ${recorded.status})`);
}
