/**
 * One verdict on a transactional email's data variables (src/platform/transactional/data-variables.ts),
 * read by `check --code`, `types`, the sandbox and `transactional send`. The seed's "Password reset"
 * shows firstName (with a fallback), resetUrl, and expiresInMinutes (which the seed marks optional, as
 * the editor would; the API does not show it). So firstName is optional everywhere; the sandbox,
 * which knows the marks, takes a send without expiresInMinutes and refuses one without resetUrl;
 * where the API does not say (expiresInMinutes and resetUrl, read through it), `check --code` and
 * `types` say so in the same words.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { missingRequiredMessage, unstatedNote } from '../../../../src/platform/transactional/data-variables.js';
import { tempDir } from '../../../support/main.js';
import { sandboxEachTest } from '../../../support/recording.js';

const PASSWORD_RESET = 'c1h3243uwicgpgajrgexlzdl5';

interface Found {
  rule: string;
  severity: string;
  message: string;
}

describe('one verdict on data variables', () => {
  const openSandbox = sandboxEachTest();

  it('check --code passes a send without a variable the email has a fallback for, and warns, in the shared words, of one the API does not say is optional', async () => {
    const sandbox = await openSandbox();
    const app = tempDir();
    writeFileSync(
      join(app, 'reset.ts'),
      `await loops.sendTransactionalEmail({ transactionalId: '${PASSWORD_RESET}', email, dataVariables: { resetUrl: url } });\n`,
    );
    const result = await sandbox.loopsctl(['check', '--only', 'code', '--code', app, '--json']);
    expect(result.json<Found[]>().map(({ rule, severity, message }) => ({ rule, severity, message }))).toEqual([
      {
        rule: 'code-missing-data-variable',
        severity: 'warning',
        message: `sends "Password reset" without expiresInMinutes, which the published email shows with no fallback; ${unstatedNote(['expiresInMinutes'])}`,
      },
    ]);
    // The sandbox takes that very send: a warning, not an error.
    expect(result.code).toBe(0);
    const sent = await sandbox.loopsctl(['transactional', 'send', PASSWORD_RESET, '--to', 'ada@example.com', '--var', 'resetUrl=https://app.example.com/r']);
    expect(sent.code).toBe(0);
  });

  it('types makes the variable with a fallback optional and the others required, saying why in the same words', async () => {
    const sandbox = await openSandbox();
    const module = (await sandbox.loopsctl(['types'])).stdout;
    expect(module).toContain(
      `  "Password reset": { id: "${PASSWORD_RESET}", dataVariables: ["expiresInMinutes", "firstName", "resetUrl"], optionalDataVariables: ["firstName"] },`,
    );
    expect(module).toContain(`/** The variables a send must give. For each, ${unstatedNote(['it'])}. */`);
  });

  it('the sandbox refuses a send without a required variable in the API’s words, which transactional send reads back', async () => {
    const sandbox = await openSandbox();
    const refused = await sandbox.loopsctl(['transactional', 'send', PASSWORD_RESET, '--to', 'ada@example.com', '--var', 'expiresInMinutes:=30']);
    expect(refused.code).toBe(5);
    // firstName has a fallback and expiresInMinutes was given: resetUrl alone is missing.
    expect(refused.stderr).toContain(`Error: ${missingRequiredMessage(['resetUrl'])}`);
    expect(refused.stderr).toContain('--var resetUrl=...');
  });
});
