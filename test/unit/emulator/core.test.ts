import fs, { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { lockFileFor, takeFileLock } from '../../../src/base/lock.js';
import { modulesFor, RouteTable } from '../../../src/emulator/api.js';
import { openCore, type SandboxCore } from '../../../src/emulator/core.js';
import type { ApiAnswer } from '../../../src/emulator/module.js';
import { createdId } from '../../../src/emulator/module.js';
import { writeState } from '../../../src/emulator/state/index.js';
import { SEQUENCE_BLOCK, StateDatabase, WATCH_AFTER } from '../../../src/emulator/state/store.js';
import { patchBuiltin } from '../../support/patch-builtin.js';
import { seedState } from '../../support/sandbox.js';
import { queryState, setMember } from '../../support/state-file.js';
import { tempDir } from '../../support/temp.js';
import { type ReceivedWebhook, startWebhookApp } from '../../support/webhook-app.js';

const scratch = tempDir('loopsctl-core-');
const SECRET = `whsec_${Buffer.from('a secret of the webhook app, 32 b').toString('base64')}`;
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function list(core: SandboxCore, target: string): Promise<ApiAnswer> {
  return core.answer({ method: 'GET', target, headers: { authorization: 'Bearer sandbox-key' }, body: Buffer.alloc(0) }, 'http://sandbox.invalid');
}

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
  it('leaves a state file another process made while it waited to make one: its records stay, and no id is handed out twice', async () => {
    const stateFile = join(scratch, 'together.db');
    const first = await openCore({ stateFile, rateLimit: false });
    expect(await createEmail(first, 'First')).toBe(createdId(1));
    // The second looked before the first made the file, and takes the lock to make it after the first's write:
    // until it holds the lock, it sees no state file.
    const restore = patchBuiltin(fs, {
      existsSync: (existsSync) => (path) => (path === stateFile && !existsSync(lockFileFor(stateFile)) ? false : existsSync(path)),
    });
    const second = await openCore({ stateFile, rateLimit: false }).finally(restore);
    // After the block of ids the first took ahead: an email takes three.
    expect(await createEmail(second, 'Second')).toBe(createdId(3 + SEQUENCE_BLOCK + 1));
    const names = (answer: ApiAnswer) => (answer.body as { data: { name: string }[] }).data.map((email) => email.name);
    expect(names(await list(second, '/v1/transactional-emails?perPage=50'))).toEqual(expect.arrayContaining(['First', 'Second']));
    await Promise.all([first.close(), second.close()]);
  });

  it('never hands out an id another process handed out since it last read the file', async () => {
    const stateFile = join(scratch, 'two.db');
    const first = await openCore({ stateFile, rateLimit: false });
    const second = await openCore({ stateFile, rateLimit: false });
    // Both have read the state; then each makes a record in turn, the second holding the state it read.
    expect(first.state().sequence).toBe(0);
    expect(second.state().sequence).toBe(0);
    // An email takes three ids (the email, its draft message and the draft's revision); each process goes on
    // after the block of ids the other took ahead, not from the count it read.
    expect(await createEmail(first, 'First')).toBe(createdId(1));
    expect(await createEmail(second, 'Second')).toBe(createdId(3 + SEQUENCE_BLOCK + 1));
    expect(await createEmail(first, 'Third')).toBe(createdId(2 * (3 + SEQUENCE_BLOCK) + 1));
    await Promise.all([first.close(), second.close()]);
  });
});

describe('the ids of the records a team makes', () => {
  it('are cuid-shaped, each its own, and sort in the order the records were made, across every length of the count', () => {
    const made = Array.from({ length: 2_000 }, (_, index) => createdId(index + 1));
    for (const id of made) expect(id).toMatch(/^c[a-z0-9]{24}$/);
    expect(new Set(made).size).toBe(made.length);
    expect([...made].sort()).toEqual(made);
    for (let length = 1; length < 8; length += 1) expect(createdId(36 ** length - 1) < createdId(36 ** length)).toBe(true);
  });

  it('given by a sandbox whose state is a file, sort in the order it made them', async () => {
    const core = await openCore({ stateFile: join(scratch, 'ordered.db'), seed: 'empty', rateLimit: false });
    const ids: string[] = [];
    for (let index = 0; index < 40; index += 1) ids.push(await createEmail(core, `Email ${index}`));
    expect([...ids].sort()).toEqual(ids);
    await core.close();
  });
});

