import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedId } from '../../../../src/emulator/module.js';
import { run } from '../../../support/main.js';
import { type RecordingSandbox, recordingSandbox } from '../../../support/recording.js';

describe('campaign-groups create', () => {
  let sandbox: RecordingSandbox;
  beforeEach(async () => {
    sandbox = await recordingSandbox();
  });
  afterEach(() => sandbox.close());

  it('makes a group that lists, with the body the description takes', async () => {
    const created = await run(['campaign-groups', 'create', '--name', 'Webinars'], { env: sandbox.env });
    expect(created.code).toBe(0);
    expect(created.stdout).toContain('Webinars');
    expect(sandbox.requests.at(-1)!.body).toEqual({ name: 'Webinars' });
    const listed = await run(['campaign-groups', 'list', '--json'], { env: sandbox.env });
    expect(listed.json<{ name: string }[]>()[0]!.name).toBe('Webinars');
    expect(sandbox.problems()).toEqual([]);
  });

  it('the Unsorted group still cannot be edited', async () => {
    const result = await run(['campaign-groups', 'update', seedId('campaign-group/Unsorted'), '--description', 'x'], { env: sandbox.env });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('cannot be edited');
  });
});
