/**
 * Facts the README and the docs state about the project itself, held to what the project is: the
 * version a release's file names carry, the sizes of the completion scripts, and the install
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

  it("gives the completion scripts' sizes within a tenth of what the build makes", () => {
    const page = read('docs/completion.md');
    const stated = /the bash script is (\d+) KB and the zsh one (\d+) KB/.exec(page);
    expect(stated, 'docs/completion.md states the sizes').not.toBeNull();
    for (const [shell, kilobytes] of [
      ['bash', Number(stated![1])],
      ['zsh', Number(stated![2])],
    ] as const) {
      const made = Buffer.byteLength(madeCompletionScript(shell, specs)) / 1024;
      expect(Math.abs(made - kilobytes) / made, `${shell}: ${made.toFixed(1)} KB made, ${kilobytes} KB stated`).toBeLessThan(0.1);
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