describe('a sandbox that delivers webhooks', () => {
  it('looks for due deliveries after a request without taking the state lock or writing the state', async () => {
    const stateFile = join(scratch, 'delivering.db');
    const failures: unknown[] = [];
    const core = await openCore({ stateFile, seed: 'empty', rateLimit: false, deliverWebhooks: true, onStateError: (error) => failures.push(error) });
    // Another process holds the lock: a look that took it would wait for it, then give up.
    const release = takeFileLock(stateFile);
    const save = vi.spyOn(StateDatabase.prototype, 'save');
    try {
      const answer = await core.answer(
        { method: 'GET', target: '/v1/api-key', headers: { authorization: 'Bearer sandbox-key' }, body: Buffer.alloc(0) },
        'http://sandbox.invalid',
      );
      expect(answer.status).toBe(200);
      // The engine's look ran in the answer's turn (it has nothing to send): nothing was written.
      expect(save).not.toHaveBeenCalled();
      expect(failures).toEqual([]);
    } finally {
      release();
      save.mockRestore();
      await core.close();
    }
  });
  it("with no endpoint (webhooks off), looks for one after a request and for nothing due: no clock read but for the answer's Date, no run", async () => {
    const now = vi.fn(() => new Date());
    const core = await openCore({ stateFile: join(scratch, 'webhooks-off.db'), seed: 'empty', rateLimit: false, deliverWebhooks: true, now });
    try {
      const apiKey = { method: 'GET', target: '/v1/api-key', headers: { authorization: 'Bearer sandbox-key' }, body: Buffer.alloc(0) };
      expect((await core.answer(apiKey, 'http://sandbox.invalid')).status).toBe(200);
      await new Promise((resolve) => setImmediate(resolve));
      // The key's answer reads the time once, for its Date; a run would have read the clock again to find what is due.
      expect(now).toHaveBeenCalledTimes(1);
    } finally {
      await core.close();
    }
  });

  /** A server that delivers, and a `--sandbox` command on the same state file (no engine of its own). */
  async function serverAndCommand(name: string) {
    const app = await startWebhookApp(SECRET);
    const stateFile = join(scratch, name);
    const endpoint = { url: app.url, secret: SECRET, simulateEngagement: false };
    const server = await openCore({ stateFile, seed: 'empty', rateLimit: false, deliverWebhooks: true, webhookEndpoint: endpoint });
    const command = await openCore({ stateFile, rateLimit: false });
    const createContact = async (email: string) => {
      const body = Buffer.from(JSON.stringify({ email }));
      const headers = { authorization: 'Bearer sandbox-key', 'content-type': 'application/json' };
      expect((await command.answer({ method: 'POST', target: '/v1/contacts/create', headers, body }, 'http://sandbox.invalid')).status).toBe(200);
    };
    const delivered = (email: string) => app.waitFor(1, (delivery: ReceivedWebhook) => delivery.payload?.contactIdentity?.email === email);
    const close = async () => {
      await Promise.all([server.close(), command.close()]);
      await app.close();
    };
    return { server, createContact, delivered, close };
  }

  it('sends a delivery another process queued in its state file while it had no request to answer', async () => {
    const { createContact, delivered, close } = await serverAndCommand('queued-elsewhere.db');
    try {
      await createContact('idle@example.com');
      await delivered('idle@example.com');
    } finally {
      await close();
    }
  });

  it('sends a delivery another process queued while it answered requests, once they stop', async () => {
    const { server, createContact, delivered, close } = await serverAndCommand('queued-meanwhile.db');
    try {
      const answer = await server.answer(
        { method: 'GET', target: '/v1/api-key', headers: { authorization: 'Bearer sandbox-key' }, body: Buffer.alloc(0) },
        'http://sandbox.invalid',
      );
      expect(answer.status).toBe(200);
      // Written just after the answer, while the server's watch of the file is let go: it looks once it takes the watch again.
      await createContact('meanwhile@example.com');
      await delivered('meanwhile@example.com');
    } finally {
      await close();
    }
  });
});

