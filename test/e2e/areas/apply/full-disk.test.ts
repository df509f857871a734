/**
 * A full disk while `loopsctl apply` runs (simulated: every write of a local file refused with
 * ENOSPC, as the system refuses it; test/support/patch-builtin.ts), or a file larger than the
 * process may write (`ulimit -f`: EFBIG), is the machine's condition, said as such, naming the file
 * that could not be written (exit 2), never "a bug in loopsctl" (exit 70); and it leaves nothing
 * behind that keeps the next apply out.
 */
import fs from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedId } from '../../../../src/emulator/module.js';
import { tempDir } from '../../../support/main.js';
import { patchBuiltin } from '../../../support/patch-builtin.js';
import { type Recorded, sandboxEachTest } from '../../../support/recording.js';

const disk = { full: false, refusal: { code: 'ENOSPC', errno: -28, message: 'ENOSPC: no space left on device, write' } };

/** For the rest of the test, a write of a local file is refused while the disk is full. */
function guardWrites(): void {
  const refused = () => Object.assign(new Error(disk.refusal.message), { code: disk.refusal.code, errno: disk.refusal.errno, syscall: 'write' });
  const guarded = <F extends (...args: never[]) => unknown>(write: F): F =>
    ((...args: Parameters<F>) => {
      if (disk.full) throw refused();
      return write(...args);
    }) as F;
  patchBuiltin(fs, { writeSync: guarded, writeFileSync: guarded, appendFileSync: guarded });
}

const BILLING = seedId('transactional-group/Billing');
const sandboxes = sandboxEachTest();
const writes = (requests: Recorded[]) => requests.filter((request) => request.method !== 'GET');

describe('a full disk during apply', () => {
  it.each([
    { code: 'ENOSPC', errno: -28, message: 'ENOSPC: no space left on device, write', said: 'the disk is full', hint: 'free some space' },
    {
      code: 'EFBIG',
      errno: -27,
      message: 'EFBIG: file too large, write',
      said: 'it would be larger than this process may write (ulimit -f)',
      hint: 'ulimit -f',
    },
  ])('($code) ends with exit 2, the file named and what to do, not exit 70, before the first write and after it, and the next apply runs', async (refusal) => {
    disk.refusal = refusal;
    guardWrites();
    const sandbox = await sandboxes();
    const directory = tempDir('loopsctl-full-');
    const plan = join(directory, 'change.json');
    const env = { LOOPSCTL_CONFIG_DIR: join(directory, 'config') };
    const made = await sandbox.loopsctl(['groups', 'update', BILLING, '--description', 'Receipts', '--plan', '--out', plan], { env });
    expect(made.code, made.stderr).toBe(0);

    disk.full = true;
    const before = await sandbox.loopsctl(['apply', plan], { env }).finally(() => {
      disk.full = false;
    });
    expect(before.code, before.stderr).toBe(2);
    // The first file apply writes: the plan's lock, which keeps a second apply of it out.
    expect(before.stderr).toContain(`Error: ${plan}.lock could not be written: ${refusal.said} (${refusal.message})`);
    expect(before.stderr).toContain(refusal.hint);
    expect(writes(sandbox.requests)).toEqual([]);

    // The disk fills once the write is sent: what the apply keeps after it cannot be written.
    const recorded = sandbox.requests;
    const push = recorded.push.bind(recorded);
    recorded.push = (...items: Recorded[]) => {
      if (items.some((request) => request.method !== 'GET')) disk.full = true;
      return push(...items);
    };
    const during = await sandbox.loopsctl(['apply', plan], { env }).finally(() => {
      disk.full = false;
      recorded.push = push;
    });
    expect(during.code, during.stderr).not.toBe(70);
    // The first file it cannot write is named: the journal's, after the write it could not keep was sent.
    expect(during.stderr).toMatch(
      new RegExp(`Error: (.* )?${directory.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/\\S+ could not be written: ${refusal.said.replace(/[()]/g, '\\$&')}`),
    );
    expect(fs.existsSync(`${plan}.lock`)).toBe(false);
  });
});
