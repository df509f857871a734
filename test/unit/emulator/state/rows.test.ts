/**
 * The slices a sandbox's state file keeps as rows (state/rows.ts), through the rows a request is
 * handed: found by id, by key and by place as they are now (changed since they were written or
 * not), the same object each time, and written back at the save only where they changed.
 */
import { join } from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { LocalFileError } from '../../../../src/base/errors.js';
import { z } from '../../../../src/base/shapes.js';
import { type QueuedJourney, rowsEnded } from '../../../../src/emulator/journey-rows.js';
import { type KeptRows, rowStoreOf, type StateCore } from '../../../../src/emulator/module.js';
import { openStateFile, readState, writeState } from '../../../../src/emulator/state/index.js';
import { ROWS_KEPT, readOnUse, SliceRows, type Statement, unparsed } from '../../../../src/emulator/state/rows.js';
import { sandboxModules, seedState } from '../../../support/sandbox.js';
import { queryState as query } from '../../../support/state-file.js';
import { tempDir } from '../../../support/temp.js';

type Row = Record<string, any>;

const contact = (id: string, email: string, userId: string | null = null): Row => ({ id, email, userId, firstName: null });
/** A journey of workflow wf_a, held at its node unless `fields` say otherwise. */
const journey = (id: string, fields: Row): Row => ({
  id,
  workflowId: 'wf_a',
  workflowName: 'A',
  contactId: `c_${id}`,
  email: `${id}@example.com`,
  status: 'waiting',
  nodeId: 'n1',
  waitUntil: null,
  startedAt: '2024-01-01T00:00:00.000Z',
  endedAt: null,
  eventName: null,
  eventProperties: {},
  downstreamFilters: [],
  steps: [],
  ...fields,
});
const at = (day: number) => `2024-01-0${day}T00:00:00.000Z`;
const byId = (journeys: Row[]) => Object.fromEntries(journeys.map((each) => [each.id, each]));

/** A state file holding these contacts (and the seed's other slices), open as a server holds it. */
function stateFile(contacts: Row[]) {
  const file = join(tempDir('loopsctl-state-rows-'), 'state.db');
  writeState(file, { ...seedState(), contacts });
  const database = openStateFile(file, () => {
    throw new Error('the state file is there');
  });
  /** Runs fn on the contacts' rows in one write transaction, saved at its end. */
  const change = <T>(fn: (rows: KeptRows<Row>, state: StateCore) => T, check: (row: unknown) => Row = (row) => row as Row): T =>
    database.transaction(true, (state) => {
      const result = fn(rowStoreOf(state)!.rows({ key: 'contacts', check })!, state);
      database.save(state);
      return result;
    });
  const stored = () => query(file, "SELECT id, key0, key1, value FROM rows WHERE slice = 'contacts' ORDER BY position");
  return { file, database, change, stored };
}

