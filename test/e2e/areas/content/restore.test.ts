/**
 * A tree pulled from the account is its backup: a record deleted in the account (a workflow, which
 * the API can delete) is created anew from the tree by `content push --only <its directory>`, its new
 * id kept in the state file; records changed in the account (an email's subject and LMX, a
 * component) are put back with `--force`; and a pull after changes none of the files.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readState } from '../../../../src/areas/content/shared/files.js';
import { seedId } from '../../../../src/emulator/module.js';
import { tempDir } from '../../../support/main.js';
import { type RecordingSandbox, sandboxEachTest } from '../../../support/recording.js';

const sandboxes = sandboxEachTest();
const ACCOUNT = 'Acme Sandbox';
const WELCOME_SERIES = seedId('workflow/Welcome series');
const PASSWORD_RESET = seedId('transactional/Password reset');
const PASSWORD_RESET_DRAFT = seedId('transactional/Password reset/draft');
const FOOTER = seedId('component/Footer');
const WIN_BACK = seedId('workflow/Win-back (draft)');

/** Every file of the tree, by path, but the state file (which a restore changes: the new ids). */
function snapshot(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name === 'loopsctl-state.json') continue;
    const path = join(entry.parentPath, entry.name);
    files[relative(root, path)] = readFileSync(path, 'utf8');
  }
  return files;
}

function recordPath(root: string, kind: string, id: string): string {
  const name = readdirSync(join(root, kind)).find((entry) => entry.endsWith(`--${id}`));
  if (name === undefined) throw new Error(`no ${kind} record ${id} in ${root}`);
  return `${kind}/${name}`;
}

async function ok(sandbox: RecordingSandbox, args: string[]): Promise<string> {
  const result = await sandbox.loopsctl(args);
  expect(result.code, `${args.join(' ')}\n${result.stderr}`).toBe(0);
  return result.stdout;
}

/** What someone does in the account after the pull: a workflow deleted, an email's subject and LMX and a component's LMX changed. */
async function damage(sandbox: RecordingSandbox): Promise<void> {
  const scratch = tempDir('loopsctl-damage-');
  writeFileSync(join(scratch, 'email.lmx'), '<Paragraph>Oops</Paragraph>\n');
  writeFileSync(join(scratch, 'footer.lmx'), '<Paragraph>Broken footer</Paragraph>\n');
  await ok(sandbox, ['workflow', 'delete', WELCOME_SERIES, '--force', '--yes', '--confirm-delete']);
  await ok(sandbox, ['email-messages', 'update', PASSWORD_RESET_DRAFT, '--subject', 'Oops', '--lmx-file', join(scratch, 'email.lmx'), '--force']);
  await ok(sandbox, ['components', 'update', FOOTER, '--lmx-file', join(scratch, 'footer.lmx')]);
}

