/**
 * `loopsctl undo` refusing before it sends anything: a change applied to another account than the
 * key reaches, a change not kept here (by id, or a plan file applied elsewhere), and --expires
 * without the plan file it is the expiry of.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { imagesDirectory } from '../../../../src/config/before-images.js';
import { seedId } from '../../../../src/emulator/module.js';
import { tempDir } from '../../../support/main.js';
import { type RecordingSandbox, sandboxEachTest } from '../../../support/recording.js';

const BILLING = seedId('transactional-group/Billing');
const directories: string[] = [];
afterAll(() => directories.forEach((directory) => rmSync(directory, { recursive: true, force: true })));
const sandboxes = sandboxEachTest();

/** A group edit planned into a plan file of a config dir of its own. */
async function planned(sandbox: RecordingSandbox): Promise<{ plan: string; env: Record<string, string> }> {
  const directory = tempDir('loopsctl-undo-refusals-');
  directories.push(directory);
  const plan = join(directory, 'change.json');
  const env = { LOOPSCTL_CONFIG_DIR: join(directory, 'config') };
  const made = await sandbox.loopsctl(['groups', 'update', BILLING, '--name', 'Bills', '--plan', '--out', plan], { env });
  expect(made.code, made.stderr).toBe(0);
  return { plan, env };
}

const writes = (sandbox: RecordingSandbox) => sandbox.requests.filter((request) => request.method !== 'GET');

describe('undo refuses before it sends anything', () => {
  it('a change applied to another account than the key reaches, naming the profile it was applied with', async () => {
    const sandbox = await sandboxes();
    const { plan, env } = await planned(sandbox);
    const apply = await sandbox.loopsctl(['apply', plan], { env });
    expect(apply.code, apply.stderr).toBe(0);
    const id = /`loopsctl undo (\S+)` puts it back/.exec(apply.stderr)![1]!;
    const image = join(imagesDirectory(env.LOOPSCTL_CONFIG_DIR), `${id}.json`);
    const kept = JSON.parse(readFileSync(image, 'utf8')) as { account: { team: string; baseUrl: string; profile: string } };
    for (const account of [
      { ...kept.account, team: 'Another team' },
      { ...kept.account, baseUrl: 'https://app.loops.example/api' },
    ]) {
      writeFileSync(image, JSON.stringify({ ...kept, account }));
      sandbox.requests.length = 0;
      const undo = await sandbox.loopsctl(['undo', id, '--yes'], { env });
      expect(undo.code, undo.stderr).toBe(11);
      expect(undo.stderr).toContain(`${id} changed ${account.team} at ${account.baseUrl}, and this key reaches ${kept.account.team} at `);
      expect(undo.stderr).toContain(`undo it with the key it was applied with (profile ${kept.account.profile})`);
      expect(writes(sandbox)).toEqual([]);
    }
  });

  it('a change not kept here: an id never printed, a plan file not applied from here', async () => {
    const sandbox = await sandboxes();
    const { plan, env } = await planned(sandbox);
    // Another change applied from here: its before-image is kept, and is not the plan's.
    const other = join(env.LOOPSCTL_CONFIG_DIR, '..', 'other.json');
    const made = await sandbox.loopsctl(['groups', 'update', BILLING, '--name', 'Invoices', '--plan', '--out', other], { env });
    expect(made.code, made.stderr).toBe(0);
    const apply = await sandbox.loopsctl(['apply', other], { env });
    expect(apply.code, apply.stderr).toBe(0);
    sandbox.requests.length = 0;
    const byId = await sandbox.loopsctl(['undo', '20260101T000000Z-abcdef', '--yes'], { env });
    expect(byId.code).toBe(2);
    expect(byId.stderr).toContain('no change 20260101T000000Z-abcdef is kept here');
    expect(byId.stderr).toContain('see the changes kept with `loopsctl log`');
    const byPlan = await sandbox.loopsctl(['undo', plan, '--yes'], { env });
    expect(byPlan.code).toBe(2);
    expect(byPlan.stderr).toContain(`${plan} was not applied from here: no before-image of it is kept in ${imagesDirectory(env.LOOPSCTL_CONFIG_DIR)}`);
    expect(byPlan.stderr).toContain('undo it where it was applied, or pull and plan the change back by hand');
    expect(writes(sandbox)).toEqual([]);
  });

  it('--expires without --out', async () => {
    const sandbox = await sandboxes();
    const { plan, env } = await planned(sandbox);
    const undo = await sandbox.loopsctl(['undo', plan, '--expires', '1h'], { env });
    expect(undo.code).toBe(2);
    expect(undo.stderr).toContain('--expires is the expiry of a plan file: give --out <file> with it');
  });
});