describe('a slice kept as rows', () => {
  it('finds a contact by userId, and keeps no userId key for one without', () => {
    const { change, stored } = stateFile([contact('c1', 'Ada@Example.com', 'ada-1'), contact('c2', 'bo@example.com')]);
    expect(stored().map(({ id, key0, key1 }) => [id, key0, key1])).toEqual([
      ['c1', 'ada@example.com', 'ada-1'],
      ['c2', 'bo@example.com', null],
    ]);
    change((rows) => {
      expect(rows.byKey(1, 'ada-1')?.id).toBe('c1');
      expect(rows.byId('c2')?.email).toBe('bo@example.com');
      expect(rows.byId('c2')).toBe(rows.byKey(0, 'bo@example.com'));
    });
  });

  it('finds a row by what it is now, not by what was written: changed, added or removed since', () => {
    const { change, stored } = stateFile([contact('c1', 'ada@example.com'), contact('c2', 'bo@example.com')]);
    change((rows) => {
      const ada = rows.byKey(0, 'ada@example.com')!;
      ada.email = 'ada@new.example.com';
      ada.id = 'c1b';
      expect(rows.byKey(0, 'ada@example.com')).toBeUndefined();
      expect(rows.byKey(0, 'ada@new.example.com')).toBe(ada);
      expect(rows.byId('c1')).toBeUndefined();
      expect(rows.byId('c1b')).toBe(ada);
      // Added, not yet written: found, after a row written before it with the same key.
      const added = contact('c3', 'cy@example.com');
      rows.add(added);
      expect(rows.byKey(0, 'cy@example.com')).toBe(added);
      expect(rows.byKey(0, 'nobody@example.com')).toBeUndefined();
      rows.add(contact('c4', 'bo@example.com'));
      expect(rows.byKey(0, 'bo@example.com')?.id).toBe('c2');
      const bo = rows.byId('c2')!;
      rows.remove(bo);
      expect(rows.byId('c2')).toBeUndefined();
      expect(rows.byKey(0, 'bo@example.com')?.id).toBe('c4');
    });
    expect(stored().map(({ id, key0 }) => [id, key0])).toEqual([
      ['c1b', 'ada@new.example.com'],
      ['c3', 'cy@example.com'],
      ['c4', 'bo@example.com'],
    ]);
  });

  it('lists the rows of a key as they are now, a row changed after a look-up wrote it included', () => {
    const { change, stored } = stateFile([contact('c1', 'ada@example.com', 'team'), contact('c2', 'bo@example.com', 'team'), contact('c3', 'cy@example.com')]);
    change((rows) => {
      const team = rows.allByKey(1, 'team');
      expect(team.map((row) => row.id)).toEqual(['c1', 'c2']);
      // The next look-up writes them (handed out, they may have changed); changed after it, they are found as they are.
      expect(rows.allByKey(1, 'team')).toEqual(team);
      team[0]!.userId = 'alone';
      team[1]!.firstName = 'Bo';
      expect(rows.allByKey(1, 'team').map((row) => row.id)).toEqual(['c2']);
    });
    expect(stored().map(({ id, key1, value }) => [id, key1, JSON.parse(String(value)).firstName])).toEqual([
      ['c1', 'alone', null],
      ['c2', 'team', 'Bo'],
      ['c3', null, null],
    ]);
  });

  it('hands out the same object for a row each time, and writes only the rows that changed', () => {
    const { change, file } = stateFile([contact('c1', 'ada@example.com'), contact('c2', 'bo@example.com')]);
    query(file, 'CREATE TABLE writes (what TEXT)');
    query(file, "CREATE TRIGGER logged AFTER UPDATE ON rows BEGIN INSERT INTO writes VALUES ('row ' || new.id); END");
    change((rows) => {
      expect(rows.byId('c1')).toBe(rows.byId('c1'));
      expect(rows.allByKey(0, 'bo@example.com')[0]).toBe(rows.byId('c2'));
      rows.byId('c2')!.firstName = 'Bo';
    });
    expect(query(file, 'SELECT what FROM writes').map((write) => write.what)).toEqual(['row c2']);
  });

  it('keeps the rows it read or wrote between transactions up to ROWS_KEPT, and past it reads them again as they are', () => {
    const { change } = stateFile([]);
    const added = (from: number, count: number) =>
      change((rows) => {
        for (let at = from; at < from + count; at += 1) rows.add(contact(`c${at}`, `c${at}@example.com`));
        return rows.byId(`c${from}`)!;
      });
    const first = added(0, ROWS_KEPT);
    expect(change((rows) => rows.byId('c0'))).toBe(first);
    const last = added(ROWS_KEPT, 1);
    const readAgain = change((rows) => rows.byId(`c${ROWS_KEPT}`));
    expect(readAgain).not.toBe(last);
    expect(readAgain).toEqual(last);
    // Read again, a row is the same object within its transaction, and changed through it is written.
    change((rows) => {
      expect(rows.byId('c0')).toBe(rows.byKey(0, 'c0@example.com'));
      rows.byId('c0')!.firstName = 'Ada';
    });
    expect(change((rows) => rows.byId('c0')!.firstName)).toBe('Ada');
  });

  it('keeps each row once when a request read more than ROWS_KEPT of them and the next one writes', () => {
    const many = Array.from({ length: ROWS_KEPT + 1 }, (_, at) => contact(`c${at}`, `c${at}@example.com`));
    const { change, database, stored } = stateFile(many);
    // A request that only reads, one row at a time: each row it was handed may have changed, and is written at the next save.
    database.transaction(false, (state) => {
      const rows = rowStoreOf(state)!.rows<Row>({ key: 'contacts', check: (row) => row as Row })!;
      for (const each of many) expect(rows.byId(each.id)?.email).toBe(each.email);
    });
    change((rows) => rows.add(contact('new', 'new@example.com')));
    const ids = stored().map(({ id }) => id);
    expect(ids).toHaveLength(ROWS_KEPT + 2);
    expect(new Set(ids).size).toBe(ROWS_KEPT + 2);
  });

  it('writes a row added then changed after a look-up wrote it', () => {
    const { change, stored } = stateFile([]);
    change((rows) => {
      const added = contact('c1', 'ada@example.com');
      rows.add(added);
      expect(rows.allByKey(0, 'ada@example.com')).toEqual([added]);
      added.firstName = 'Ada';
    });
    change((rows) => {
      rows.byId('c1')!.firstName = 'Ada L.';
      expect(rows.allByKey(0, 'ada@example.com')).toHaveLength(1);
      rows.byId('c1')!.userId = 'ada-1';
    });
    expect(stored().map(({ key1, value }) => [key1, JSON.parse(String(value)).firstName])).toEqual([['ada-1', 'Ada L.']]);
  });

  it('writes the slice read whole: the rows kept, changed, added and removed, and no other', () => {
    const { change, stored, file } = stateFile([contact('c1', 'ada@example.com'), contact('c2', 'bo@example.com'), contact('c3', 'cy@example.com')]);
    query(file, 'CREATE TABLE writes (what TEXT)');
    for (const [event, row] of [
      ['INSERT', "'row added ' || new.id"],
      ['UPDATE', "'row ' || new.id"],
      ['DELETE', "'row gone ' || old.id"],
    ])
      query(file, `CREATE TRIGGER logged_${event} AFTER ${event} ON rows BEGIN INSERT INTO writes VALUES (${row}); END`);
    change((rows, state) => {
      expect(rows.loaded()).toBe(false);
      const all = state.contacts as Row[];
      expect(rows.loaded()).toBe(true);
      all[0]!.firstName = 'Ada';
      all.splice(1, 1);
      all.push(contact('c4', 'di@example.com'));
    });
    expect(stored().map(({ id, value }) => [id, JSON.parse(String(value)).firstName])).toEqual([
      ['c1', 'Ada'],
      ['c3', null],
      ['c4', null],
    ]);
    expect(query(file, 'SELECT what FROM writes').map((write) => write.what)).toEqual(['row gone c2', 'row c1', 'row added c4']);
    // Read again on first use after the save, and changed again.
    change((rows, state) => {
      expect(rows.loaded()).toBe(false);
      (state.contacts as Row[]).pop();
    });
    expect(stored().map(({ id }) => id)).toEqual(['c1', 'c3']);
  });

  it('reads every row as it is now: those removed left out, those added in', () => {
    const { change } = stateFile([contact('c1', 'ada@example.com'), contact('c2', 'bo@example.com')]);
    change((rows) => {
      rows.remove(rows.byId('c1')!);
      rows.add(contact('c3', 'cy@example.com'));
      expect(rows.every().map((row) => row.id)).toEqual(['c2', 'c3']);
    });
  });

  it('reads the slice whole, checked, in a request that never asked for its rows', () => {
    const { database } = stateFile([contact('c1', 'ada@example.com')]);
    expect(database.transaction(false, (state) => state.contacts)).toEqual([contact('c1', 'ada@example.com')]);
  });

  it('reads journeys whole as the member kept them: ended and timer waits in time order, holds in start order', () => {
    const going = [
      journey('j3', { waitUntil: at(3) }),
      journey('jh1', {}),
      journey('j1', { waitUntil: at(1) }),
      journey('jh2', {}),
      journey('j2', { waitUntil: at(2) }),
    ];
    const ended = [journey('je2', { status: 'ended', nodeId: null, endedAt: at(2) }), journey('je1', { status: 'ended', nodeId: null, endedAt: at(1) })];
    const file = join(tempDir('loopsctl-state-rows-'), 'state.db');
    writeState(file, { ...seedState(), journeys: { journeys: byId(going), ended, waiting: [], held: {}, waitOrder: 0 } });
    expect(readState(file, sandboxModules)!.journeys).toEqual({
      journeys: byId(going),
      ended: [ended[1], ended[0]],
      waiting: [
        { until: at(1), journeyId: 'j1', order: 1 },
        { until: at(2), journeyId: 'j2', order: 2 },
        { until: at(3), journeyId: 'j3', order: 3 },
      ],
      held: { wf_a: ['jh1', 'jh2'] },
      waitOrder: 3,
    });
    // A member of the layout before, with no ended journeys, read back from its rows the same way.
    writeState(file, { ...seedState(), journeys: { journeys: byId([going[1]!]), waiting: [], held: {}, waitOrder: 0 } });
    expect(readState(file, sandboxModules)!.journeys).toEqual({ journeys: byId([going[1]!]), ended: [], waiting: [], held: { wf_a: ['jh1'] }, waitOrder: 0 });
  });

  it('finds journeys by place as they are now, a hold by its exact place', () => {
    const file = join(tempDir('loopsctl-state-rows-'), 'state.db');
    const [held] = Object.values((seedState().journeys as { journeys: Record<string, Row> }).journeys);
    const timed = { ...held!, id: 'jtimed', contactId: 'ctimed', waitUntil: '2024-01-05T00:00:00.000Z' };
    writeState(file, { ...seedState(), journeys: { journeys: { [held!.id]: held, jtimed: timed }, ended: [], waiting: [], held: {}, waitOrder: 0 } });
    const database = openStateFile(file, () => {
      throw new Error('the state file is there');
    });
    database.transaction(true, (state) => {
      const rows = rowStoreOf(state)!.rows<Row>({ key: 'journeys', check: (row) => row as Row })!;
      const hold = `h${held!.workflowId}`;
      expect(rows.placed(hold, `${hold}\u0000`).map((row) => row.id)).toEqual([held!.id]);
      const waits = rows.placed('t', 't~');
      expect(waits.map((row) => row.id)).toEqual(['jtimed']);
      // Written by this look-up, then ended: the next finds it by where it is now.
      expect(rows.placed('t', 't~')).toEqual(waits);
      Object.assign(waits[0]!, { status: 'ended', waitUntil: null, endedAt: '2024-01-05T00:00:00.000Z' });
      expect(rows.placed('t', 't~')).toEqual([]);
      expect(rows.placed(hold, `${hold}\u0000`).map((row) => row.id)).toEqual([held!.id]);
    });
  });

  it('removes the rows of a slice that left the state', () => {
    const { change, file } = stateFile([contact('c1', 'ada@example.com')]);
    change((_rows, state) => {
      delete state.contacts;
    });
    expect(query(file, "SELECT count(*) AS count FROM rows WHERE slice = 'contacts'")).toEqual([{ count: 0 }]);
    expect(query(file, "SELECT key FROM row_slices WHERE key = 'contacts'")).toEqual([]);
  });

  it('names the row that cannot be used, and why', () => {
    const { change, file } = stateFile([contact('c1', 'ada@example.com'), contact('c2', 'bo@example.com')]);
    const [first, second] = query(file, "SELECT position FROM rows WHERE slice = 'contacts' ORDER BY position").map((row) => Number(row.position));
    query(file, `UPDATE rows SET value = '{"id": "c1", "email": "ada@example.com", "lists": [7]}' WHERE position = ${first}`);
    query(file, `UPDATE rows SET value = '{"id": "c2", ' WHERE position = ${second}`);
    const refusal = (id: string, check?: (row: unknown) => Row) => {
      try {
        change((rows) => rows.byId(id), check);
      } catch (error) {
        expect(error).toBeInstanceOf(LocalFileError);
        return (error as Error).message;
      }
      return undefined;
    };
    const shape = (row: unknown) => z.object({ id: z.string(), email: z.string(), lists: z.array(z.string()) }).parse(row);
    const unusable = `the sandbox state file ${file} could not be read: contacts`;
    expect(refusal('c1', shape)).toMatch(new RegExp(`^${unusable} \\(the row at ${first}\\)\\.lists\\.0: .+`));
    expect(refusal('c2')).toBe(`${unusable} (the row at ${second}): it is not valid JSON`);
    expect(
      refusal('c1', () => {
        throw new Error('no');
      }),
    ).toBe(`${unusable} (the row at ${first})`);
  });

  it('reads a member when first read, or takes a value set before', () => {
    const state = {} as StateCore;
    let reads = 0;
    readOnUse(state, 'themes', () => {
      reads += 1;
      return ['read'];
    });
    readOnUse(state, 'segments', () => ['never read']);
    expect(unparsed(state, 'themes')).toBe(true);
    expect(state.themes).toEqual(['read']);
    expect(state.themes).toEqual(['read']);
    expect(reads).toBe(1);
    expect(unparsed(state, 'themes')).toBe(false);
    state.segments = ['set'];
    expect(unparsed(state, 'segments')).toBe(false);
    expect(state.segments).toEqual(['set']);
    delete state.themes;
    expect(state).not.toHaveProperty('themes');
    expect(unparsed(state, 'missing')).toBe(false);
  });
});

