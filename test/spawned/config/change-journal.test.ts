/**
 * The journal of changes kept by processes running at the same time: each appends its lines
 * whole, and a rotation in one never loses or cuts another's line.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journalFiles, ROTATE_BYTES, type JournalEntry } from '../../../src/config/change-journal.js';
import type { SandboxServer } from '../../../src/emulator/server.js';
import { sandboxEnv, startTestSandbox } from '../../support/main.js';
import { spawnCli, tempConfigDir } from '../../support/run-cli.js';

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
