/**
 * A plan names the account it was made for, and `apply` (and `undo` of what it applied) takes it
 * from there when the command line names none: a plan made with --sandbox is applied to the
 * sandbox without --sandbox, where it once ended "no API key". A profile named on the command line
 * still wins, and the account check holds it to the plan's team.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedId } from '../../../../src/emulator/module.js';
import { run, tempDir } from '../../../support/main.js';

const NOVEMBER = seedId('campaign/November newsletter');

/** A place of the test's own: its config directory (the sandbox's state, the changes kept) and a plan file's path. */
function place(): { plan: string; env: Record<string, string | undefined> } {
  const directory = tempDir('loopsctl-plan-account-');
  // No key in the environment: the account is the plan's alone.
  return { plan: join(directory, 'change.json'), env: { LOOPSCTL_CONFIG_DIR: join(directory, 'config'), LOOPS_API_KEY: undefined } };
}

describe('a plan made with --sandbox, applied with no account named', () => {
  it('is applied to the sandbox, and undone there, instead of ending "no API key"', async () => {
    const { plan, env } = place();
    const made = await run(['--sandbox', 'campaigns', 'update', NOVEMBER, '--name', 'December newsletter', '--plan', '--out', plan], { env });
    expect(made.code, made.stderr).toBe(0);

    const applied = await run(['apply', plan], { env });
    expect(applied.stderr).not.toContain('no API key');
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stderr).toContain('to Acme Sandbox');
    const renamed = await run(['--sandbox', 'campaigns', 'get', NOVEMBER, '--json'], { env });
    expect(renamed.json<{ name: string }>().name).toBe('December newsletter');

    const undone = await run(['undo', plan, '--yes'], { env });
    expect(undone.code, undone.stderr).toBe(0);
    const back = await run(['--sandbox', 'campaigns', 'get', NOVEMBER, '--json'], { env });
    expect(back.json<{ name: string }>().name).toBe('November newsletter');
  });

  it('is refused for a profile named on the command line, which reaches another account', async () => {
    const { plan, env } = place();
    const made = await run(['--sandbox', 'campaigns', 'update', NOVEMBER, '--name', 'December newsletter', '--plan', '--out', plan], { env });
    expect(made.code, made.stderr).toBe(0);
    const applied = await run(['--profile', 'work', 'apply', plan], { env });
    expect(applied.code).toBe(3);
    expect(applied.stderr).toContain('no API key for profile "work"');
  });
});
