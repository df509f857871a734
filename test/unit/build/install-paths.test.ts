/**
 * Until loopsctl is on the npm registry, `npm install loopsctl` finds nothing: every page (and
 * install.sh's fallback message) that tells a person to install it with npm also says how to
 * before then (a clone's path or a release's .tgz) and names the executable.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../..');
const PAGES = ['README.md', 'docs/install.md', 'docs/sandbox.md', 'docs/content.md', 'docs/sending-ips.md', 'install.sh'];

/** An install from the registry: `npm install --global loopsctl`, `npm install -g loopsctl`, `npm install --save-dev loopsctl`. */
const FROM_THE_REGISTRY = /npm install (?:--global|-g|--save-dev|-D) loopsctl\b(?!-)/;
/** An install from a path or a release's package. */
const FROM_A_FILE = /npm install (?:--global|-g|--save-dev|-D) (?:<|\.{0,2}\/|https:\/\/\S+\.tgz)/;
const EXECUTABLE = /executable|install\.sh/;

describe('installing before loopsctl is on the npm registry', () => {
  for (const page of PAGES) {
    it(`${page} says how, beside npm install loopsctl`, () => {
      const text = readFileSync(join(root, page), 'utf8');
      expect(text).toMatch(FROM_THE_REGISTRY);
      expect(text).toMatch(FROM_A_FILE);
      expect(text).toMatch(EXECUTABLE);
    });
  }

  it("install.sh's fallback message names both", () => {
    const fallbacks = readFileSync(join(root, 'install.sh'), 'utf8')
      .split('\n')
      .filter((line) => line.includes('install with npm instead'));
    expect(fallbacks.length).toBeGreaterThan(0);
    for (const line of fallbacks) expect(line).toMatch(FROM_A_FILE);
  });
});
