import { describe, expect, it } from 'vitest';
import { spec as emailMessages } from '../../../../src/areas/email-messages/index.js';
import { spec as transactional } from '../../../../src/areas/transactional/index.js';
import { walkSpecs } from '../../../../src/core/declare.js';
import { run } from '../../../support/main.js';

/** Shell words of an example: plain words and "double-quoted" ones. */
const words = (example: string) => [...example.matchAll(/"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2]!);

// Examples that write to a file run here without the redirection; those that need a file of the
// user's own (uploads) are left out.
const examples = walkSpecs([emailMessages, transactional]).flatMap(({ spec }) => spec.examples.map((example) => example.replace(/ > \S+$/, '')));

describe('help examples run as written against the sandbox', () => {
  it.each(examples)('%s', async (example) => {
    const [program, ...argv] = words(example);
    expect(program).toBe('loopsctl');
    const result = await run(['--sandbox', ...argv]);
    expect(result.stderr).not.toMatch(/^Error/m);
    expect(result.code).toBe(0);
  });
});
