/**
 * The mutation set-up (stryker.config.mjs) names what each group mutates and the test files that
 * guard it. A name that no longer matches a file is passed over in silence: vitest runs the tests
 * it finds, Stryker mutates the files it finds. So every test file a group names exists, and
 * every pattern it mutates matches a source file.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');

type Groups = Record<string, { mutate: string[]; tests: string[] }>;
let groups: Groups;
const saved = { group: process.env.LOOPSCTL_MUTATE, tests: process.env.LOOPSCTL_MUTATE_TESTS };

beforeAll(async () => {
  // The configuration is read for one group, which it names to vitest through the environment.
  process.env.LOOPSCTL_MUTATE = 'transport';
  groups = ((await import(pathToFileURL(join(ROOT, 'stryker.config.mjs')).href)) as { groups: Groups }).groups;
});

afterAll(() => {
  for (const [name, value] of [
    ['LOOPSCTL_MUTATE', saved.group],
    ['LOOPSCTL_MUTATE_TESTS', saved.tests],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** A pattern as Stryker reads it: `*` within a folder, `**` across folders. */
function matcher(pattern: string): RegExp {
  const body = pattern
    .split('**/')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '[^/]*'))
    .join('(?:[^/]+/)*');
  return new RegExp(`^${body}$`);
}

describe('the mutation groups', () => {
  it('name test files that exist', () => {
    const missing = Object.entries(groups).flatMap(([name, group]) =>
      group.tests.filter((file) => !existsSync(join(ROOT, file))).map((file) => `${name}: ${file}`),
    );
    expect(missing).toEqual([]);
  });

  it('mutate patterns that each match a source file', () => {
    const sources = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' }).map((path) => `src/${path.split('\\').join('/')}`);
    const unmatched = Object.entries(groups).flatMap(([name, group]) =>
      // An exclusion (`!src/areas/check/links/**`) must leave out a file that is there too.
      group.mutate.filter((pattern) => !sources.some((path) => matcher(pattern.replace(/^!/, '')).test(path))).map((pattern) => `${name}: ${pattern}`),
    );
    expect(unmatched).toEqual([]);
  });

  // A test file of a group's area left out is a mutant it would kill reported as surviving: each
  // area's test files are named, but those whose cost each mutant would pay again (a check of
  // 2,000 links, a browser started), which the group's comment names.
  it.each([
    ['links', /^test\/e2e\/(areas\/check\/links?(-[a-z-]+)?|api\/fetcher)\.test\.ts$/, ['test/e2e/areas/check/link-scale.test.ts']],
    ['review', /^test\/(unit\/areas\/content\/review\/[a-z-]+|e2e\/areas\/content\/review(-[a-z-]+)?)\.test\.ts$/, []],
    ['handler', /^test\/(unit|e2e)\/webhooks\/[a-z-]+\.test\.ts$/, []],
    ['deliveries', /^test\/(unit|e2e)\/areas\/(webhooks|deliveries)\/[a-z-]+\.test\.ts$/, []],
    [
      'convert',
      /^test\/(unit\/areas\/content\/convert\/[a-z-]+|e2e\/areas\/content\/convert(-[a-z-]+)?)\.test\.ts$/,
      [
        'test/e2e/areas/content/convert-layout-browser.test.ts',
        'test/e2e/areas/content/convert-layout-browser-mjml.test.ts',
        'test/e2e/areas/content/convert-stacking-browser.test.ts',
        'test/e2e/areas/content/convert-lmx-browser.test.ts',
        'test/e2e/areas/content/convert-lmx-browser-foundation.test.ts',
        'test/e2e/areas/content/convert-lmx-browser-mjml.test.ts',
        'test/e2e/areas/content/convert-lmx-browser-react.test.ts',
        'test/e2e/areas/content/convert-react-browser.test.ts',
        'test/e2e/areas/content/convert-look-browser-foundation.test.ts',
        'test/e2e/areas/content/convert-look-browser-html.test.ts',
        'test/e2e/areas/content/convert-look-browser-mjml.test.ts',
        'test/e2e/areas/content/convert-look-browser-react.test.ts',
        'test/e2e/areas/content/convert-look-browser-shops.test.ts',
        'test/e2e/areas/content/convert-look-browser-team.test.ts',
      ],
    ],
  ])('name every test file of their area: %s', (name, area, costly) => {
    const tests = readdirSync(join(ROOT, 'test'), { recursive: true, encoding: 'utf8' }).map((path) => `test/${path.split('\\').join('/')}`);
    const named = new Set(groups[name]!.tests);
    expect(tests.filter((path) => area.test(path) && !named.has(path) && !costly.includes(path))).toEqual([]);
  });
});
