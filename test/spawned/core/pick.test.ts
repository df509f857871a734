/**
 * The picker on a real pseudo-terminal: a record id left out of `themes get` is chosen from the
 * themes, shown with `themes list`'s columns, and the command runs with it; off a terminal, the
 * usual usage error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureSandbox, KEYS, startFixtureSandbox, themes } from '../../support/fixture-sandbox.js';
import { runCli } from '../../support/run-cli.js';
import { runInTerminal, script } from '../../support/run-in-terminal.js';

let api: FixtureSandbox;
beforeAll(async () => {
  api = await startFixtureSandbox();
});
afterAll(() => api.close());

const DOWN = '\u001b[B';

describe.skipIf(script.skip)(script.title('the picker'), () => {
  it('offers the themes with the list’s columns when the id is left out, and runs the command with the one chosen', async () => {
    const env = { LOOPS_BASE_URL: api.url, LOOPS_API_KEY: KEYS.valid, NO_COLOR: '1' };
    // Typed once the rows are drawn: down to the second theme, then Enter.
    const result = await runInTerminal(['themes', 'get'], env, { input: `${DOWN}\r`, after: '❯ ' }, 120);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Choose the id: type to filter themes/);
    expect(result.stdout).toMatch(/\n {2}ID +NAME +DEFAULT +BACKGROUND +BODY +TEXT +BUTTON +UPDATED\n/);
    expect(result.stdout).toContain(`❯ ${themes[1]!.id}  ${themes[1]!.name}`);
    expect(result.stdout).toMatch(new RegExp(`✔ Choose the id: .* ${themes[1]!.id}`));
    expect(result.stdout).toContain(`${themes[1]!.name}\nid ${themes[1]!.id} · updated`);
  });

  it('picks one of several ids, and runs with it: `transactional metrics` left without any', async () => {
    const env = { LOOPS_BASE_URL: api.url, LOOPS_API_KEY: KEYS.valid, NO_COLOR: '1' };
    const result = await runInTerminal(['transactional', 'metrics'], env, { input: '\r', after: '❯ ' }, 120);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Choose the id: type to filter transactional emails/);
    expect(result.stdout).toMatch(/\ntx_\w+ +\S+ +[\d,]+/);
  });

  it('is never offered to a script: no terminal, the usual usage error', async () => {
    const result = await runCli(['themes', 'get'], { env: { LOOPS_BASE_URL: api.url, LOOPS_API_KEY: KEYS.valid } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/missing required argument 'id'/);
  });
});