describe('a sandbox that keeps a state file and logs', () => {
  const apiKey = { method: 'GET', target: '/v1/api-key', headers: { authorization: 'Bearer sandbox-key' }, body: Buffer.alloc(0) };

  it('reads the state once a request: the log line and the webhook engine read it as the request left it', async () => {
    const stateFile = join(scratch, 'read-once.db');
    const logged: string[] = [];
    const core = await openCore({ stateFile, seed: 'empty', rateLimit: false, deliverWebhooks: true, log: (line) => logged.push(line) });
    try {
      // The first of each loads the route modules it needs, which may take a transaction more.
      await core.answer(apiKey, 'http://sandbox.invalid');
      await createEmail(core, 'First');
      await new Promise((resolve) => setImmediate(resolve));
      const transaction = vi.spyOn(StateDatabase.prototype, 'transaction');
      try {
        expect((await core.answer(apiKey, 'http://sandbox.invalid')).status).toBe(200);
        // The request's own; before, the log's clock and the engine's looks took four more.
        expect(transaction).toHaveBeenCalledTimes(1);
        expect(logged.at(-1)).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z GET \/v1\/api-key 200 /);
        // A write, in a later turn: its own transaction too, and nothing more.
        await new Promise((resolve) => setImmediate(resolve));
        transaction.mockClear();
        await createEmail(core, 'Read once');
        expect(transaction).toHaveBeenCalledTimes(1);
        expect(logged.at(-1)).toMatch(/ POST \/v1\/transactional-emails 201 /);
      } finally {
        transaction.mockRestore();
      }
    } finally {
      await core.close();
    }
  });

  it('compiles the routes of a path once, and answers each request with its path’s modules alone', async () => {
    const core = await openCore({ stateFile: join(scratch, 'routes-once.db'), seed: 'empty', rateLimit: false });
    try {
      await createEmail(core, 'First');
      const include = vi.spyOn(RouteTable.prototype, 'include');
      try {
        for (const name of ['Second', 'Third', 'Fourth']) await createEmail(core, name);
        expect((await core.answer(apiKey, 'http://sandbox.invalid')).status).toBe(200);
        // The emails' path was asked before; the key's path compiles its own table, of its modules.
        expect(include).toHaveBeenCalledTimes(1);
        expect(include.mock.calls[0]![0]).toEqual(await modulesFor({ method: 'GET', path: '/v1/api-key' }));
        expect(include.mock.calls[0]![0]).not.toEqual(await modulesFor({ method: 'POST', path: '/v1/transactional-emails' }));
      } finally {
        include.mockRestore();
      }
    } finally {
      await core.close();
    }
  });

  it('lets go of what a read within a change saw when the change fails', async () => {
    const stateFile = join(scratch, 'read-in-failed-change.db');
    const core = await openCore({ stateFile, seed: 'empty', rateLimit: false });
    try {
      expect(() =>
        core.update((state) => {
          state.teamName = 'Never kept';
          expect(core.state().teamName).toBe('Never kept');
          throw new Error('the change fails');
        }),
      ).toThrow('the change fails');
      expect(core.state().teamName).toBe('Acme Sandbox');
    } finally {
      await core.close();
    }
  });

  it('reads another process’s change from the next turn of the event loop on', async () => {
    const stateFile = join(scratch, 'read-next-turn.db');
    const core = await openCore({ stateFile, seed: 'empty', rateLimit: false, log: () => {} });
    try {
      await core.answer(apiKey, 'http://sandbox.invalid');
      // The answer's turn: another process renames the team in it.
      expect((await core.answer(apiKey, 'http://sandbox.invalid')).body).toMatchObject({ teamName: 'Acme Sandbox' });
      setMember(stateFile, 'teamName', '"Renamed elsewhere"');
      expect(core.state().teamName).toBe('Acme Sandbox');
      await new Promise((resolve) => setImmediate(resolve));
      expect(core.state().teamName).toBe('Renamed elsewhere');
      expect((await core.answer(apiKey, 'http://sandbox.invalid')).body).toMatchObject({ teamName: 'Renamed elsewhere' });
    } finally {
      await core.close();
    }
  });
});