describe('a record deleted or changed in the account, restored from the tree', () => {
  it('is created anew or put back by content push --only <directory>, and a pull after changes no file', async () => {
    const sandbox = await sandboxes();
    const root = join(tempDir('loopsctl-restore-'), 'loops');
    await ok(sandbox, ['content', 'pull', root]);
    const before = snapshot(root);
    const workflow = recordPath(root, 'workflows', WELCOME_SERIES);
    const email = recordPath(root, 'transactional', PASSWORD_RESET);
    const footer = recordPath(root, 'components', FOOTER);
    await damage(sandbox);

    // An ordinary push sends nothing: the files did not change.
    const unnamed = await sandbox.loopsctl(['content', 'push', root, '--json']);
    expect(unnamed.code, unnamed.stderr).toBe(0);
    expect(unnamed.json().records.filter((record: { status: string }) => record.status !== 'unchanged')).toEqual([]);

    const diff = await sandbox.loopsctl(['content', 'diff', root, '--only', [workflow, email, footer].join(','), '--json']);
    expect(diff.code).toBe(1);
    expect(
      diff
        .json()
        .records.map((record: { path: string; standing: string }) => [record.path, record.standing])
        .sort(),
    ).toEqual(
      [
        [footer, 'remote'],
        [email, 'remote'],
        [workflow, 'missing'],
      ].sort(),
    );

    // Changed in the account: never overwritten without --force; named, it is held (exit 5), not passed over.
    const held = await sandbox.loopsctl(['content', 'push', root, '--only', `${email},${footer}`]);
    expect(held.code, held.stderr).toBe(5);
    expect(held.stderr).toBe('Pushed 0 records to Acme Sandbox; 0 unchanged, 2 conflicts.\n');
    expect(held.stdout).toContain("push it with --force to put the files' version back");

    const recreated = await sandbox.loopsctl(['content', 'push', root, '--only', workflow, '--yes']);
    expect(recreated.code, recreated.stderr).toBe(0);
    expect(recreated.stdout).toContain(`deleted in the account since the last pull (${WELCOME_SERIES}): created anew as a draft`);
    const newId = readState(root)!.accounts[ACCOUNT]![workflow]!.id;
    expect(newId).not.toBe(WELCOME_SERIES);
    expect(recreated.stdout).toContain(newId);

    const putBack = await sandbox.loopsctl(['content', 'push', root, '--only', `${email},${footer}`, '--force']);
    expect(putBack.code, putBack.stderr).toBe(0);
    expect(putBack.stdout.match(/put back as the files have it/g)).toHaveLength(2);

    // What the API cannot set stays to do in the app, and the tree keeps it: the workflow's emoji.
    expect(recreated.stdout).toContain('left to set in the app: the emoji 👋');
    const after = await sandbox.loopsctl(['content', 'diff', root, '--json']);
    expect(after.json().records.map((record: { path: string; standing: string; patch: string }) => [record.path, record.standing, record.patch])).toEqual([
      [workflow, 'local', '  ~ emoji: "" -> "👋"\n'],
    ]);
    const pull = await sandbox.loopsctl(['content', 'pull', root, '--json', '--only', 'transactional,campaigns,components,themes']);
    expect(pull.code, pull.stderr).toBe(0);
    expect(pull.json().records.filter((record: { status: string }) => record.status !== 'unchanged')).toEqual([]);
    expect(snapshot(root)).toEqual(before);
  });

  it('a workflow changed in the account is held without --force, and put back with it', async () => {
    const sandbox = await sandboxes();
    const root = join(tempDir('loopsctl-restore-'), 'loops');
    await ok(sandbox, ['content', 'pull', root, '--only', 'workflows']);
    const before = snapshot(root);
    const winBack = recordPath(root, 'workflows', WIN_BACK);
    await ok(sandbox, ['workflow', 'update', WIN_BACK, '--description', 'Oops']);
    const held = await sandbox.loopsctl(['content', 'push', root, '--only', winBack]);
    expect(held.code, held.stderr).toBe(5);
    expect(held.stderr).toBe('Not pushed: 1 workflow conflict; nothing of them was written (each line says why).\n');
    expect(held.stdout).toContain("push it with --force to put the files' version back");
    const putBack = await sandbox.loopsctl(['content', 'push', root, '--only', winBack, '--force']);
    expect(putBack.code, putBack.stderr).toBe(0);
    expect(putBack.stdout).toContain("put back as the files have it, over the account's change (--force)");
    const pull = await sandbox.loopsctl(['content', 'pull', root, '--only', 'workflows', '--json']);
    expect(pull.code, pull.stderr).toBe(0);
    expect(pull.json().records.filter((record: { status: string }) => record.status !== 'unchanged')).toEqual([]);
    expect(snapshot(root)).toEqual(before);
  });

  it('--only names record directories as diff prints them: anything else is a usage error (exit 2), and nothing is sent', async () => {
    const sandbox = await sandboxes();
    const root = join(tempDir('loopsctl-restore-'), 'loops');
    await ok(sandbox, ['content', 'pull', root, '--only', 'components']);
    const footer = recordPath(root, 'components', FOOTER);
    for (const [only, message] of [
      ['components/nothing--here', `--only: components/nothing--here is not a record directory of ${root}`],
      ['components/../..', '--only: "components/../.." is neither a kind nor a record directory'],
      [`elsewhere/${footer}`, `--only: "elsewhere/${footer}" is neither a kind nor a record directory`],
    ]) {
      const result = await sandbox.loopsctl(['content', 'push', root, '--only', only!, '--force']);
      expect([result.code, result.stderr], only).toEqual([2, expect.stringContaining(message!)]);
    }
    const pull = await sandbox.loopsctl(['content', 'pull', root, '--only', footer]);
    expect([pull.code, pull.stderr]).toEqual([2, expect.stringContaining(`--only: unknown kind "${footer}"`)]);
    expect(sandbox.requests.filter((request) => request.method !== 'GET')).toEqual([]);
  });
});
