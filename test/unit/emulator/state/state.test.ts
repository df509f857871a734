import { chmodSync, existsSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalFileError, UsageError } from '../../../../src/base/errors.js';
import { createdId, newId, rowStoreOf } from '../../../../src/emulator/module.js';
import { transactionalEmails } from '../../../../src/emulator/routes/transactional.js';
import { type SandboxServer, startServer } from '../../../../src/emulator/server.js';
import { defaultStatePath, openStateFile, readState, STATE_VERSION, withStateLock, writeState } from '../../../../src/emulator/state/index.js';
import { SEQUENCE_BLOCK } from '../../../../src/emulator/state/store.js';
import { SEED_IDS, sandboxModules, seedState } from '../../../support/sandbox.js';
import { tempDir } from '../../../support/temp.js';

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
  return join(tempDir('loopsctl-sandbox-state-'), 'state.db');
}

/** A file of the layout before the database: the state as JSON. */
function jsonFile(): string {
  return join(tempDir('loopsctl-sandbox-state-'), 'state.json');
}

/** Runs SQL on a state file as another program would. */
function query(file: string, sql: string, ...parameters: string[]) {
  const database = new DatabaseSync(file);
  try {
    return database.prepare(sql).all(...parameters);
  } finally {
    database.close();
  }
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

  it('makes a new file by renaming a complete database over the path, and writes an existing one in place', () => {
    const file = tempFile();
    writeState(file, seedState());
    expect(readdirSync(join(file, '..'))).toEqual(['state.db']);
    // Made without a journal, then set to WAL in the file itself: no process opening it changes it.
    expect([...readFileSync(file).subarray(18, 20)]).toEqual([2, 2]);
    const inode = statSync(file).ino;
    const changed = { ...seedState(), teamName: 'Renamed team' };
    writeState(file, changed);
    // In place, in one transaction: a server holding the file open sees it at its next request.
    expect(statSync(file).ino).toBe(inode);
    expect(readState(file, sandboxModules)).toEqual(changed);
    expect(readdirSync(join(file, '..'))).toEqual(['state.db']);
  });

  it('leaves the old state whole when a write fails', () => {
    const file = tempFile();
    writeState(file, seedState());
    const unserializable = { ...seedState(), teamName: 10n } as never;
    expect(() => writeState(file, unserializable)).toThrow();
    expect(readState(file, sandboxModules)).toEqual(seedState());
    expect(readdirSync(join(file, '..'))).toEqual(['state.db']);
  });

  it('brings a file of an older layout up to date: its data kept, a slice it lacks taken from the seed', () => {
    const file = jsonFile();
    const { themes, segments, ...rest } = seedState();
    const older = { ...rest, version: 1, themes: [{ ...themes[0]!, name: 'Kept from layout 1' }, ...themes.slice(1)] };
    writeFileSync(file, JSON.stringify(older));
    const state = readState(file, sandboxModules)!;
    expect(state.version).toBe(STATE_VERSION);
    expect((state.themes as typeof themes)[0]!.name).toBe('Kept from layout 1');
    expect(state.segments).toEqual(segments);
  });

  /** How the indexes of a state file's rows were made, by name. */
  const rowIndexes = (file: string) =>
    Object.fromEntries(query(file, "SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'rows'").map((row) => [row.name, row.sql]));
  const INDEXES_MADE = {
    rows_by_id: 'CREATE INDEX rows_by_id ON rows (slice, id)',
    rows_by_key0: 'CREATE INDEX rows_by_key0 ON rows (slice, key0)',
    rows_by_key1: 'CREATE INDEX rows_by_key1 ON rows (slice, key1) WHERE key1 IS NOT NULL',
    rows_by_place: 'CREATE INDEX rows_by_place ON rows (slice, place) WHERE place IS NOT NULL',
  };

  it("makes an earlier loopsctl's whole indexes partial at the file's first write, not at a read, and finds rows through them", async () => {
    const file = tempFile();
    writeState(file, seedState());
    // As a loopsctl that indexed every row made them.
    for (const [name, columns] of [
      ['rows_by_key1', 'slice, key1'],
      ['rows_by_place', 'slice, place'],
    ]) {
      query(file, `DROP INDEX ${name}`);
      query(file, `CREATE INDEX ${name} ON rows (${columns})`);
    }
    const whole = rowIndexes(file);
    const sandbox = await start(file);
    expect((await request(sandbox, 'GET', '/v1/contacts/find?email=ada%40example.com')).status).toBe(200);
    expect(rowIndexes(file)).toEqual(whole);
    expect((await request(sandbox, 'POST', '/v1/contacts/create', { email: 'new@example.com', userId: 'new-1' })).status).toBe(200);
    expect(rowIndexes(file)).toEqual(INDEXES_MADE);
    expect((await request(sandbox, 'GET', '/v1/contacts/find?userId=new-1')).body).toMatchObject([{ email: 'new@example.com' }]);
    // Indexes already as they should be are left as they are at another process's first write: the schema is not changed.
    const schemaVersion = () => query(file, 'PRAGMA schema_version');
    const schema = schemaVersion();
    await sandbox.close();
    const again = await start(file);
    expect((await request(again, 'POST', '/v1/contacts/create', { email: 'again@example.com' })).status).toBe(200);
    expect(schemaVersion()).toEqual(schema);
  });

  it('brings a database of layout 1 up to date at its first write: the rows get their places, and the indexes their shape', async () => {
    const file = tempFile();
    writeState(file, seedState());
    // Layout 1: no place of a row in its queues.
    query(file, 'DROP INDEX rows_by_place');
    query(file, 'ALTER TABLE rows DROP COLUMN place');
    query(file, 'PRAGMA user_version = 1');
    const sandbox = await start(file);
    expect((await request(sandbox, 'POST', '/v1/contacts/create', { email: 'new@example.com' })).status).toBe(200);
    expect(query(file, 'SELECT user_version AS layout FROM pragma_user_version')).toEqual([{ layout: 2 }]);
    expect(query(file, "SELECT name FROM pragma_table_info('rows') WHERE name = 'place'")).toEqual([{ name: 'place' }]);
    expect(rowIndexes(file)).toEqual(INDEXES_MADE);
    expect((await request(sandbox, 'GET', '/v1/contacts/find?email=new%40example.com')).body).toMatchObject([{ email: 'new@example.com' }]);
  });

  it('writes the counter of ids once a block of them, always past every id handed out, and goes on from it when read again', () => {
    const file = tempFile();
    writeState(file, seedState());
    query(file, 'CREATE TABLE writes (value TEXT)');
    query(file, "CREATE TRIGGER logged AFTER UPDATE ON members WHEN new.key = 'sequence' BEGIN INSERT INTO writes VALUES (new.value); END");
    const database = openStateFile(file, () => {
      throw new Error('the state file is there');
    });
    const made: string[] = [];
    const make = () =>
      database.transaction(true, (state) => {
        made.push(newId(state));
        database.save(state);
      });
    const start = readState(file, sandboxModules)!.sequence;
    for (let index = 0; index < SEQUENCE_BLOCK + 2; index += 1) make();
    // At the first id, a block past it; at the first id past that block, a block past that one.
    const written = start + 1 + SEQUENCE_BLOCK;
    expect(query(file, 'SELECT value FROM writes').map((write) => Number(write.value))).toEqual([written, written + 1 + SEQUENCE_BLOCK]);
    expect(made).toEqual(Array.from({ length: SEQUENCE_BLOCK + 2 }, (_, index) => createdId(start + index + 1)));
    // Another process reads the counter as written, past every id handed out.
    expect(readState(file, sandboxModules)!.sequence).toBe(written + 1 + SEQUENCE_BLOCK);
    database.close();
  });

  it("lets the write-ahead log grow past SQLite's 1,000 pages before a checkpoint", () => {
    const file = tempFile();
    writeState(file, seedState());
    const database = openStateFile(file, () => {
      throw new Error('the state file is there');
    });
    // The log's frames: a header of 32 bytes, then each page (4 KiB) after one of 24.
    const frames = () => (statSync(`${file}-wal`).size - 32) / (4096 + 24);
    // A commit a contact, as a server makes them one request at a time: several pages each.
    for (let index = 0; index < 600; index += 1)
      database.transaction(true, (state) => {
        rowStoreOf(state)!
          .rows({ key: 'contacts', check: (row) => row as object })!
          .add({ id: `cwal${index}`, email: `wal${index}@example.com`, userId: null });
        database.save(state);
      });
    // SQLite's own setting would have checkpointed at 1,000, then written the log again from its first frame.
    expect(frames()).toBeGreaterThan(1_500);
    database.close();
  });

  it('names a corrupt or foreign state file and the way out', () => {
    const refusal = (file: string) => {
      try {
        readState(file, sandboxModules);
      } catch (thrown) {
        return thrown;
      }
      return undefined;
    };
    const file = jsonFile();
    for (const content of [
      '{"version": 1, "themes": [',
      JSON.stringify({ ...seedState(), version: 99 }),
      JSON.stringify({ ...seedState(), themes: [{ id: 1 }] }),
    ]) {
      writeFileSync(file, content);
      const error = refusal(file);
      expect(error).toBeInstanceOf(LocalFileError);
      expect((error as LocalFileError).message).toContain(file);
      expect((error as LocalFileError).hint).toContain('loopsctl sandbox reset');
    }
    // A SQLite database of another program's, and one of a newer loopsctl's layout.
    const other = tempFile();
    query(other, 'CREATE TABLE notes (text TEXT)');
    expect((refusal(other) as LocalFileError).message).toBe(
      `the sandbox state file ${other} could not be read: it is a SQLite database, but not a sandbox state`,
    );
    const newer = tempFile();
    writeState(newer, seedState());
    query(newer, 'PRAGMA user_version = 99');
    expect((refusal(newer) as LocalFileError).message).toContain('it was written by a newer loopsctl (store layout 99');
    const damagedSlice = tempFile();
    writeState(damagedSlice, seedState());
    query(damagedSlice, "UPDATE members SET value = '[{\"id\": 1}]' WHERE key = 'themes'");
    expect((refusal(damagedSlice) as LocalFileError).message).toContain(`the sandbox state file ${damagedSlice} could not be read: themes.0.id:`);
    // A clock behind the system's: the sandbox's time would run before what it already dated.
    const clockBehind = tempFile();
    writeState(clockBehind, { ...seedState(), clock: { frozenAt: null, offsetMs: -60_000 } });
    expect((refusal(clockBehind) as LocalFileError).message).toContain(`the sandbox state file ${clockBehind} could not be read: clock.offsetMs:`);
  });

  it('checks a slice when a request first reads it: a request that does not is answered, one that does is told why the file is unusable', async () => {
    const file = jsonFile();
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

  it("checks a workflow's nodes when a request first reads them: a listing is answered, a request for the workflow is told why", async () => {
    const file = tempFile();
    const state = seedState();
    const [first, ...others] = state.workflows as { id: string; nodes: unknown[] }[];
    writeState(file, { ...state, workflows: [first!, { ...others[0]!, nodes: [{ id: 1 }] }, ...others.slice(1)] });
    const refused: Error[] = [];
    const sandbox = await startServer({ stateFile: file, onStateError: (error) => refused.push(error) });
    started.push(sandbox);
    const listed = await request(sandbox, 'GET', '/v1/workflows');
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength((state.workflows as unknown[]).length);
    expect((await request(sandbox, 'GET', `/v1/workflows/${first!.id}`)).status).toBe(200);
    expect(refused).toEqual([]);
    const shown = await request(sandbox, 'GET', `/v1/workflows/${others[0]!.id}`);
    expect(shown.status).toBe(500);
    expect(shown.body.message).toContain(`the sandbox state file ${file} could not be read: workflows.1.nodes.0.typeName:`);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toBeInstanceOf(LocalFileError);
    // Read again, the same answer: the nodes stay unchecked until they pass.
    expect((await request(sandbox, 'GET', `/v1/workflows/${others[0]!.id}`)).status).toBe(500);
  });

  it("checks a workflow's email metrics when a request first reads them", async () => {
    const file = tempFile();
    const state = seedState();
    const [first, ...others] = state.workflows as { id: string; nodes: { id: string; typeName: string }[] }[];
    const email = first!.nodes.find((node) => node.typeName === 'SendEmailAction')!;
    writeState(file, { ...state, workflows: [{ ...first!, emailMetrics: { [email.id]: { sends: 'many' } } }, ...others] });
    const refused: Error[] = [];
    const sandbox = await startServer({ stateFile: file, onStateError: (error) => refused.push(error) });
    started.push(sandbox);
    expect((await request(sandbox, 'GET', '/v1/workflows')).status).toBe(200);
    expect(refused).toEqual([]);
    const metrics = await request(sandbox, 'GET', `/v1/workflows/${first!.id}/nodes/${email.id}/metrics`);
    expect(metrics.status).toBe(500);
    expect(metrics.body.message).toContain(`could not be read: workflows.0.emailMetrics.${email.id}.sends:`);
  });

  it('reads each slice when first used, and contacts a row at a time', async () => {
    const file = tempFile();
    const large = largeState();
    writeState(file, large);
    expect(query(file, "SELECT count(*) AS rows FROM rows WHERE slice = 'contacts'")).toEqual([{ rows: (large.contacts as unknown[]).length }]);
    const state = readState(file)!;
    // Not parsed until read: still the property that parses it.
    expect(Object.getOwnPropertyDescriptor(state, 'contacts')!.get).toBeDefined();
    expect(state.themes).toEqual(large.themes);
    expect(state.contacts).toEqual(large.contacts);
    expect(Object.getOwnPropertyDescriptor(state, 'contacts')!.get).toBeUndefined();
    const sandbox = await start(file);
    expect((await request(sandbox, 'GET', '/v1/themes')).status).toBe(200);
    expect((await request(sandbox, 'GET', '/v1/contacts/find?email=PERSON1%40example.com')).body).toMatchObject([{ id: 'cgrown1' }]);
  });

  it('writes what a change changed: a contact created is one row more, one updated its row, and no other slice is written', async () => {
    const file = tempFile();
    // No workflow, so that no journey starts or ends: the contacts alone change.
    writeState(file, { ...largeState(), seed: 'empty', workflows: [], journeys: { journeys: {}, ended: [], waiting: [], held: {}, waitOrder: 0 } });
    // Every write to the file, as SQLite itself sees it, written down beside it.
    query(file, 'CREATE TABLE writes (what TEXT)');
    for (const [table, event, name] of [
      ['members', 'INSERT', "'member ' || new.key"],
      ['members', 'UPDATE', "'member ' || new.key"],
      ['members', 'DELETE', "'member gone ' || old.key"],
      ['rows', 'INSERT', "'row added ' || new.id"],
      ['rows', 'UPDATE', "'row ' || new.id"],
      ['rows', 'DELETE', "'row gone ' || old.id"],
    ])
      query(file, `CREATE TRIGGER logged_${table}_${event} AFTER ${event} ON ${table} BEGIN INSERT INTO writes VALUES (${name}); END`);
    const sandbox = await start(file);
    expect((await request(sandbox, 'POST', '/v1/contacts/create', { email: 'new@example.com' })).status).toBe(200);
    const made = query(file, "SELECT id FROM rows WHERE value LIKE '%new@example.com%'")[0]!.id;
    expect(query(file, 'SELECT what FROM writes').map((write) => write.what)).toEqual(['member sequence', `row added ${made}`]);
    query(file, 'DELETE FROM writes');
    expect((await request(sandbox, 'PUT', '/v1/contacts/update', { email: 'person7@example.com', firstName: 'Renamed' })).status).toBe(200);
    expect(query(file, 'SELECT what FROM writes').map((write) => write.what)).toEqual(['row cgrown7']);
    query(file, 'DELETE FROM writes');
    expect((await request(sandbox, 'POST', '/v1/contacts/delete', { email: 'person8@example.com' })).status).toBe(200);
    expect(query(file, 'SELECT what FROM writes').map((write) => write.what)).toEqual(['row gone cgrown8']);
    const contacts = readState(file, sandboxModules)!.contacts as { email: string; firstName: string | null }[];
    expect(contacts).toHaveLength((largeState().contacts as unknown[]).length);
    expect(contacts.find((contact) => contact.email === 'person7@example.com')!.firstName).toBe('Renamed');
    expect(contacts.at(-1)!.email).toBe('new@example.com');
  });

  it('reads a file of the layout before the database whole, without its index, and writes a database at the first change', async () => {
    const file = jsonFile();
    const older = { index: { memberBytes: [1], sha256: 'stale' }, ...seedState(), teamName: 'Acme Sandbox, renamed by hand' };
    writeFileSync(file, JSON.stringify(older, null, 2));
    const state = readState(file, sandboxModules)!;
    expect(state.teamName).toBe('Acme Sandbox, renamed by hand');
    expect(state).not.toHaveProperty('index');
    const sandbox = await start(file);
    expect((await request(sandbox, 'POST', '/v1/transactional-emails', { name: 'Kept' })).status).toBe(201);
    expect(readFileSync(file).subarray(0, 15).toString('latin1')).toBe('SQLite format 3');
    expect(readState(file, sandboxModules)!.teamName).toBe('Acme Sandbox, renamed by hand');
  });

  it('takes the JSON file an older loopsctl kept in the config dir, and removes it once the database is written', async () => {
    const configDir = tempDir('loopsctl-sandbox-older-');
    writeFileSync(join(configDir, 'sandbox-state.json'), JSON.stringify({ ...seedState(), teamName: 'Kept from before' }), { mode: 0o600 });
    const file = defaultStatePath(configDir);
    expect(readState(file, sandboxModules)!.teamName).toBe('Kept from before');
    const sandbox = await start(file);
    expect((await request(sandbox, 'GET', '/v1/api-key')).body.teamName).toBe('Kept from before');
    expect((await request(sandbox, 'POST', '/v1/transactional-emails', { name: 'Kept' })).status).toBe(201);
    expect(readdirSync(configDir).filter((name) => !name.endsWith('.lock'))).toEqual(['sandbox-state.db']);
    expect(readState(file, sandboxModules)!.teamName).toBe('Kept from before');
  });

  it('reads a JSON file an editor saved with a byte order mark', () => {
    const file = jsonFile();
    writeFileSync(file, `\uFEFF${JSON.stringify({ ...seedState(), teamName: 'Équipe 👋' })}`);
    expect(readState(file, sandboxModules)).toEqual({ ...seedState(), teamName: 'Équipe 👋' });
  });

  it("refuses a state whose own members are wrong, in zod's words, and reads one whose are right", () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ version: 1.5 }, 'version: Invalid input: expected int, received number'],
      [{ teamName: 42 }, 'teamName: Invalid input: expected string, received number'],
      [{ sequence: -1 }, 'sequence: Too small: expected number to be >=0'],
      [{ sequence: 2.5 }, 'sequence: Invalid input: expected int, received number'],
      [{ sequence: '3' }, 'sequence: Invalid input: expected number, received string'],
    ];
    for (const [wrong, problem] of cases) {
      const file = jsonFile();
      writeFileSync(file, JSON.stringify({ ...seedState(), ...wrong }));
      expect(() => readState(file, sandboxModules), JSON.stringify(wrong)).toThrow(problem);
    }
    const file = jsonFile();
    writeFileSync(file, JSON.stringify({ ...seedState(), sequence: 7 }));
    expect(readState(file, sandboxModules)!.sequence).toBe(7);
  });

  it('sees a change another process made, at its next request', async () => {
    const file = tempFile();
    const sandbox = await start(file);
    expect((await request(sandbox, 'POST', '/v1/transactional-emails', { name: 'Kept' })).status).toBe(201);
    query(file, `UPDATE members SET value = '"Acne Sandbox"' WHERE key = 'teamName'`);
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

  it('leaves an existing directory as it is (--state ./file.db), and writes the file 0600', () => {
    const directory = tempDir('loopsctl-sandbox-cwd-');
    chmodSync(directory, 0o755);
    const file = join(directory, 'state.db');
    writeState(file, seedState());
    expect(statSync(directory).mode & 0o777).toBe(0o755);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('creates a missing directory for the user alone', () => {
    const directory = join(tempDir('loopsctl-sandbox-new-'), 'a', 'b');
    writeState(join(directory, 'state.db'), seedState());
    expect(statSync(directory).mode & 0o777).toBe(0o700);
  });

  it('replaces a symlink at the path instead of writing through it', () => {
    const file = tempFile();
    const elsewhere = join(tempDir('loopsctl-sandbox-link-'), 'target.db');
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
    expect(defaultStatePath('/somewhere/loopsctl')).toBe(join('/somewhere/loopsctl', 'sandbox-state.db'));
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
