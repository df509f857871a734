import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalFileError, UsageError } from '../../../src/base/errors.js';
import { transactionalEmails } from '../../../src/emulator/routes/transactional.js';
import { SEED_IDS, sandboxModules, seedState } from '../../support/sandbox.js';
import { startServer, type SandboxServer } from '../../../src/emulator/server.js';
import { defaultStatePath, readState, STATE_VERSION, withStateLock, writeState } from '../../../src/emulator/state.js';
import { membersOf, stateBytes } from '../../../src/emulator/state-text.js';
import { tempDir } from '../../support/temp.js';

const started: SandboxServer[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((sandbox) => sandbox.close()));
});

/** The seed with contacts enough to make its file larger than one that is parsed whole. */
function largeState() {
  const state = seedState();
  const [first] = state.contacts as { id: string; email: string }[];
  for (let index = 0; index < 1200; index += 1) (state.contacts as unknown[]).push({ ...first, id: `cgrown${index}`, email: `person${index}@example.com` });
  return state;
}

function tempFile(): string {
  return join(tempDir('loopsctl-sandbox-state-'), 'state.json');
}

async function start(stateFile: string, reset = false): Promise<SandboxServer> {
  const sandbox = await startServer({ stateFile, reset });
  started.push(sandbox);
  return sandbox;
}

