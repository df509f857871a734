/** A send that leaves out a data variable the email needs is told which variables the email takes, and how to give them. */
import { describe, expect, it } from 'vitest';
import { run, tempDir } from '../../../support/main.js';

const PASSWORD_RESET = 'c1h3243uwicgpgajrgexlzdl5';

describe('a transactional send missing a data variable', () => {
  it("names the email's variables and --var", async () => {
    const env = { LOOPSCTL_CONFIG_DIR: tempDir() };
    const sent = await run(['--sandbox', 'transactional', 'send', PASSWORD_RESET, '--to', 'ada@example.com', '--var', 'firstName=Ada'], { env });
    expect(sent.code).toBe(5);
    expect(sent.stderr).toContain('Error: Missing required data variable(s): ');
    const hint = /Hint: (.*)/.exec(sent.stderr)?.[1] ?? '';
    expect(hint).toMatch(/^the email takes (\w+, )*firstName(, \w+)* \(this send gave firstName\); give each with --var name=value/);
    expect(hint).toContain('--var resetUrl=...');
  });
});
