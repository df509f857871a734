/** A command's invocation from typed input, checked and parsed as commander does from argv. */
import { describe, expect, it } from 'vitest';
import { invocationOf } from '../../../src/core/invoke.js';
import { MAKE } from '../../support/declared.js';

const spec = MAKE;

describe('an invocation from typed input', () => {
  it('has the arguments in order and the options by attribute, parsed, with defaults', () => {
    const made = invocationOf(spec, ['make'], { id: 'x', more: ['y', 'z'], size: 5, kind: 'a', tag: ['t1', 't2'], 'dry-run': true, 'no-check': true });
    expect(made.args).toEqual(['x', ['y', 'z']]);
    expect(made.options).toEqual({ size: 5, kind: 'a', tag: ['t1', 't2'], dryRun: true, check: false });
    expect(['--size', '--kind', '--tag', '--dry-run', '--no-check'].every(made.optionGiven)).toBe(true);
    const plain = invocationOf(spec, ['make'], { id: 'x', kind: 'b' });
    expect(plain.options).toEqual({ size: 3, kind: 'b', check: true });
    expect(plain.optionGiven('--size')).toBe(false);
  });

  it('refuses what argv would be refused for, in the same words', () => {
    expect(() => invocationOf(spec, ['make'], { kind: 'a' })).toThrow("missing required argument 'id'");
    expect(() => invocationOf(spec, ['make'], { id: 'x' })).toThrow("required option '--kind <kind>' not specified");
    expect(() => invocationOf(spec, ['make'], { id: 'x', kind: 'c' })).toThrow('--kind must be one of a, b, not "c"');
    expect(() => invocationOf(spec, ['make'], { id: 'x', kind: 'a', size: 12 })).toThrow('--size must be a whole number from 1 to 9, not 12');
    expect(() => invocationOf(spec, ['make'], { id: 'x', kind: 'a', colour: 'red' })).toThrow('`make` has no input "colour"');
    expect(() => invocationOf(spec, ['make'], { id: 'x', kind: 'a', 'dry-run': 'yes' })).toThrow('"dry-run" takes true or false');
    expect(() => invocationOf(spec, ['make'], { id: 'x', kind: ['a', 'b'] })).toThrow('"kind" takes one value');
  });
});
