/**
 * The warnings a newcomer meets that are not problems are said to be expected, in the words they
 * appear in: npm 11's notice of install scripts it did not run, and postject's section names.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const install = readFileSync(join(import.meta.dirname, '../../../docs/install.md'), 'utf8');

describe('docs/install.md', () => {
  it("says npm 11's install-script notices are expected", () => {
    expect(install).toContain('npm warn install-scripts esbuild@');
    expect(install).toMatch(/npm warn install-scripts[\s\S]{0,400}```\n\nThat is expected/);
  });

  it("says postject's warnings during npm run release are expected", () => {
    expect(install).toContain("warning: Can't find string offset for section name '.note.100'");
    expect(install).toMatch(/string offset for section name[\s\S]{0,200}```\n\nThese are expected/);
  });
});
