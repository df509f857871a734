/**
 * The Jest recipes of docs/sandbox.md (marked `<!-- jest recipe: … -->`) run as written, with Jest:
 * each recipe's files, and its jest.config.js from the recipe's first line, are written into an app
 * of their own with the built `loopsctl/sandbox` installed as npm would put it and the official
 * `loops` SDK beside it; the app's tests (written here, the recipe's reader's part) reach the
 * sandbox as the recipe says. Jest must pass them and end on its own (a sandbox left open would
 * keep it running), and fail a test whose expectation the sandbox does not meet.
 */
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installSandboxPackage } from '../../support/installed-sandbox.js';
import { tempDir } from '../../support/temp.js';

const REPO = resolve(import.meta.dirname, '../../..');
const JEST = join(REPO, 'node_modules/jest/bin/jest.js');

interface Recipe {
  /** jest.config.js's object, as the recipe's first line gives it. */
  config: string;
  /** Its files by path, as written. */
  files: Map<string, string>;
}

/** The docs' Jest recipes, by name: the js block after each marker, cut into its files at each `// test/<file>` line. */
function recipes(): Map<string, Recipe> {
  const text = readFileSync(join(REPO, 'docs/sandbox.md'), 'utf8');
  const found = new Map<string, Recipe>();
  for (const match of text.matchAll(/<!-- jest recipe: (\w+)[^>]*-->\n```js\n([\s\S]*?)\n```/g)) {
    const [first, ...lines] = match[2]!.split('\n');
    const config = /^\/\/ jest\.config\.js: (\{.*\})$/.exec(first!)?.[1];
    expect(config, `the "${match[1]}" recipe starts with its jest.config.js`).toBeDefined();
    const files = new Map<string, string[]>();
    let current: string[] | undefined;
    for (const line of lines) {
      const file = /^\/\/ (test\/[\w.-]+)$/.exec(line)?.[1];
      if (file !== undefined) files.set(file, (current = []));
      else current?.push(line);
    }
    found.set(match[1]!, { config: config!, files: new Map([...files].map(([file, body]) => [file, `${body.join('\n').trim()}\n`])) });
  }
  return found;
}

/** The fixture file the recipes name (test/loops.yaml): the example app's. */
const FIXTURES = readFileSync(join(REPO, 'test/examples/app/loops.yaml'), 'utf8');

/** An app with `recipe` in it, its tests `tests` (path: source), of `type` CommonJS or ES modules. */
function appWith(recipe: Recipe, tests: Record<string, string>, type: 'commonjs' | 'module' = 'commonjs'): string {
  const app = tempDir('loopsctl-jest-recipe-');
  installSandboxPackage(app);
  symlinkSync(join(REPO, 'node_modules/loops'), join(app, 'node_modules/loops'), 'dir');
  writeFileSync(join(app, 'package.json'), `${JSON.stringify({ name: 'app', private: true, type })}\n`);
  const config = type === 'module' ? `export default ${recipe.config};\n` : `module.exports = ${recipe.config};\n`;
  const files = { 'jest.config.js': config, 'test/loops.yaml': FIXTURES, ...Object.fromEntries(recipe.files), ...tests };
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(app, path)), { recursive: true });
    writeFileSync(join(app, path), source);
  }
  return app;
}

/**
 * Jest run in `app`, its cache inside it (removed with it), with nothing of this process's
 * environment but PATH. The time limit only stops a run that never ends: a sandbox left open.
 */
function jest(app: string, nodeOptions = ''): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [JEST, '--ci', '--no-watchman', '--cacheDirectory', join(app, '.jest-cache')], {
    cwd: app,
    env: { PATH: process.env.PATH ?? '', HOME: app, NO_COLOR: '1', ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}) },
    encoding: 'utf8',
    timeout: 50_000,
  });
}

function expectPassed(run: SpawnSyncReturns<string>, tests: number): void {
  expect(run.signal, `Jest did not end on its own:\n${run.stderr}`).toBeNull();
  expect(run.status, run.stderr).toBe(0);
  expect(run.stderr).toMatch(new RegExp(`Tests:\\s+${tests} passed, ${tests} total`));
}

