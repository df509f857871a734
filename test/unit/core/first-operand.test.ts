/** The word a run's command tree is built for: the first past the global options and their values. */
import { describe, expect, it } from 'vitest';
import { firstOperandIndex } from '../../../src/core/program.js';

/** The word firstOperandIndex points at. */
function firstOperand(argv: string[]): string | undefined {
  const index = firstOperandIndex(argv);
  return index === undefined ? undefined : argv[index];
}

describe('firstOperand', () => {
  it('is the first word, past global flags and the values of global options in either spelling', () => {
    expect(firstOperand(['webhooks', 'sign'])).toBe('webhooks');
    expect(firstOperand(['--sandbox', 'workflow', 'list'])).toBe('workflow');
    expect(firstOperand(['--profile', 'webhooks', 'contacts', 'find'])).toBe('contacts');
    expect(firstOperand(['-o', 'json', '--base-url=http://x', '--no-color', 'ips', 'list'])).toBe('ips');
    expect(firstOperand(['--jq', '.[]', '--timeout', '5', 'themes'])).toBe('themes');
  });

  it('is none when an option commander would have to know more of comes first, or no word does', () => {
    expect(firstOperand(['--email', 'x', 'contacts'])).toBeUndefined();
    expect(firstOperand(['-ojson', 'ips', 'list'])).toBeUndefined();
    expect(firstOperand(['--', 'ips'])).toBeUndefined();
    expect(firstOperand(['--help'])).toBeUndefined();
    expect(firstOperand(['--json'])).toBeUndefined();
    expect(firstOperand([])).toBeUndefined();
  });
});
