/**
 * `undo` of a transactional email's draft edit published since: the account holds no draft to put
 * back. It once ended on the plan file's message ("which a plan file cannot name beforehand") with a
 * hint to drop an `--out` that was never given. It names the email as not undone, with what to do,
 * and sends nothing.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedId } from '../../../../src/emulator/module.js';
import { tempDir } from '../../../support/main.js';
import { sandboxEachTest } from '../../../support/recording.js';

const PASSWORD_RESET = seedId('transactional/Password reset');
const sandboxes = sandboxEachTest();

describe('undo of a draft published since', () => {
  it('says the draft is not undone and what to do, sending nothing, where it once named an --out never given', async () => {
    const sandbox = await sandboxes();
    const directory = tempDir('loopsctl-undo-published-');
    const env = { LOOPSCTL_CONFIG_DIR: join(directory, 'config') };
    const tree = join(directory, 'tree');
    const plan = join(directory, 'change.json');
    expect((await sandbox.loopsctl(['content', 'pull', tree, '--only', 'transactional'], { env })).code).toBe(0);
    writeFileSync(join(tree, 'transactional', `password-reset--${PASSWORD_RESET}`, 'draft.lmx'), '<Paragraph>Reset it here: {data.resetUrl}</Paragraph>\n');
    const made = await sandbox.loopsctl(['content', 'push', tree, '--only', 'transactional', '--plan', '--out', plan], { env });
    expect(made.code, made.stderr).toBe(0);
    const applied = await sandbox.loopsctl(['apply', plan], { env });
    expect(applied.code, applied.stderr).toBe(0);
    const published = await sandbox.loopsctl(['transactional', 'publish', PASSWORD_RESET], { env });
    expect(published.code, published.stderr).toBe(0);

    sandbox.requests.length = 0;
    const undone = await sandbox.loopsctl(['undo', plan, '--yes'], { env });
    expect(undone.stderr).not.toContain('--out');
    expect(undone.stderr).toContain(`transactional/password-reset--${PASSWORD_RESET}: not undone: it was published since`);
    expect(undone.stderr).toContain('transactional draft');
    expect(undone.code, undone.stderr).toBe(5);
    expect(sandbox.requests.filter((request) => request.method !== 'GET')).toEqual([]);
  });
});
