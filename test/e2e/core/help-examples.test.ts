/**
 * Help's examples fit the width help is wrapped at (80 columns, or a narrower terminal's width):
 * a long one is broken between its words with ` \`, so that copied whole it still
 * runs as one command.
 */
import { describe, expect, it } from 'vitest';
import { specs } from '../../../src/areas/registry.js';
import { walkSpecs } from '../../../src/core/declare.js';
import { exampleLines } from '../../../src/core/program.js';
import { run } from '../../support/main.js';

/** The commands with an example longer than 80 columns as help shows it ("  $ " before it). */
const long = walkSpecs(specs).filter(({ spec }) => spec.examples.some((example) => example.length + 4 > 80));

/** The example lines of a help text, joined back into the commands they show. */
function examplesOf(help: string): string[] {
  const section = help.slice(help.indexOf('\nExamples:\n') + '\nExamples:\n'.length);
  return section
    .trimEnd()
    .replace(/ \\\n {6}/g, ' ')
    .split('\n')
    .map((line) => line.replace(/^ {2}\$ /, ''));
}

describe("help's examples", () => {
  it('include some longer than 80 columns, which this checks', () => {
    expect(long.length).toBeGreaterThan(3);
  });

  it('fit 80 columns off a terminal, and read back as the commands declared', async () => {
    for (const { path, spec } of long) {
      const help = await run([...path, '--help']);
      expect(help.code).toBe(0);
      const lines = help.stdout.slice(help.stdout.indexOf('\nExamples:\n')).split('\n');
      // Only a word longer than the width (a quoted JSON filter) may pass it, on a line of its own.
      for (const line of lines.filter((text) => text.length > 80)) expect(line, path.join(' ')).toMatch(/^ {6}\S+( \\)?$/);
      expect(examplesOf(help.stdout)).toEqual(spec.examples);
    }
  });

  it("fit a narrower terminal's width, and are broken as off a terminal on a wider one", async () => {
    const [{ path, spec }] = long;
    const wide = await run([...path!, '--help'], { tty: { columns: 200 } });
    for (const example of spec!.examples.filter((text) => text.length + 4 <= 80)) expect(wide.stdout).toContain(`  $ ${example}\n`);
    expect(wide.stdout).toBe((await run([...path!, '--help'])).stdout);
    expect(wide.stdout).toContain(' \\\n      ');
    const narrow = await run([...path!, '--help'], { tty: { columns: 60 } });
    expect(examplesOf(narrow.stdout)).toEqual(spec!.examples);
  });

  it('never break inside quotes', () => {
    const lines = exampleLines(`loopsctl api /v1/contacts/find --field 'email=a very long address with spaces@example.com' --json`, 40).split('\n');
    expect(lines).toContain("      'email=a very long address with spaces@example.com' \\");
  });
});
