/**
 * loopsctl/webhooks and loopsctl/sandbox as the build makes them, in an app that has a zod of its
 * own (the `zod` package, as the app would install it): loading and using either leaves the app's
 * zod configured as the app left it (zod 4 keeps its configuration on globalThis, where every copy
 * of it in a process meets), and its object schemas compiled on first parse as zod does by
 * default; loopsctl's own messages stay English whatever the app configured. Spawns Node on an app
 * of its own for each entry (npm test builds first); nothing here is timed.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliResult } from '../../support/run-cli.js';
import { runNode } from '../../support/run-node.js';
import { tempDir } from '../../support/temp.js';

const REPO = resolve(import.meta.dirname, '../../..');
const scratch = tempDir('loopsctl-app-zod-');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * An app (an ES module) with zod of its own, classic and zod/mini, and messages of its own for
 * every issue: it makes a schema, loads a library by `load` (which sets `library`) and runs `use`
 * (which prints what loopsctl said), then prints its zod's configuration (the names set, and
 * whether each holds what it held before the load), whether zod compiled a parser (new Function)
 * for the first parse of an object schema made after, and its zod/mini's message for an issue.
 */
function appScript(name: string, load: string, use: string[]): string {
  const file = join(scratch, name);
  const lines = [
    "import { createRequire } from 'node:module';",
    "import { pathToFileURL } from 'node:url';",
    `const fromApp = createRequire(${JSON.stringify(join(REPO, 'package.json'))});`,
    "const z = await import(pathToFileURL(fromApp.resolve('zod')).href);",
    "const mini = await import(pathToFileURL(fromApp.resolve('zod/mini')).href);",
    "z.config({ customError: () => 'the app message' });",
    // Classic zod sets its defaults (English, its memoizer) on the app's first schema.
    'z.object({ id: z.string() });',
    'const before = { ...z.config() };',
    load,
    ...use,
    'const after = z.config();',
    'const same = Object.keys(after).length === Object.keys(before).length && Object.keys(before).every((key) => after[key] === before[key]);',
    'const schema = z.object({ name: z.string() });',
    'let compiled = 0;',
    'const StockFunction = globalThis.Function;',
    'globalThis.Function = new Proxy(StockFunction, { construct: (target, args) => (compiled++, Reflect.construct(target, args)) });',
    "schema.parse({ name: 'Ada' });",
    'globalThis.Function = StockFunction;',
    'const message = mini.string().safeParse(5).error.issues[0].message;',
    'console.log(JSON.stringify({ config: Object.keys(after).sort(), same, compiles: compiled > 0, message }));',
  ];
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

function runApp(script: string): Promise<CliResult> {
  return runNode([script], { PATH: process.env.PATH ?? '', HOME: scratch, XDG_CACHE_HOME: join(scratch, 'cache') });
}

/** What the app printed: loopsctl's lines, then its zod's state. */
async function appRun(script: string): Promise<{ said: string[]; zod: unknown }> {
  const result = await runApp(script);
  expect(result).toMatchObject({ code: 0, stderr: '' });
  const lines = result.stdout.trimEnd().split('\n');
  return { said: lines.slice(0, -1), zod: JSON.parse(lines.at(-1)!) };
}

/** The app's zod as the app and zod's defaults configured it, with its message; its object schemas compiled on first parse. */
const APP_ZOD = { config: ['customError', 'localeError', 'memoizer'], same: true, compiles: true, message: 'the app message' };

const WEBHOOKS_USE = [
  "const secret = `whsec_${Buffer.from('the secret of the app zod test').toString('base64')}`;",
  "const fixture = library.webhookFixture('email.hardBounced');",
  'const event = await library.verifyWebhook(library.signWebhookEvent(fixture, secret), secret);',
  'console.log(event.eventName, event.known);',
  'const misfit = library.parseWebhookEvent(JSON.stringify({ ...fixture, contactIdentity: { ...fixture.contactIdentity, email: 5 } }));',
  'console.log(misfit.problem);',
];
const WEBHOOKS_SAID = [
  'email.hardBounced true',
  'it does not fit the email.hardBounced event: contactIdentity.email: Invalid input: expected string, received number',
];

describe("an app's own zod beside loopsctl's libraries", () => {
  for (const entry of ['dist/webhooks/index.mjs', 'dist/webhooks/index.cjs']) {
    it(`is left as the app configured it by loopsctl/webhooks (${entry}), whose messages stay English`, async () => {
      const path = JSON.stringify(join(REPO, entry));
      const load = entry.endsWith('.mjs') ? `const library = await import(${path});` : `const library = createRequire(import.meta.url)(${path});`;
      const { said, zod } = await appRun(appScript(`webhooks-${entry.slice(-3)}.mjs`, load, WEBHOOKS_USE));
      expect(zod).toEqual(APP_ZOD);
      expect(said).toEqual(WEBHOOKS_SAID);
    });
  }

  it('is left as the app configured it by loopsctl/sandbox, whose messages stay English', async () => {
    const use = [
      'const refused = await library.startSandbox({ fixtures: { contacts: [{ email: 5 }] } }).catch((error) => error.message);',
      'console.log(refused);',
      "const sandbox = await library.startSandbox({ seed: 'demo' });",
      'const answer = await fetch(`${sandbox.url}/v1/contacts/find?email=ada%40example.com`, { headers: { authorization: `Bearer ${sandbox.apiKey}` } });',
      'console.log(answer.status, (await answer.json())[0].email);',
      'await sandbox.close();',
    ];
    const load = `const library = await import(${JSON.stringify(join(REPO, 'dist/sandbox/index.mjs'))});`;
    const { said, zod } = await appRun(appScript('sandbox.mjs', load, use));
    expect(zod).toEqual(APP_ZOD);
    expect(said).toEqual([
      'the fixtures cannot be used: 1 problem',
      '  contacts[0].email: Invalid input: expected string, received number',
      '200 ada@example.com',
    ]);
  });
});
