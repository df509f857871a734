/**
 * The warnings a newcomer meets that are not problems are explained, in the words they appear in:
 * npm 11's notice of install scripts that package.json's allowScripts does not cover (which npm
 * runs all the same, and which the clone's allowScripts now covers), and postject's section names.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const install = readFileSync(join(import.meta.dirname, '../../../docs/install.md'), 'utf8');

describe('docs/install.md', () => {
  it("says what npm 11's install-script notice means, and how the clone's allowScripts settles it", () => {
    expect(install).toContain('npm warn install-scripts 3 packages have install scripts not yet covered by allowScripts:');
    expect(install).toContain('npm warn install-scripts   node@24.21.0 (preinstall: node installArchSpecificPackage)');
    expect(install).toMatch(/not yet covered by allowScripts[\s\S]{0,800}```\n\nA later npm is to skip what `allowScripts` does not approve/);
  });

  it("says postject's warnings during npm run release are expected", () => {
    expect(install).toContain("warning: Can't find string offset for section name '.note.100'");
    expect(install).toMatch(/string offset for section name[\s\S]{0,200}```\n\nThese are expected/);
  });
});
