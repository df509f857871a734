import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openCore, type SandboxCore } from '../../../src/emulator/core.js';
import { takeFileLock } from '../../../src/base/lock.js';
import { seedId } from '../../../src/emulator/module.js';
import * as stateModule from '../../../src/emulator/state.js';
import { tempDir } from '../../support/temp.js';

vi.mock('../../../src/emulator/state.js', async (importOriginal) => {
  const real = await importOriginal<typeof stateModule>();
  return { ...real, readStateAndBytes: vi.fn(real.readStateAndBytes), saveState: vi.fn(real.saveState) };
});

const scratch = tempDir('loopsctl-core-');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function createEmail(core: SandboxCore, name: string): Promise<string> {
  const answer = await core.answer(
    {
      method: 'POST',
      target: '/v1/transactional-emails',
      headers: { authorization: 'Bearer sandbox-key', 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ name })),
    },
    'http://sandbox.invalid',
  );
  expect(answer.status).toBe(201);
  return (answer.body as { id: string }).id;
}

describe('a sandbox whose state is a file', () => {
  it('never takes a state it read for a file another process wrote while it read', async () => {
    const stateFile = join(scratch, 'race.json');
    const first = await openCore({ stateFile, rateLimit: false });
    const real = await vi.importActual<typeof stateModule>('../../../src/emulator/state.js');
    // The next process reads the file; just after, before it looks at the file again, another
    // process makes a record and writes the file anew.
    vi.mocked(stateModule.readStateAndBytes).mockImplementationOnce((file, modules) => {
      const read = real.readStateAndBytes(file, modules);
      const other = real.readState(file)!;
      other.sequence += 1;
      real.writeState(file, other);
      return read;
    });
    const second = await openCore({ stateFile, rateLimit: false });
    const id = await createEmail(second, 'After the other write');
    expect(id).not.toBe(seedId('created/1'));
    expect(id).toBe(seedId('created/2'));
    await Promise.all([first.close(), second.close()]);
  });
});

describe('a sandbox that delivers webhooks', () => {
  it('looks for due deliveries after a request without taking the state lock or writing the state', async () => {
    const stateFile = join(scratch, 'delivering.json');
    const failures: unknown[] = [];
    const core = await openCore({ stateFile, seed: 'empty', rateLimit: false, deliverWebhooks: true, onStateError: (error) => failures.push(error) });
    // Another process holds the lock: a look that took it would wait for it, then give up.
    const release = takeFileLock(stateFile);
    const written = vi.mocked(stateModule.saveState).mock.calls.length;
    try {
      const answer = await core.answer(
        { method: 'GET', target: '/v1/api-key', headers: { authorization: 'Bearer sandbox-key' }, body: Buffer.alloc(0) },
        'http://sandbox.invalid',
      );
      expect(answer.status).toBe(200);
      // The engine's look ran in the answer's turn (it has nothing to send): nothing was written.
      expect(vi.mocked(stateModule.saveState).mock.calls.length).toBe(written);
      expect(failures).toEqual([]);
    } finally {
      release();
      await core.close();
    }
  });
});
