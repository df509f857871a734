/**
 * `check --code` bounded on any input: the tokenizer's work is counted (characters and tokens
 * read) and must stay linear in the file's length on the inputs written to defeat a scanner;
 * nothing recurses on the input's depth; a file over the token budget is read up to it and says
 * where it stopped.
 */
import { describe, expect, it } from 'vitest';
import { MAX_SOURCE_BYTES } from '../../../src/app-code/files.js';
import { scanFile } from '../../../src/app-code/scan.js';
import { MAX_TOKENS, tokenUses } from '../../../src/app-code/tokens.js';

/** A file of the largest size --code reads, made of one unit again and again. */
const largest = (prefix: string, unit: string) => prefix + unit.repeat(Math.floor((MAX_SOURCE_BYTES - prefix.length) / unit.length));

/** Each character read once and each token handled once, with room for the two-character tokens. */
const LINEAR_STEPS_PER_CHARACTER = 2;

const WORST_CASES: [file: string, text: string][] = [
  // Each unclosed map once sent the scanner to the end of the file: quadratic.
  ['unclosed.py', largest('', 'data_variables={')],
  ['unclosed.rb', largest('', 'mailing_lists: {"a" => ')],
  // Go's map type once recursed, a level for each `[string`: past the stack.
  ['types.go', largest('x := data_variables=', '[string')],
  ['nested.php', largest('', '(')],
  ['string.py', largest('"', '\\a')],
  ['sends.go', largest('', 'TransactionalID: "x", DataVariables: map[string]any{"a": 1},\n')],
];

describe('check --code on inputs written to defeat it', () => {
  it.each(WORST_CASES)('reads %s (2 MB) in steps linear in its length, without failing', (file, text) => {
    const steps = { count: 0 };
    expect(() => tokenUses(file, text, steps)).not.toThrow();
    expect(steps.count).toBeLessThanOrEqual(LINEAR_STEPS_PER_CHARACTER * text.length);
  });

  it('does twice the work, not four times, for a file of twice the unclosed maps', () => {
    const work = (maps: number) => {
      const steps = { count: 0 };
      tokenUses('app.py', 'data_variables={'.repeat(maps), steps);
      return steps.count;
    };
    expect(work(20_000)).toBe(2 * work(10_000));
  });

  it('keeps the data variables of a Go map written with its type, however deep the type', () => {
    const source = 'loops.Send(loops.Transactional{TransactionalID: "t1", DataVariables: map[string]map[string]any{"name": n}})';
    expect(tokenUses('send.go', source).uses).toEqual([{ kind: 'transactional', value: 't1', file: 'send.go', line: 1, column: 49, dataVariables: ['name'] }]);
  });

  it('reads a file up to its token budget and says where it stopped', () => {
    const source = 'send(transactional_id="a")\nsend(transactional_id="b")\n';
    const { uses, unread } = tokenUses('app.py', source, { count: 0 }, 8);
    expect(uses.map((use) => use.value)).toEqual(['a']);
    expect(unread).toBe('the rest from line 2, column 6: over 8 tokens');
    expect(MAX_TOKENS).toBeGreaterThanOrEqual(MAX_SOURCE_BYTES / 4);
  });

  it('says the whole of a JavaScript file nested deeper than the parser goes was left unread, rather than failing', () => {
    expect(scanFile('deep.ts', largest('loops.sendEvent({ eventName: "x" }); const a = ', '['))).toEqual({
      uses: [],
      unread: 'the whole file: nested deeper than the parser goes',
    });
  });
});
