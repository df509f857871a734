/**
 * Facts the README and the docs state about the project itself, held to what the project is: the
 * version a release's file names carry, the completion scripts' flags written once, and the install
 * scripts the clone's `npm install` runs, each approved in package.json's `allowScripts`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { madeCompletionScript } from '../../../src/areas/completion/made.js';
import { specs } from '../../../src/areas/registry.js';

const root = join(import.meta.dirname, '../../..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string; allowScripts?: Record<string, boolean> };
const read = (page: string) => readFileSync(join(root, page), 'utf8');
const PAGES = [
  'README.md',
  'install.sh',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** Where a page names a version of loopsctl: a release's file, its download path, the script's argument, the User-Agent. */
const VERSIONED = [/loopsctl-(\d+\.\d+\.\d+)/g, /download\/v(\d+\.\d+\.\d+)/g, /install\.sh (\d+\.\d+\.\d+)/g, /loopsctl\/(\d+\.\d+\.\d+)/g];

describe('what the docs say of the project', () => {
  it("names loopsctl's files and downloads by package.json's version", () => {
    const named = PAGES.flatMap((page) => VERSIONED.flatMap((pattern) => [...read(page).matchAll(pattern)].map((match) => `${page}: ${match[0]}`)));
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((place) => !place.endsWith(manifest.version))).toEqual([]);
  });

  it('writes the flags every command takes once in the bash and zsh scripts, as docs/completion.md says, which states no size a new area would change', () => {
    expect(read('docs/completion.md')).toContain('the flags every command takes (`--json`, `--profile`, ...) are\nwritten once');
    expect(read('docs/completion.md')).not.toMatch(/\d+ KB/);
    // A group more (a copy of themes) adds its own words, and not one more of the flags every command takes.
    const themes = specs.find((spec) => spec.name === 'themes')!;
    const more = [...specs, { ...themes, name: `${themes.name}-again`, aliases: undefined }];
    const count = (script: string, flag: string) => script.split(flag).length - 1;
    for (const shell of ['bash', 'zsh'] as const) {
      const [script, larger] = [madeCompletionScript(shell, specs), madeCompletionScript(shell, more)];
      expect(larger.length, shell).toBeGreaterThan(script.length);
      for (const flag of ['--profile', '--sandbox', '--base-url', '--timeout']) expect(count(larger, flag), `${shell}: ${flag}`).toBe(count(script, flag));
    }
    // What bin/loopsctl.js prints straight from the build to a pipe: no more than a Linux pipe takes at once.
    expect(Buffer.byteLength(madeCompletionScript('bash', specs))).toBeLessThanOrEqual(32 * 1024);
  });

  it("approves or denies in package.json's allowScripts every install script the lockfile's packages have", () => {
    // npm 11.16 and later list a package whose install script allowScripts does not cover, and npm 12 skips its script.
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { hasInstallScript?: boolean }> };
    const scripted = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript === true)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(scripted).toContain('node');
    expect(scripted.filter((name) => typeof manifest.allowScripts?.[name] !== 'boolean')).toEqual([]);
    // The Node the clone's scripts run on is fetched by its preinstall: it must run.
    expect(manifest.allowScripts?.node).toBe(true);
  });
});
