/**
 * loopsctl/webhooks as the build makes it (dist/webhooks): the PostgreSQL client it shares with the
 * CLI (one copy of pg in the package, loaded for a postgres:// store alone), and an app's uncaught
 * error from it, which reads as an error rather than as a page of minified code. Spawns Node on a
 * script of its own (npm test builds first); nothing here is timed.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { COMPRESSED } from '../../../src/build/release.mjs';
import type { CliResult } from '../../support/run-cli.js';
import { runNode } from '../../support/run-node.js';
import { tempDir } from '../../support/temp.js';

const REPO = resolve(import.meta.dirname, '../../..');
const LIBRARY = join(REPO, 'dist/webhooks/index.cjs');
const RECORD_LOADS = join(REPO, 'test/support/record-loads.cjs');
const scratch = tempDir('loopsctl-webhooks-bundle-');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs a CommonJS script with Node, recording the files under dist/ it loads (test/support/record-loads.cjs). */
async function runScript(name: string, lines: string[]): Promise<CliResult & { loads: string[] }> {
  const script = join(scratch, name);
  const loadsFile = join(scratch, `${name}.loads`);
  writeFileSync(script, `const webhooks = require(${JSON.stringify(LIBRARY)});\n${lines.join('\n')}\n`);
  const result = await runNode(['--require', RECORD_LOADS, script], { PATH: process.env.PATH ?? '', HOME: scratch, LOADS_FILE: loadsFile });
  return { ...result, loads: readFileSync(loadsFile, 'utf8').split('\n').filter(Boolean) };
}

describe("loopsctl/webhooks's bundle", () => {
  it("shares pg with the CLI: pg's code is in one file of the package, which the package keeps as it is", () => {
    // Strings of pg's client, its SASL authentication and its wire protocol's parser (pg-protocol).
    const markers = ['Client has already been connected', 'SCRAM-SERVER-FIRST-MESSAGE', 'Unknown authenticationOk message type'];
    const code = readdirSync(join(REPO, 'dist'), { recursive: true, encoding: 'utf8' })
      .map((file) => `dist/${file}`)
      .filter((file) => /\.c?js$/.test(file));
    expect(code.length).toBeGreaterThan(20);
    const holding = code.filter((file) => {
      const text = readFileSync(join(REPO, file), 'utf8');
      return markers.some((marker) => text.includes(marker));
    });
    expect(holding).toEqual(['dist/vendor/pg.cjs']);
    for (const file of holding) {
      const text = readFileSync(join(REPO, file), 'utf8');
      expect(markers.filter((marker) => !text.includes(marker))).toEqual([]);
    }
    // The library require()s it as a file: the npm package must not keep it compressed, as it does
    // the bundles only the CLI reads.
    expect(COMPRESSED.test('dist/vendor/pg.cjs')).toBe(false);
  });

  it("loads pg for a postgres:// store alone, from the CLI's copy", async () => {
    const sqlite = await runScript('sqlite-store.cjs', [
      `webhooks.openDeliveryStore(${JSON.stringify(`sqlite:${join(scratch, 'deliveries.db')}`)}).then((store) => store.close()).then(() => console.log('closed'));`,
    ]);
    expect(sqlite).toMatchObject({ code: 0, stdout: 'closed\n', stderr: '', loads: ['dist/vendor/zod.cjs', 'dist/webhooks/index.cjs'] });
    // Nothing listens on port 9: the store fails to connect once pg has loaded.
    const postgres = await runScript('postgres-store.cjs', [
      "webhooks.openDeliveryStore('postgres://app:secret@127.0.0.1:9/deliveries').catch((error) => console.log(error.name, error.message));",
    ]);
    expect(postgres).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^DeliveryStoreError the store postgres:\/\/\[redacted\]@127\.0\.0\.1:9\/deliveries cannot be reached/),
      stderr: '',
      loads: ['dist/vendor/pg.cjs', 'dist/vendor/zod.cjs', 'dist/webhooks/index.cjs'],
    });
  });

  it("prints an app's uncaught error from it with its message near the top, in lines a person can read", async () => {
    // An app that parses a body that is not JSON and catches nothing: the library's error ends it.
    const result = await runScript('uncaught.cjs', ["webhooks.parseWebhookEvent('not json');"]);
    expect(result.code).toBe(1);
    const lines = result.stderr.split('\n');
    // Node prints where the error was thrown (a line of the library), that line's source and a
    // caret, then the error: minified, that source was the bundle's one line of 126,000 characters.
    expect(lines[0]).toMatch(/\/dist\/webhooks\/index\.cjs:\d+$/);
    const message = lines.findIndex((line) => line.startsWith('WebhookVerificationError: the body is not JSON'));
    expect(message).toBeGreaterThan(0);
    expect(message).toBeLessThanOrEqual(4);
    expect(lines.filter((line) => line.length > 500)).toEqual([]);
  });
});
