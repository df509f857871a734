import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { specs } from '../../../../src/areas/registry.js';
import { walkSpecs } from '../../../../src/core/declare.js';
import { run, tempDir } from '../../../support/main.js';

/** A command line split into words as a POSIX shell would, for the quoting the examples use. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index]!;
    if (char === "'") {
      const end = line.indexOf("'", index + 1);
      word = (word ?? '') + line.slice(index + 1, end);
      index = end;
    } else if (char === '"') {
      word ??= '';
      for (index += 1; line[index] !== '"'; index += 1) {
        if (line[index] === '\\' && '"\\$`'.includes(line[index + 1]!)) index += 1;
        word += line[index];
      }
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? '') + char;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

const scripting = readFileSync(new URL('../../../../docs/scripting.md', import.meta.url), 'utf8');
const readmeExamples = [...scripting.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((block) => block[1]!.trim().split('\n'));
const declaredExamples = walkSpecs(specs)
  .filter(({ path }) => path[0] === 'api' || path[0] === 'commands')
  .flatMap(({ spec }) => spec.examples.map((example) => `${example}`));

describe('the scripting examples run as written against the sandbox', () => {
  const env = { LOOPSCTL_CONFIG_DIR: tempDir() };
  it('finds the examples', () => {
    expect(readmeExamples.length).toBeGreaterThan(8);
    expect(declaredExamples.length).toBeGreaterThan(5);
  });
  it.each([...readmeExamples, ...declaredExamples])('%s', async (line) => {
    const [program, ...args] = shellWords(line);
    expect(program).toBe('loopsctl');
    const result = await run(args, { env });
    // -i shows the answer's head on stderr; nothing else may be there.
    if (!args.includes('-i')) expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).not.toBe('');
  });
  it('splits words as the shell does', () => {
    expect(shellWords(`loopsctl api x -F name="Password \\"reset\\"" --jq '"\\(.id)\\t"' -f a=b`)).toEqual([
      'loopsctl',
      'api',
      'x',
      '-F',
      'name=Password "reset"',
      '--jq',
      '"\\(.id)\\t"',
      '-f',
      'a=b',
    ]);
  });
});