/**
 * A slice's rows as a server's store reads them, on a connection of the test's own: each SQL
 * statement they run is recorded, with the question it asked.
 */
function recordedRows(slice: 'contacts' | 'journeys' | 'outbox', state: StateCore) {
  const file = join(tempDir('loopsctl-state-rows-'), 'state.db');
  writeState(file, state);
  const database = new DatabaseSync(file);
  const asked: { sql: string; parameters: SQLInputValue[] }[] = [];
  const statement = (sql: string): Statement => {
    const prepared = database.prepare(sql);
    const recorded =
      (run: (...parameters: SQLInputValue[]) => unknown) =>
      (...parameters: SQLInputValue[]) => {
        asked.push({ sql, parameters });
        return run(...parameters);
      };
    return {
      run: recorded((...parameters) => prepared.run(...parameters)) as Statement['run'],
      get: recorded((...parameters) => prepared.get(...parameters)) as Statement['get'],
      all: recorded((...parameters) => prepared.all(...parameters)) as Statement['all'],
    };
  };
  const rows = new SliceRows<Row>(slice, statement, {} as StateCore, (reason) => new Error(reason)).bind({ key: slice, check: (row) => row as Row });
  return { rows, asked, database };
}

describe("the store's look-ups", () => {
  it('asks for the next place once until a row of the slice is written, then as the rows are now', () => {
    const state = {
      ...seedState(),
      journeys: { journeys: byId([journey('jh1', {}), journey('j3', { waitUntil: at(3) })]), ended: [], waiting: [], held: {}, waitOrder: 0 },
    };
    const { rows, asked } = recordedRows('journeys', state);
    const nextWait = () => rows.nextPlace('t', 't~');
    const placeAsked = () => asked.filter(({ sql }) => sql.startsWith('SELECT place')).length;
    expect(nextWait()).toBe(`t${at(3)}`);
    expect(nextWait()).toBe(`t${at(3)}`);
    expect(placeAsked()).toBe(1);
    // Another question is asked of its own.
    expect(rows.nextPlace('h', 'h~')).toBe('hwf_a');
    expect(placeAsked()).toBe(2);
    // A row handed out and changed is written before the next look-up, which then asks again.
    const [waiting] = rows.placed('t', 't~');
    waiting!.waitUntil = at(1);
    expect(nextWait()).toBe(`t${at(1)}`);
    expect(nextWait()).toBe(`t${at(1)}`);
    expect(placeAsked()).toBe(3);
    rows.add(journey('j2', { waitUntil: at(2) }));
    rows.remove(waiting!);
    expect(nextWait()).toBe(`t${at(2)}`);
    rows.remove(rows.byId('j2')!);
    expect(nextWait()).toBeUndefined();
    expect(placeAsked()).toBe(5);
  });

  it("finds a workflow's email to an address written with capitals by its recipient in lower case", () => {
    const sent = (kind: string, to: string) => ({ kind, at: at(1), to, journeyId: 'jgone', subject: 'Welcome' });
    const { rows } = recordedRows('outbox', { ...seedState(), outbox: [sent('workflow', 'Ada@Example.com'), sent('transactional', 'Ada@Example.com')] });
    // What a filter on what the contact was sent reads (routes/sandbox.ts's outboxEntriesFor): a send by no recipient.
    expect(rows.allByKey(1, 'ada@example.com').map((row) => row.kind)).toEqual(['workflow']);
  });

  it('keeps the newest ended journeys at each prune after the first, never wiping those it keeps', () => {
    const { rows } = recordedRows('journeys', { ...seedState(), journeys: { journeys: {}, ended: [], waiting: [], held: {}, waitOrder: 0 } });
    const owner = {};
    const endedAt = (index: number) => new Date(Date.UTC(2024, 0, 1, 0, 0, index)).toISOString();
    // Kept: 2, pruned past 4; eleven end one after the other, so that the prunes follow each other.
    for (let index = 1; index <= 11; index += 1) {
      rows.add(journey(`je${index}`, { status: 'ended', nodeId: null, endedAt: endedAt(index) }));
      rowsEnded(rows as unknown as KeptRows<QueuedJourney>, owner, 2, 4);
      const kept = rows.placed('e', 'e~').map((row) => row.id);
      expect(kept.length).toBeGreaterThanOrEqual(Math.min(index, 2));
      expect(kept.length).toBeLessThanOrEqual(4);
      expect(kept.at(-1)).toBe(`je${index}`);
    }
  });

  it('finds rows through an index, never by reading the slice: by id, by either key, by place', () => {
    const contacts = recordedRows('contacts', { ...seedState(), contacts: [contact('c1', 'ada@example.com', 'ada'), contact('c2', 'bo@example.com')] });
    expect(contacts.rows.byId('c2')?.email).toBe('bo@example.com');
    expect(contacts.rows.byKey(0, 'bo@example.com')?.id).toBe('c2');
    expect(contacts.rows.byKey(1, 'ada')?.id).toBe('c1');
    expect(contacts.rows.allByKey(1, 'ada').map((row) => row.id)).toEqual(['c1']);
    const journeys = recordedRows('journeys', {
      ...seedState(),
      journeys: { journeys: byId([journey('jh1', {}), journey('j3', { waitUntil: at(3) })]), ended: [], waiting: [], held: {}, waitOrder: 0 },
    });
    expect(journeys.rows.allByKey(0, 'c_jh1').map((row) => row.id)).toEqual(['jh1']);
    expect(journeys.rows.allByKey(1, 'wf_a').map((row) => row.id)).toEqual(['jh1', 'j3']);
    expect(journeys.rows.placed('t', 't~').map((row) => row.id)).toEqual(['j3']);
    expect(journeys.rows.nextPlace('h', 'h~')).toBe('hwf_a');
    expect(journeys.rows.countPlaced('e', 'e~')).toBe(0);
    const plans = [contacts, journeys].flatMap(({ asked, database }) =>
      asked
        .filter(({ sql }) => sql.startsWith('SELECT'))
        .map(({ sql, parameters }) => ({
          sql,
          plan: database
            .prepare(`EXPLAIN QUERY PLAN ${sql}`)
            .all(...parameters)
            .map((step) => String(step.detail)),
        })),
    );
    expect(plans.map(({ sql }) => sql)).toHaveLength(9);
    for (const { sql, plan } of plans)
      expect({ sql, plan: plan.filter((step) => !/^SEARCH rows USING (COVERING )?INDEX rows_by_/.test(step)) }).toEqual({ sql, plan: [] });
  });
});