/** Jest failed the one test named, passed the others (`passed` of them), and ended on its own. */
function expectFailed(run: SpawnSyncReturns<string>, failed: string, passed: number): void {
  expect(run.signal, `Jest did not end on its own:\n${run.stderr}`).toBeNull();
  expect(run.status, run.stderr).toBe(1);
  expect(run.stderr).toContain(`● ${failed}`);
  expect(run.stderr).toMatch(new RegExp(`Tests:\\s+1 failed, ${passed} passed, ${passed + 1} total`));
}

/** An app's test through the official SDK: the fixtures' contact is found and its welcome email sent; `loops` is the client. */
const sdkTest = (name: string, client: string) => `
test('${name}', async () => {
  const loops = ${client};
  const [contact] = await loops.findContact({ email: 'ada@example.com' });
  expect(contact.firstName).toBe('Ada');
  const sent = await loops.sendTransactionalEmail({ transactionalId: 'tx_welcome', email: 'ada@example.com', dataVariables: { loginUrl: 'https://example.com' } });
  expect(sent).toEqual({ success: true });
});
`;

/** A test the sandbox's data does not meet. */
const brokenTest = (client: string) => `
const { LoopsClient } = require('loops');
test('finds a contact the fixtures do not have', async () => {
  const loops = ${client};
  expect(await loops.findContact({ email: 'grace@example.com' })).toHaveLength(1);
});
`;

describe('the Jest recipes of docs/sandbox.md', () => {
  it('has the recipes this runs', () => {
    expect([...recipes().keys()].sort()).toEqual(['global', 'intercept']);
  });

  // The global set-up's sandbox, reached at the address it puts in the environment, from two test files (Jest's workers, when it starts them).
  const atItsAddress =
    '(() => { const client = new LoopsClient(process.env.LOOPS_API_KEY); client.apiRoot = `${process.env.LOOPS_SANDBOX_URL}/api/`; return client; })()';

  it('runs the global set-up and tear-down recipe: one sandbox for the run, at the address the environment gives', () => {
    const recipe = recipes().get('global')!;
    expect([...recipe.files.keys()]).toEqual(['test/loops-setup.mjs', 'test/loops-teardown.mjs']);
    const tests = {
      'test/welcome.test.js': `const { LoopsClient } = require('loops');\n${sdkTest('sends the welcome email', atItsAddress)}`,
      'test/again.test.js': `const { LoopsClient } = require('loops');\n${sdkTest('sends it again', atItsAddress)}`,
    };
    // All pass, so that a set-up or tear-down that fails shows in the exit code; a test the
    // fixtures do not meet fails, as the interceptor recipe's run below shows.
    expectPassed(jest(appWith(recipe, tests)), 2);
  });

  // The interceptor's sandbox, reached by a client made as in production: no base URL.
  const asInProduction = 'new LoopsClient(process.env.LOOPS_API_KEY)';

  it('runs the interceptor recipe: the official SDK, with no base URL, answered by the sandbox', () => {
    const recipe = recipes().get('intercept')!;
    expect([...recipe.files.keys()]).toEqual(['test/loops-intercept.cjs']);
    // Passed beside a test that fails: a run where all pass ends with exit 0, as the next test's does.
    const app = appWith(recipe, {
      'test/welcome.test.js': `const { LoopsClient } = require('loops');\n${sdkTest('sends the welcome email', asInProduction)}`,
      'test/broken.test.js': brokenTest(asInProduction),
    });
    expectFailed(jest(app), 'finds a contact the fixtures do not have', 1);
  });

  it('runs the interceptor recipe beside tests written as ES modules, as Jest runs those (--experimental-vm-modules)', () => {
    const app = appWith(
      recipes().get('intercept')!,
      { 'test/welcome.test.js': `import { LoopsClient } from 'loops';\n${sdkTest('sends the welcome email', asInProduction)}` },
      'module',
    );
    expectPassed(jest(app, '--experimental-vm-modules --no-warnings'), 1);
  });
});