describe('a sandbox that keeps writing its state file', () => {
  const origin = 'http://sandbox.invalid';
  const create = (core: SandboxCore, email: string) =>
    core.answer(
      {
        method: 'POST',
        target: '/v1/contacts/create',
        headers: { authorization: 'Bearer sandbox-key', 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify({ email })),
      },
      origin,
    );
  const teamName = async (core: SandboxCore) =>
    (
      (await core.answer({ method: 'GET', target: '/v1/api-key', headers: { authorization: 'Bearer sandbox-key' }, body: Buffer.alloc(0) }, origin)).body as {
        teamName: string;
      }
    ).teamName;
  const created = (stateFile: string, email: string) =>
    queryState(stateFile, `SELECT count(*) AS found FROM rows WHERE slice = 'contacts' AND key0 = '${email}'`)[0]!.found;

  /** A sandbox that has written `writes` times, counting its looks at its path from then on. */
  async function writing(name: string, writes = WATCH_AFTER) {
    const stateFile = join(scratch, `${name}.db`);
    const core = await openCore({ stateFile, seed: 'empty', rateLimit: false });
    for (let at = 0; at < writes; at += 1) expect((await create(core, `before${at}@example.com`)).status).toBe(200);
    let looks = 0;
    patchBuiltin(fs, {
      lstatSync: (lstatSync) =>
        ((path: fs.PathLike, options?: fs.StatSyncOptions) => {
          if (path === stateFile) looks += 1;
          return lstatSync(path, options);
        }) as typeof lstatSync,
    });
    return { stateFile, core, looks: () => looks };
  }

  /** What another process does to replace the file: a database made beside it, renamed over it, its old journal gone. */
  function replace(stateFile: string, teamName: string): void {
    const other = `${stateFile}.other`;
    writeState(other, { ...seedState(), teamName });
    for (const leftover of ['-wal', '-shm']) rmSync(`${stateFile}${leftover}`, { force: true });
    fs.renameSync(other, stateFile);
  }

  it.runIf(process.platform === 'linux')('watches the file once it has written WATCH_AFTER times, and no longer looks at its path for each write', async () => {
    const { core, looks } = await writing('watched');
    try {
      for (let at = 0; at < 20; at += 1) expect((await create(core, `after${at}@example.com`)).status).toBe(200);
      expect(looks()).toBe(0);
      // A read still looks: it is answered in the turn its request came, before the watch is heard.
      await teamName(core);
      expect(looks()).toBe(1);
    } finally {
      await core.close();
    }
  });

  it('writes to the file another process put at its path, renamed over the one it had open', async () => {
    const { stateFile, core } = await writing('replaced');
    try {
      replace(stateFile, 'Replaced elsewhere');
      expect((await create(core, 'after@example.com')).status).toBe(200);
      expect(created(stateFile, 'after@example.com')).toBe(1);
      expect(await teamName(core)).toBe('Replaced elsewhere');
      // And again, once a write has watched the file put there.
      expect((await create(core, 'between@example.com')).status).toBe(200);
      replace(stateFile, 'Replaced again');
      expect((await create(core, 'again@example.com')).status).toBe(200);
      expect(created(stateFile, 'again@example.com')).toBe(1);
      expect(await teamName(core)).toBe('Replaced again');
    } finally {
      await core.close();
    }
  });

  it.runIf(process.platform === 'linux')('looks at its path again when the file was replaced just as its watch began', async () => {
    const { stateFile, core } = await writing('replaced-at-watch', WATCH_AFTER - 1);
    patchBuiltin(fs, {
      watch: (watch) =>
        ((path: string, ...rest: unknown[]) => {
          if (path === stateFile) replace(stateFile, 'Replaced as watched');
          return (watch as (...parameters: unknown[]) => fs.FSWatcher)(path, ...rest);
        }) as typeof watch,
    });
    try {
      // The write that starts the watch, made to the file it had open as the other was renamed over it.
      expect((await create(core, 'watching@example.com')).status).toBe(200);
      expect((await create(core, 'after@example.com')).status).toBe(200);
      expect(created(stateFile, 'after@example.com')).toBe(1);
      expect(await teamName(core)).toBe('Replaced as watched');
    } finally {
      await core.close();
    }
  });

  it('starts over from the seed when its file is removed', async () => {
    const { stateFile, core } = await writing('removed');
    try {
      for (const leftover of ['', '-wal', '-shm']) rmSync(`${stateFile}${leftover}`, { force: true });
      expect((await create(core, 'after@example.com')).status).toBe(200);
      expect(created(stateFile, 'after@example.com')).toBe(1);
      expect(created(stateFile, 'before0@example.com')).toBe(0);
    } finally {
      await core.close();
    }
  });
});
