import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedId } from '../../../../src/emulator/module.js';
import { run } from '../../../support/main.js';
import { type RecordingSandbox, recordingSandbox } from '../../../support/recording.js';

const BILLING = seedId('transactional-group/Billing');

describe('groups create and update', () => {
  let sandbox: RecordingSandbox;
  beforeEach(async () => {
    sandbox = await recordingSandbox();
  });
  afterEach(() => sandbox.close());

  it('create makes a group that lists and gets; the request fits the description', async () => {
    const created = await run(['groups', 'create', '--name', 'Receipts', '--description', 'Payment receipts', '--json'], { env: sandbox.env });
    expect(created.code).toBe(0);
    const group = created.json<{ id: string; name: string; description: string }>();
    expect(group).toMatchObject({ name: 'Receipts', description: 'Payment receipts' });
    expect(sandbox.requests.at(-1)!.body).toEqual({ name: 'Receipts', description: 'Payment receipts' });
    const got = await run(['groups', 'get', group.id, '--json'], { env: sandbox.env });
    expect(got.json()).toEqual(group);
    expect(sandbox.problems()).toEqual([]);
  });

  it('update sends only the fields given', async () => {
    const result = await run(['groups', 'update', BILLING, '--description', 'Receipts and invoices'], { env: sandbox.env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Receipts and invoices');
    expect(sandbox.requests.at(-1)!.body).toEqual({ description: 'Receipts and invoices' });
    expect(sandbox.problems()).toEqual([]);
  });

  const reserved = '"Unsorted" is reserved and cannot be given to a group.';
  it.each([
    [['groups', 'create', '--name', 'Unsorted'], reserved],
    [['groups', 'create', '--name', ' Unsorted\u200b'], reserved],
    [['groups', 'update', BILLING, '--name', 'Unsorted'], reserved],
    [['campaign-groups', 'create', '--name', 'Unsorted'], reserved],
    [['groups', 'create', '--name', '  '], 'a group name must not be empty, nor only spaces or invisible characters.'],
    [['groups', 'create', '--name', ' \u200b\u3164 '], 'a group name must not be empty, nor only spaces or invisible characters.'],
    [['campaign-groups', 'update', seedId('campaign-group/Newsletters'), '--name', '\u2800'], 'a group name must not be empty, nor only spaces'],
  ])('%j is refused before sending', async (argv, message) => {
    const result = await run(argv, { env: sandbox.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(sandbox.requests).toHaveLength(0);
  });

  it('update with nothing to change is a usage error', async () => {
    const result = await run(['groups', 'update', BILLING], { env: sandbox.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('nothing to update');
  });

  it('an unknown group is exit 4 with a hint at the list', async () => {
    const result = await run(['groups', 'update', 'nosuchgroup', '--name', 'X'], { env: sandbox.env });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('see the ids with `loopsctl groups list`');
  });

  it('the content API being off is explained', async () => {
    const result = await run(['groups', 'create', '--name', 'X'], { env: { ...sandbox.env, LOOPS_API_KEY: 'sandbox-no-content' } });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('content API is not enabled for this team');
  });
});
