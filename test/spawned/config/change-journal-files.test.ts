/**
 * The journal of changes kept by processes running at the same time: each appends its lines
 * whole, and a rotation in one never loses or cuts another's line.
 */
import { chmodSync, chownSync, copyFileSync, cpSync, linkSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type JournalEntry, journalFiles, ROTATE_BYTES } from '../../../src/config/change-journal-files.js';
import type { SandboxServer } from '../../../src/emulator/server.js';
import { sandboxEnv, startTestSandbox } from '../../support/main.js';
import { spawnCli, tempConfigDir } from '../../support/run-cli.js';
import { tempDir } from '../../support/temp.js';

let sandbox: SandboxServer;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

const entries = (config: string): JournalEntry[] =>
  journalFiles(config).flatMap((file) => {
    try {
      return readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as JournalEntry);
    } catch {
      return [];
    }
  });

describe('the journal of changes, written by processes at once', () => {
  it('keeps every line of every process whole, across a rotation', async () => {
    const config = tempConfigDir();
    mkdirSync(join(config, 'journal'), { mode: 0o700 });
    // Just under the size at which the next line rotates the file.
    const filler = `${JSON.stringify({ at: '2026-01-01T00:00:00.000Z', path: '/v1/themes/old', ids: {}, revisions: {} })}\n`;
    writeFileSync(journalFiles(config)[0]!, filler.repeat(Math.floor(ROTATE_BYTES / filler.length)), { mode: 0o600 });
    const names = Array.from({ length: 4 }, (_unused, index) => `Concurrent ${index}`);
    const env = { ...sandboxEnv(sandbox), LOOPSCTL_CONFIG_DIR: config };
    const results = await Promise.all(names.map((name) => spawnCli(['themes', 'create', '--name', name], { env })));
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    const kept = entries(config).filter(({ operation }) => operation === 'createTheme');
    expect(kept.map(({ name }) => name).sort()).toEqual(names);
    // Every line of every file parsed: none was cut or interleaved, the filler included.
    expect(entries(config).filter(({ path }) => path === '/v1/themes/old')).toHaveLength(Math.floor(ROTATE_BYTES / filler.length));
    expect(readdirSync(join(config, 'journal')).filter((name) => name.endsWith('.lock'))).toEqual([]);
  });
});

/** The user nobody, whom Debian, Alpine and macOS all have at this id. */
const NOBODY = { uid: 65534, gid: 65534 };

/**
 * The clone's loopsctl (its launcher, bundles and package.json) and the Node that runs it, where
 * the user nobody can read them: the clone may lie in a folder only its owner can enter (as
 * `mktemp -d` makes one), so they go in the temporary directory, whose way in the test opens.
 */
function cliNobodyReads(): { node: string; bin: string } {
  const dir = tempDir('loopsctl-cli-');
  chmodSync(dir, 0o755);
  const node = join(dir, 'node');
  try {
    linkSync(process.execPath, node);
  } catch {
    // Another filesystem: a copy, as runnable as the Node it copies.
    copyFileSync(process.execPath, node);
  }
  const root = resolve(import.meta.dirname, '../../..');
  for (const part of ['bin', 'dist', 'package.json']) cpSync(join(root, part), join(dir, part), { recursive: true, filter: (from) => !from.endsWith('.map') });
  return { node, bin: join(dir, 'bin', 'loopsctl.js') };
}

describe('a journal that cannot be written', () => {
  it('refuses the change before it is sent, as the user whose journal it is (as root: the user nobody, since root writes any file)', async () => {
    const config = tempConfigDir();
    mkdirSync(join(config, 'journal'), { mode: 0o700 });
    writeFileSync(journalFiles(config)[0]!, '', { mode: 0o400 });
    const asRoot = process.getuid?.() === 0;
    // As root, the config directory is nobody's, and the way to it (and to the copy of loopsctl
    // beside it) open to them; put back after.
    const opened: { path: string; mode: number }[] = [];
    if (asRoot) {
      for (let path = dirname(config); path !== dirname(path); path = dirname(path)) {
        const { mode } = statSync(path);
        if ((mode & 0o001) === 0) opened.push({ path, mode });
      }
      for (const { path, mode } of opened) chmodSync(path, mode | 0o001);
      for (const path of [config, join(config, 'journal'), journalFiles(config)[0]!]) chownSync(path, NOBODY.uid, NOBODY.gid);
    }
    try {
      const name = 'Never sent';
      const env = { ...sandboxEnv(sandbox), LOOPSCTL_CONFIG_DIR: config, HOME: config, XDG_CACHE_HOME: join(config, 'cache') };
      const result = await spawnCli(['themes', 'create', '--name', name], { env, ...(asRoot ? { user: NOBODY, ...cliNobodyReads() } : {}) });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(/the journal of changes cannot be kept in .*changes\.jsonl: it cannot be written; nothing was sent/);
      const listed = await spawnCli(['themes', 'list', '--json'], { env: sandboxEnv(sandbox) });
      expect((JSON.parse(listed.stdout) as { name: string }[]).map((theme) => theme.name)).not.toContain(name);
    } finally {
      for (const { path, mode } of opened) chmodSync(path, mode);
    }
  });
});