async function request(sandbox: SandboxServer, method: string, path: string, body?: unknown) {
  const response = await fetch(sandbox.url + path, {
    method,
    headers: { authorization: 'Bearer sandbox-key', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

describe('sandbox state', () => {
  it('starts from the seed and writes it to the state file', async () => {
    const file = tempFile();
    await start(file);
    expect(readState(file, sandboxModules)).toEqual(seedState());
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('keeps changes across a restart, and --reset brings back the seed', async () => {
    const file = tempFile();
    const first = await start(file);
    const created = await request(first, 'POST', '/v1/transactional-emails', { name: 'Kept' });
    expect(created.status).toBe(201);
    await request(first, 'POST', `/v1/campaign-groups/${SEED_IDS.newslettersCampaignGroup}`, { name: 'Renamed' });
    await first.close();
    started.length = 0;

    const second = await start(file);
    expect((await request(second, 'GET', '/v1/transactional-emails')).body.data[0].id).toBe(created.body.id);
    expect((await request(second, 'GET', `/v1/campaign-groups/${SEED_IDS.newslettersCampaignGroup}`)).body.name).toBe('Renamed');
    // Ids go on from where the last run stopped.
    expect((await request(second, 'POST', '/v1/transactional-emails', { name: 'Next' })).body.id).not.toBe(created.body.id);
    await second.close();
    started.length = 0;

    const reset = await start(file, true);
    expect((await request(reset, 'GET', '/v1/transactional-emails')).body.pagination.totalResults).toBe(5);
    expect(readState(file, sandboxModules)).toEqual(seedState());
  });

  it('writes the file after each change, not only on close', async () => {
    const file = tempFile();
    const sandbox = await start(file);
    await request(sandbox, 'POST', '/v1/transactional-emails', { name: 'Written at once' });
    expect(transactionalEmails.of(readState(file, sandboxModules)!).map(({ record }) => record.name)).toContain('Written at once');
  });

  it('replaces the file by renaming a complete temporary file over it', () => {
    const file = tempFile();
    writeState(file, seedState());
    const inode = statSync(file).ino;
    const changed = { ...seedState(), teamName: 'Renamed team' };
    writeState(file, changed);
    expect(statSync(file).ino).not.toBe(inode);
    expect(readState(file, sandboxModules)).toEqual(changed);
    expect(readdirSync(join(file, '..'))).toEqual(['state.json']);
  });

  it('leaves the old file whole when a write fails', () => {
    const file = tempFile();
    writeState(file, seedState());
    const before = readFileSync(file, 'utf8');
    const unserializable = { ...seedState(), teamName: 10n } as never;
    expect(() => writeState(file, unserializable)).toThrow();
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(readdirSync(join(file, '..'))).toEqual(['state.json']);
  });

  it('brings a file of an older layout up to date: its data kept, a slice it lacks taken from the seed', () => {
    const file = tempFile();
    const { themes, segments, ...rest } = seedState();
    const older = { ...rest, version: 1, themes: [{ ...themes[0]!, name: 'Kept from layout 1' }, ...themes.slice(1)] };
    writeFileSync(file, JSON.stringify(older));
    const state = readState(file, sandboxModules)!;
    expect(state.version).toBe(STATE_VERSION);
    expect((state.themes as typeof themes)[0]!.name).toBe('Kept from layout 1');
    expect(state.segments).toEqual(segments);
  });

  it('names a corrupt or foreign state file and the way out', () => {
    const file = tempFile();
    for (const content of [
      '{"version": 1, "themes": [',
      JSON.stringify({ ...seedState(), version: 99 }),
      JSON.stringify({ ...seedState(), themes: [{ id: 1 }] }),
    ]) {
      writeFileSync(file, content);
      const error = (() => {
        try {
          readState(file, sandboxModules);
        } catch (thrown) {
          return thrown;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(LocalFileError);
      expect((error as LocalFileError).message).toContain(file);
      expect((error as LocalFileError).hint).toContain('loopsctl sandbox reset');
    }
  });

  it('checks a slice when a request first reads it: a request that does not is answered, one that does is told why the file is unusable', async () => {
    const file = tempFile();
    writeFileSync(file, JSON.stringify({ ...seedState(), themes: [{ id: 1 }] }));
    const refused: Error[] = [];
    const sandbox = await startServer({ stateFile: file, onStateError: (error) => refused.push(error) });
    started.push(sandbox);
    expect((await request(sandbox, 'GET', '/v1/lists')).status).toBe(200);
    expect(refused).toEqual([]);
    const themes = await request(sandbox, 'GET', '/v1/themes');
    expect(themes.status).toBe(500);
    expect(themes.body.message).toContain(`the sandbox state file ${file} could not be read: themes.0.id:`);
    expect(themes.body.message).toContain('loopsctl sandbox reset');
    expect(refused).toHaveLength(1);
    expect(refused[0]).toBeInstanceOf(LocalFileError);
  });

  it('parses a large file it wrote a slice at a time, as requests first read them', async () => {
    const file = tempFile();
    const large = largeState();
    writeState(file, large);
    expect(statSync(file).size).toBeGreaterThan(512 * 1024);
    const state = readState(file)!;
    expect(state.themes).toEqual(large.themes);
    // Not parsed until read: still the property that parses it.
    expect(Object.getOwnPropertyDescriptor(state, 'contacts')!.get).toBeDefined();
    expect(state.contacts).toEqual(large.contacts);
    expect(Object.getOwnPropertyDescriptor(state, 'contacts')!.get).toBeUndefined();
    const sandbox = await start(file);
    expect((await request(sandbox, 'GET', '/v1/themes')).status).toBe(200);
    expect((await request(sandbox, 'GET', '/v1/contacts/find?email=person1%40example.com')).body).toHaveLength(1);
  });

  it('writes the slices a change did not read as they were read, and the rest as JSON.stringify lays them out', async () => {
    const file = tempFile();
    const large = largeState();
    // Contacts on one line, as no write of loopsctl lays them out: kept so only if never parsed.
    const compact = Buffer.from(JSON.stringify(large.contacts));
    writeFileSync(
      file,
      stateBytes(large, (key) => (key === 'contacts' ? compact : undefined)),
      { mode: 0o600 },
    );
    const sandbox = await start(file);
    expect((await request(sandbox, 'POST', '/v1/transactional-emails', { name: 'Kept' })).status).toBe(201);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain(`  "contacts": ${compact.toString('utf8')}`);
    const written = JSON.parse(text);
    expect(written.contacts).toEqual(large.contacts);
    expect(JSON.stringify(written.transactionalEmails)).toContain('"Kept"');
    expect(membersOf(readFileSync(file))!.map(({ key }) => key)).toEqual(Object.keys(written).filter((key) => key !== 'index'));
  });

  it('reads a file edited by hand whole, without its stale index, and lays it out again on the next write', () => {
    const file = tempFile();
    writeState(file, largeState());
    for (const [from, to] of [
      ['"Acme Sandbox"', '"Acme Sandbox, renamed by hand"'],
      // The same length: every member is where it was, and only the digest tells.
      ['"person1@example.com"', '"person1@example.org"'],
    ]) {
      writeFileSync(file, readFileSync(file, 'utf8').replace(from!, to!));
      expect(membersOf(readFileSync(file))).toBeUndefined();
      const state = readState(file, sandboxModules)!;
      expect(JSON.stringify(state)).toContain(to!);
      expect(state).not.toHaveProperty('index');
      writeState(file, state);
      expect(membersOf(readFileSync(file))).toBeDefined();
      expect(readFileSync(file, 'utf8')).toContain(to!);
    }
  });

  it('reads a file an editor saved with a byte order mark, and writes it back without one', () => {
    const file = tempFile();
    writeState(file, seedState());
    writeFileSync(file, `\uFEFF${readFileSync(file, 'utf8').replace('"Acme Sandbox"', '"Équipe 👋"')}`);
    const state = readState(file, sandboxModules)!;
    expect(state).toEqual({ ...seedState(), teamName: 'Équipe 👋' });
    state.sequence += 1;
    writeState(file, state);
    expect(readFileSync(file)[0]).toBe('{'.charCodeAt(0));
    expect(membersOf(readFileSync(file))).toBeDefined();
    expect(readState(file, sandboxModules)).toEqual({ ...seedState(), teamName: 'Équipe 👋', sequence: 1 });
  });

  it('sees a change another program made in place just after its own write, though the file kept its size and time', async () => {
    const file = tempFile();
    const sandbox = await start(file);
    expect((await request(sandbox, 'POST', '/v1/transactional-emails', { name: 'Kept' })).status).toBe(201);
    // As when the edit falls within the step the file system's clock moves in (a few milliseconds).
    const { mtimeNs } = statSync(file, { bigint: true });
    writeFileSync(file, readFileSync(file, 'utf8').replace('"Acme Sandbox"', '"Acne Sandbox"'));
    execFileSync('touch', ['-m', '-d', `@${mtimeNs / 1_000_000_000n}.${String(mtimeNs % 1_000_000_000n).padStart(9, '0')}`, file]);
    expect(statSync(file, { bigint: true }).mtimeNs).toBe(mtimeNs);
    expect((await request(sandbox, 'GET', '/v1/api-key')).body.teamName).toBe('Acne Sandbox');
  });

  it('writes a slice set, or removed and set again, before it was ever parsed as its new value', () => {
    const file = tempFile();
    writeState(file, largeState());
    const state = readState(file)!;
    state.themes = [];
    delete state.segments;
    state.segments = [];
    writeState(file, state);
    expect(readState(file, sandboxModules)).toMatchObject({ themes: [], segments: [], campaigns: seedState().campaigns });
  });

  it('leaves an existing directory as it is (--state ./file.json), and writes the file 0600', () => {
    const directory = tempDir('loopsctl-sandbox-cwd-');
    chmodSync(directory, 0o755);
    const file = join(directory, 'state.json');
    writeState(file, seedState());
    expect(statSync(directory).mode & 0o777).toBe(0o755);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('creates a missing directory for the user alone', () => {
    const directory = join(tempDir('loopsctl-sandbox-new-'), 'a', 'b');
    writeState(join(directory, 'state.json'), seedState());
    expect(statSync(directory).mode & 0o777).toBe(0o700);
  });

  it('does not write when the state has not changed', () => {
    const file = tempFile();
    expect(writeState(file, seedState())).toBe(true);
    const inode = statSync(file).ino;
    expect(writeState(file, seedState())).toBe(false);
    expect(statSync(file).ino).toBe(inode);
  });

  it('replaces a symlink at the path instead of writing through it', () => {
    const file = tempFile();
    const elsewhere = join(tempDir('loopsctl-sandbox-link-'), 'target.json');
    writeFileSync(elsewhere, 'untouched', { mode: 0o644 });
    symlinkSync(elsewhere, file);
    writeState(file, seedState());
    expect(readFileSync(elsewhere, 'utf8')).toBe('untouched');
    expect(lstatSync(file).isSymbolicLink()).toBe(false);
    expect(readState(file, sandboxModules)).toEqual(seedState());
  });

  it('runs a read-modify-write under the state lock, and says who holds it when it stays taken', () => {
    const file = tempFile();
    expect(withStateLock(file, () => existsSync(`${file}.lock`))).toBe(true);
    expect(existsSync(`${file}.lock`)).toBe(false);
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: process.pid }));
    expect(() => withStateLock(file, () => undefined, { waitMs: 20 })).toThrow(LocalFileError);
    expect(() => withStateLock(file, () => undefined, { waitMs: 20 })).toThrow(`the sandbox state file ${file} is locked`);
  });

  it('lives in the config dir by default', () => {
    expect(defaultStatePath('/somewhere/loopsctl')).toBe(join('/somewhere/loopsctl', 'sandbox-state.json'));
  });
});

describe('sandbox over HTTP', () => {
  it('sends JSON answers with the status and Allow header the rules give', async () => {
    const sandbox = await start(tempFile());
    const themes = await request(sandbox, 'GET', '/v1/themes?perPage=10');
    expect(themes.status).toBe(200);
    expect(themes.headers.get('content-type')).toMatch(/^application\/json/);
    expect(themes.body.data).toHaveLength(10);
    const wrong = await request(sandbox, 'DELETE', '/v1/themes');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, POST');
    const huge = await request(sandbox, 'POST', '/v1/transactional-emails', { name: 'x'.repeat(4_200_000) });
    expect(huge.status).toBe(413);
  });
});

describe('sandbox listening', () => {
  it('reports a port in use, or an address not of this machine, as a usage error about --port and --host', async () => {
    const first = await start(tempFile());
    const port = Number(new URL(first.url).port);
    const busy = await startServer({ port }).catch((error: unknown) => error);
    expect(busy).toBeInstanceOf(UsageError);
    expect(busy).toMatchObject({ message: `the sandbox cannot listen on 127.0.0.1:${port}: the port is already in use`, exitCode: 2 });
    expect((busy as UsageError).hint).toContain('--port 0');

    const foreign = await startServer({ host: '203.0.113.9' }).catch((error: unknown) => error);
    expect(foreign).toBeInstanceOf(UsageError);
    expect((foreign as UsageError).message).toBe("the sandbox cannot listen on 203.0.113.9:0: the address is not one of this machine's");
  });
});
