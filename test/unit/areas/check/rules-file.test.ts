/** The rules file `check` reads (loops.check.yaml): its values checked where they are read, each refusal naming its key. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRulesFile } from '../../../../src/areas/check/rules-file.js';
import { LocalFileError } from '../../../../src/base/errors.js';
import { tempDir } from '../../../support/temp.js';

/** The rules file holding this text, read. */
async function rulesOf(text: string) {
  const root = tempDir('loopsctl-rules-file-');
  writeFileSync(join(root, 'loops.check.yaml'), text);
  return readRulesFile({ root, path: 'loops.check.yaml' }, new Set());
}

describe('the rules file', () => {
  // A spam score of 0 or less would make every email's total an error, however clean.
  it.each(['0', '-1.5'])('refuses a spamScore of %s, naming the key', async (score) => {
    const refused = await rulesOf(`spamScore: ${score}\n`).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(LocalFileError);
    expect((refused as LocalFileError).message).toMatch(/ at spamScore: /);
  });

  it('takes a spamScore above 0', async () => {
    expect((await rulesOf('spamScore: 0.5\n')).spamScore).toBe(0.5);
  });
});
