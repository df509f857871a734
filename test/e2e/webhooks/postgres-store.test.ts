/**
 * The delivery store on a real PostgreSQL server the test starts (test/support/postgres.ts): the
 * behaviour every store keeps, and what only a server has to say (a wrong password, a host that
 * does not answer), never with the password in the message.
 */
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signWebhookEvent, webhookFixture } from '../../../src/webhooks/sign.js';
import { type DeliveryStore, openDeliveryStore } from '../../../src/webhooks/store/index.js';
import { openPostgres } from '../../../src/webhooks/store/postgres.js';
import type { SqlDatabase } from '../../../src/webhooks/store/sql.js';
import { commitsPerDelivery, describeDeliveryStore, received, watchedStore } from '../../support/delivery-store.js';
import { run, startRun } from '../../support/main.js';
import { POSTGRES_PASSWORD, type Postgres, postgresAvailable, startPostgres } from '../../support/postgres.js';

const available = postgresAvailable();
const SECRET = `whsec_${Buffer.from('the secret of the postgres store test').toString('base64')}`;
/** How many outcomes a statement keeps: an UPDATE of the journal each. */
const outcomesIn = (sql: string) => sql.split('UPDATE loopsctl_webhook_deliveries').length - 1;
/** How many deliveries a statement claims: several's ids are an array (the first of its parameters that is one), one's a value. */
const claimsIn = (params: readonly unknown[]) => (params.find(Array.isArray) as unknown[] | undefined)?.length ?? 1;
let server: Postgres;

/**
 * What each statement a store runs holds (`claims 2`, `outcomes 4`: its outcomes' parts, `outcomes
 * 1 and claims 1`), in order, and the watch (watchedStore) that writes it down.
 */
function statementsHeld(): { statements: string[]; watch: (db: SqlDatabase) => Partial<SqlDatabase> } {
  const statements: string[] = [];
  const watch = (db: SqlDatabase): Partial<SqlDatabase> => ({
    run: (sql, params = []) => {
      statements.push(`outcomes ${outcomesIn(sql)}`);
      return db.run(sql, params);
    },
    batch: (batch) => {
      const [sql, params] = batch[0]!;
      statements.push(outcomesIn(sql) > 0 ? `outcomes ${outcomesIn(sql)} and claims ${claimsIn(params)}` : `claims ${claimsIn(params)}`);
      return db.batch(batch);
    },
  });
  return { statements, watch };
}

/**
 * Waits until no backend is connected to `database`: a backend's counts reach the server's
 * statistics (pg_stat_database, pg_stat_user_tables) when it exits, before it leaves pg_stat_activity.
 */
const backendsGone = (monitor: import('pg').Client, database: string) =>
  vi.waitFor(async () => expect((await monitor.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [database])).rows[0].n).toBe(0), {
    timeout: 60_000,
    interval: 20,
  });

/**
 * A new database (its name and URL) and a monitor: a client connected to another database, so that
 * its own transactions and reads are not counted with the database's. Ended whatever `work` does.
 */
async function withMonitor(work: (database: { name: string; url: string }, monitor: import('pg').Client) => Promise<void>): Promise<void> {
  const name = await server.createDatabase();
  const { default: pg } = await import('pg');
  const monitor = new pg.Client({ connectionString: server.url() });
  await monitor.connect();
  try {
    await work({ name, url: server.url(name) }, monitor);
  } finally {
    await monitor.end();
  }
}

describe.runIf(available)('a PostgreSQL store', () => {
  beforeAll(async () => {
    server = await startPostgres();
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });

  describeDeliveryStore('PostgreSQL', async () => server.url(await server.createDatabase()));

  /** A store on a new database, on a pool of `maxConnections`, whose statements pass through `watch` (watchedStore). */
  async function watchedPostgres(maxConnections: number | undefined, watch: (db: SqlDatabase) => Partial<SqlDatabase>): Promise<DeliveryStore> {
    const url = server.url(await server.createDatabase());
    return watchedStore(await openPostgres(url, maxConnections), url, watch, { maxConnections });
  }

  it('creates its tables once when four connections open a new database at once', async () => {
    const url = server.url(await server.createDatabase());
    const stores = await Promise.all([1, 2, 3, 4].map(() => openDeliveryStore(url)));
    try {
      const claims = await Promise.all(stores.map((store) => store.claim(received('msg_once', 'email.opened', 'a@example.com', 100))));
      expect(claims.toSorted()).toEqual(['claimed', 'held', 'held', 'held']);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  it('commits at most twice a delivery, counted in pg_stat_database: the record and claim before the handler, the outcome after', () =>
    withMonitor(async ({ name, url }, monitor) => {
      // Once the store's backends are gone, their commits counted.
      const commits = async () => {
        await backendsGone(monitor, name);
        return Number((await monitor.query('SELECT xact_commit FROM pg_stat_database WHERE datname = $1', [name])).rows[0].xact_commit);
      };
      const spent = await commitsPerDelivery(() => openDeliveryStore(url), commits);
      // A redelivery: its claim, which takes nothing, and a read of where the delivery stands (which writes nothing).
      expect(spent).toEqual({ handled: 2, failed: 2, redelivered: 2 });
    }));

  /**
   * A new store, and the page of each delivery's row (its ctid's block) as it reads: a new version
   * on another page is an update that wrote every index.
   */
  async function withPages(work: (store: DeliveryStore, pages: () => Promise<{ webhook_id: string; page: number }[]>) => Promise<void>) {
    const url = server.url(await server.createDatabase());
    const store = await openDeliveryStore(url);
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await work(
        store,
        async () => (await client.query('SELECT webhook_id, (ctid::text::point)[0] AS page FROM loopsctl_webhook_deliveries ORDER BY webhook_id')).rows,
      );
    } finally {
      await client.end();
      await store.close();
    }
  }

  it("keeps an outcome on its delivery's own page (an update that writes no index), the journal's pages left with room for it", () =>
    withPages(async (store, pages) => {
      const ids = Array.from({ length: 60 }, (_, index) => `msg_page_${index}`);
      for (const [index, id] of ids.entries()) await store.claim(received(id, 'email.opened', `r${index}@example.com`, 1_700_000_000 + index));
      const before = await pages();
      for (const id of ids) await store.settle(id, { state: 'handled' });
      expect(await pages()).toEqual(before);
    }));

  it('keeps the outcomes of deliveries claimed together, kept together, on their own page', () =>
    withPages(async (store, pages) => {
      // Deliveries as the platform sends them (a signed fixture's body and headers), 48 at once, claimed and then settled together.
      const deliveries = Array.from({ length: 48 }, (_, index) => {
        const { headers, body } = signWebhookEvent(webhookFixture('email.opened'), SECRET, { id: `msg_together_${index}` });
        return { webhookId: `msg_together_${index}`, receivedAt: new Date(), headers, body, verified: true };
      });
      expect(await Promise.all(deliveries.map((delivery) => store.claim(delivery)))).toEqual(deliveries.map(() => 'claimed'));
      const before = await pages();
      // Several deliveries to a page: the page is theirs to share.
      expect(new Set(before.map((row) => row.page)).size).toBeLessThan(deliveries.length / 2);
      await Promise.all(deliveries.map((delivery) => store.settle(delivery.webhookId, { state: 'handled' })));
      expect(await pages()).toEqual(before);
    }));

  it('never scans the journal to claim or settle, alone or in groups, on a new journal or a grown one', () =>
    withMonitor(async ({ name, url }, monitor) => {
      const { default: pg } = await import('pg');
      // Once the store's backends are gone, their scans counted.
      const scans = async () => {
        await backendsGone(monitor, name);
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          return Number((await client.query("SELECT seq_scan FROM pg_stat_user_tables WHERE relname = 'loopsctl_webhook_deliveries'")).rows[0].seq_scan);
        } finally {
          await client.end();
        }
      };
      // The tables made (a migration may scan them) before the count starts.
      await (await openDeliveryStore(url)).close();
      const before = await scans();
      // One connection: the server plans each statement on it, and keeps the plans of those it runs five times.
      const store = await openDeliveryStore(url, { maxConnections: 1 });
      try {
        const at = (id: string) => received(id, 'email.opened', `${id}@example.com`, 100);
        const rounds = async (prefix: string) => {
          for (let round = 0; round < 8; round += 1) {
            const ids = [0, 1, 2, 3].map((index) => `${prefix}_${round}_${index}`);
            // The first alone, the others a group; their outcomes likewise; then outcomes and new claims in one statement.
            expect(await Promise.all(ids.map((id) => store.claim(at(id))))).toEqual(ids.map(() => 'claimed'));
            await Promise.all([...ids.slice(0, 2).map((id) => store.settle(id, { state: 'handled' })), store.claim(at(`${prefix}_${round}_more`))]);
            await Promise.all([...ids.slice(2).map((id) => store.settle(id, { state: 'handled' })), store.claim(at(`${prefix}_${round}_last`))]);
          }
        };
        await rounds('msg_small');
        // The journal grown past what the first plans were made for.
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          await client.query(
            `INSERT INTO loopsctl_webhook_deliveries (webhook_id, received_at, event_at, headers, body, verified)
             SELECT 'msg_grown_' || n, 1, 1, '{}', repeat('x', 1000), 1 FROM generate_series(1, 5000) AS n`,
          );
        } finally {
          await client.end();
        }
        await rounds('msg_large');
      } finally {
        await store.close();
      }
      expect(await scans()).toBe(before);
    }));

  it('claims the deliveries that come while others wait at the server on connections of their own, as many as maxConnections', async () => {
    const database = await server.createDatabase();
    const url = server.url(database);
    const { default: pg } = await import('pg');
    const store = await openDeliveryStore(url, { maxConnections: 3 });
    // Another instance's claims, not committed yet: a claim of the same id waits for them at the server.
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    // Read outside the other's transaction, which would see the server's activity as it was when it began.
    const monitor = new pg.Client({ connectionString: server.url() });
    await monitor.connect();
    const otherPid = (await other.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
    const storeBackends = async (waiting: boolean) =>
      (
        await monitor.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend' AND pid <> $2
           AND ($3 = false OR wait_event_type = 'Lock')`,
          [database, otherPid, waiting],
        )
      ).rows[0].n as number;
    try {
      await other.query('BEGIN');
      const at = (id: string) => received(id, 'email.opened', 'a@example.com', 100);
      const held = ['msg_held_0', 'msg_held_1', 'msg_held_2'];
      for (const id of held)
        await other.query(
          "INSERT INTO loopsctl_webhook_deliveries (webhook_id, received_at, event_at, headers, body, verified, claimed_at) VALUES ($1, 1, 1, '{}', '{}', 1, 1)",
          [id],
        );
      // One delivery a turn, each claimed beside the ones waiting at the server, on a connection of its own.
      const claims: Promise<string>[] = [];
      for (const [index, id] of held.entries()) {
        claims.push(store.claim(at(id)));
        await vi.waitFor(async () => expect(await storeBackends(true)).toBe(index + 1), { timeout: 30_000, interval: 10 });
      }
      // Every connection busy: two more wait in the store, together, and open none.
      let later = 0;
      const more = ['msg_more_0', 'msg_more_1'].map((id) => store.claim(at(id)).finally(() => (later += 1)));
      expect(await storeBackends(false)).toBe(3);
      expect(later).toBe(0);
      await other.query('ROLLBACK');
      expect(await Promise.all([...claims, ...more])).toEqual(['claimed', 'claimed', 'claimed', 'claimed', 'claimed']);
      expect(await storeBackends(false)).toBe(3);
    } finally {
      await Promise.all([other.end(), monitor.end()]);
      await store.close();
    }
  });

  it('claims and settles the deliveries that come while one runs a group a statement: a duplicate held, a refused one failing alone', async () => {
    const statements: number[] = [];
    let withOutcomes = 0;
    const store = await watchedPostgres(1, (db) => ({
      batch: (batch) => {
        const [sql, params] = batch[0]!;
        // A statement of claims and outcomes; else how many deliveries the claims' one statement holds.
        if (outcomesIn(sql) > 0) withOutcomes += 1;
        else statements.push(claimsIn(params));
        return db.batch(batch);
      },
    }));
    try {
      const at = (id: string) => received(id, 'email.opened', 'a@example.com', 100);
      const claims = await Promise.all([at('msg_g0'), at('msg_g1'), at('msg_g1'), at('msg_g2')].map((delivery) => store.claim(delivery)));
      expect(claims).toEqual(['claimed', 'claimed', 'held', 'claimed']);
      // The first at once, alone; the three that came while it ran in one statement, of their two distinct ids.
      expect(statements).toEqual([1, 2]);
      // Claimed and not yet settled: held, the group's where read after the claims that took none.
      expect(await Promise.all(['msg_g0', 'msg_g1', 'msg_g2'].map((id) => store.claim(at(id))))).toEqual(['held', 'held', 'held']);
      await Promise.all(['msg_g0', 'msg_g1', 'msg_g2'].map((id) => store.settle(id, { state: 'handled' })));
      expect(await Promise.all(['msg_g0', 'msg_g1', 'msg_g2'].map((id) => store.claim(at(id))))).toEqual(['handled', 'handled', 'handled']);
      // PostgreSQL refuses a NUL in text: that delivery fails, the others of its group are claimed.
      const answers = await Promise.allSettled(
        [at('msg_g3'), at('msg_g4'), { ...at('msg_g5'), body: 'not\u0000json' }, at('msg_g6')].map((delivery) => store.claim(delivery)),
      );
      expect(answers.map((answer) => (answer.status === 'fulfilled' ? answer.value : answer.reason.name))).toEqual([
        'claimed',
        'claimed',
        'DeliveryStoreError',
        'claimed',
      ]);
      // A group of outcomes and claims that fails on one claim: each is run again alone, the outcomes kept.
      const mixed = await Promise.allSettled([
        store.claim(at('msg_g7')),
        store.settle('msg_g3', { state: 'handled' }),
        store.claim({ ...at('msg_g8'), body: 'not\u0000json' }),
        store.settle('msg_g4', { state: 'failed', error: 'the mail provider timed out' }),
        store.claim(at('msg_g9')),
      ]);
      expect(mixed.map((answer) => (answer.status === 'fulfilled' ? (answer.value ?? 'kept') : answer.reason.name))).toEqual([
        'claimed',
        'kept',
        'DeliveryStoreError',
        'kept',
        'claimed',
      ]);
      expect(withOutcomes).toBe(1);
      expect(await store.claim(at('msg_g3'))).toBe('handled');
      // The failed outcome released its claim: the next delivery of that id takes it.
      expect(await store.claim(at('msg_g4'))).toBe('claimed');
      // Each group counted once a delivery, by its statement's trigger.
      expect((await store.stats())[0]).toMatchObject({ events: 8, opens: 8 });
      expect(await store.stats({}, 'day')).toEqual(await store.stats({ since: new Date(0) }, 'day'));
    } finally {
      await store.close();
    }
  });

  it("holds at most 64 claims and 16 outcomes a statement, a group's outcomes as a power of two of parts, those past them changing no row", async () => {
    const { statements, watch } = statementsHeld();
    const store = await watchedPostgres(1, watch);
    try {
      const ids = Array.from({ length: 70 }, (_, index) => `msg_many_${index}`);
      const at = (id: string) => received(id, 'email.opened', 'a@example.com', 100);
      statements.length = 0;
      expect(await Promise.all(ids.slice(0, 40).map((id) => store.claim(at(id))))).toEqual(ids.slice(0, 40).map(() => 'claimed'));
      // The first alone, the 39 that came while it ran as one: a claim's arrays have one plan at any number.
      expect(statements).toEqual(['claims 1', 'claims 39']);
      // Four outcomes: the first alone, the three that came while it ran as four parts, the fourth changing no row.
      statements.length = 0;
      await Promise.all(ids.slice(0, 4).map((id) => store.settle(id, { state: 'handled' })));
      expect(statements).toEqual(['outcomes 1', 'outcomes 4']);
      expect(await Promise.all(ids.slice(0, 5).map((id) => store.claim(at(id))))).toEqual(['handled', 'handled', 'handled', 'handled', 'held']);
      statements.length = 0;
      await Promise.all(ids.slice(4, 40).map((id) => store.settle(id, { state: 'handled' })));
      expect(statements).toEqual(['outcomes 1', 'outcomes 16', 'outcomes 16', 'outcomes 4']);
      // Outcomes and claims that come together: a statement takes the claims among its first 16 outcomes, the rest the next.
      statements.length = 0;
      const outcomes = Array.from({ length: 20 }, (_, index) => `msg_many_${index}`);
      const claims = ids.slice(40, 50);
      await Promise.all(
        outcomes.flatMap((id, index) => [store.settle(id, { state: 'handled' }), ...(index < claims.length ? [store.claim(at(claims[index]!))] : [])]),
      );
      expect(statements).toEqual(['outcomes 1', 'outcomes 16 and claims 10', 'outcomes 4']);
      statements.length = 0;
      expect(await Promise.all(ids.slice(0, 70).map((id) => store.claim(at(id))))).toEqual([
        ...ids.slice(0, 40).map(() => 'handled'),
        ...ids.slice(40, 50).map(() => 'held'),
        ...ids.slice(50).map(() => 'claimed'),
      ]);
      // The first alone, then at most 64 a statement.
      expect(statements.slice(0, 3)).toEqual(['claims 1', 'claims 64', 'claims 5']);
      expect((await store.stats())[0]).toMatchObject({ events: 70, opens: 70 });
    } finally {
      await store.close();
    }
  });

  it('keeps the outcomes and claims that come while one runs together in one statement, a redelivery after its outcome', async () => {
    const { statements, watch } = statementsHeld();
    const store = await watchedPostgres(undefined, watch);
    try {
      const at = (id: string) => received(id, 'email.opened', 'a@example.com', 100);
      for (const id of ['msg_w1', 'msg_w2']) expect(await store.claim(at(id))).toBe('claimed');
      statements.length = 0;
      // The first claim runs at once; an outcome and two claims of one id come while it runs, and go as one.
      const [first, , ...later] = await Promise.all([
        store.claim(at('msg_w3')),
        store.settle('msg_w1', { state: 'handled' }),
        store.claim(at('msg_w4')),
        store.claim(at('msg_w4')),
      ]);
      expect([first, ...later]).toEqual(['claimed', 'claimed', 'held']);
      expect(statements).toEqual(['claims 1', 'outcomes 1 and claims 1']);
      expect(await store.claim(at('msg_w1'))).toBe('handled');
      // A redelivery that waits with its delivery's outcome: the outcome is kept first, and the claim finds it handled.
      statements.length = 0;
      const [, , redelivered] = await Promise.all([store.claim(at('msg_w5')), store.settle('msg_w2', { state: 'handled' }), store.claim(at('msg_w2'))]);
      expect(redelivered).toBe('handled');
      expect(statements).toEqual(['claims 1', 'outcomes 1', 'claims 1']);
      expect((await store.stats())[0]).toMatchObject({ events: 5, opens: 5 });
    } finally {
      await store.close();
    }
  });

  it("reads no row back for a new delivery's claim, and reads where a redelivery stands after a claim that took nothing", async () => {
    const read: string[] = [];
    // What the store reads back: each claim's rows, and each statement read on its own.
    const store = await watchedPostgres(undefined, (db) => ({
      batch: async (batch) => {
        const results = await db.batch(batch);
        read.push(`claim: ${results.reduce((rows, result) => rows + result.rows.length, 0)}`);
        return results;
      },
      all: async (sql, params) => {
        const rows = await db.all(sql, params);
        read.push(`read: ${rows.length}`);
        return rows;
      },
    }));
    try {
      const at = received('msg_lone', 'email.opened', 'a@example.com', 100);
      read.length = 0;
      expect(await store.claim(at)).toBe('claimed');
      expect(read).toEqual(['claim: 0']);
      expect(await store.claim(at)).toBe('held');
      await store.settle('msg_lone', { state: 'handled' });
      expect(await store.claim(at)).toBe('handled');
      expect(read).toEqual(['claim: 0', 'claim: 0', 'read: 1', 'claim: 0', 'read: 1']);
    } finally {
      await store.close();
    }
  });

  it('refuses a maxConnections or keepDays that is not a whole number of 1 or more, before it connects', async () => {
    await expect(openDeliveryStore('postgres://app@127.0.0.1:9/deliveries', { maxConnections: 0 })).rejects.toThrow(
      new TypeError('maxConnections must be a whole number, 1 or more (got 0)'),
    );
    await expect(openDeliveryStore('postgres://app@127.0.0.1:9/deliveries', { keepDays: 1.5 })).rejects.toThrow(/^keepDays must be a whole number/);
  });

  it('says a password was refused, and where, without the password', async () => {
    const wrong = server.url().replace(POSTGRES_PASSWORD, 'not-the-password');
    const error = await openDeliveryStore(wrong).then(
      () => undefined,
      (thrown: Error) => thrown,
    );
    expect(error?.message).toMatch(/^the store postgres:\/\/\[redacted\]@127\.0\.0\.1:\d+\/postgres refused the user or password/);
    expect(error?.message).not.toContain('not-the-password');
  });

  it('says nothing listens where the URL points, without the password', async () => {
    const error = await openDeliveryStore(`postgres://app:s3cret-word@127.0.0.1:9/deliveries`).then(
      () => undefined,
      (thrown: Error) => thrown,
    );
    expect(error?.message).toBe('the store postgres://[redacted]@127.0.0.1:9/deliveries cannot be reached: nothing listens there (is PostgreSQL running?)');
  });

  it('says a server that takes the connection and never answers did not answer within 10 s, on the clock of the connection', async () => {
    const held: Socket[] = [];
    let startup: () => void = () => {};
    const started = new Promise<void>((resolve) => (startup = resolve));
    // Takes each connection and reads its first message (pg's startup), and never answers.
    const silent = createServer((socket) => {
      held.push(socket);
      socket.once('data', () => startup());
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { port } = silent.address() as AddressInfo;
      const opening = openDeliveryStore(`postgres://app:s3cret-word@127.0.0.1:${port}/deliveries`).then(
        () => undefined,
        (thrown: Error) => thrown,
      );
      await started;
      vi.advanceTimersByTime(10_000);
      expect((await opening)?.message).toBe(`the store postgres://[redacted]@127.0.0.1:${port}/deliveries did not answer within 10 s`);
    } finally {
      vi.useRealTimers();
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it("keeps a password given as ?password= (libpq's URI form) out of its location and its errors", async () => {
    const inQuery = (url: string, password: string) => `${url.replace(`:${POSTGRES_PASSWORD}@`, '@')}?password=${password}&application_name=journal`;
    const store = await openDeliveryStore(inQuery(server.url(await server.createDatabase()), POSTGRES_PASSWORD));
    try {
      expect(store.location).toMatch(/^postgres:\/\/\[redacted\]@127\.0\.0\.1:\d+\/\w+\?password=\[redacted\]&application_name=journal$/);
    } finally {
      await store.close();
    }
    const error = await openDeliveryStore(inQuery(server.url(), 'not-the-password-4711')).then(
      () => undefined,
      (thrown: Error) => thrown,
    );
    expect(error?.message).toMatch(/^the store postgres:\/\/\[redacted\]@127\.0\.0\.1:\d+\/postgres\?password=\[redacted\]&application_name=journal refused/);
    expect(error?.message).not.toContain('not-the-password-4711');
  });

  it('shows no ?password= in the banner of webhooks listen, nor in the errors of deliveries, as text or JSON', async () => {
    const url = `${server.url(await server.createDatabase()).replace(`:${POSTGRES_PASSWORD}@`, '@')}?password=${POSTGRES_PASSWORD}`;
    const listen = startRun(['webhooks', 'listen', '--store', url], { env: { LOOPS_WEBHOOK_SECRET: SECRET } });
    await listen.waitFor(/^\S+\n/);
    const { stderr } = await listen.stop();
    expect(stderr).toMatch(/Keeping every verified delivery in postgres:\/\/\[redacted\]@127\.0\.0\.1:\d+\/\w+\?password=\[redacted\]\./);
    const wrong = `${server.url().replace(`:${POSTGRES_PASSWORD}@`, '@')}?password=not-the-password-4711`;
    for (const json of [[], ['--json']]) {
      const result = await run(['deliveries', 'find', '--store', wrong, ...json]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('?password=[redacted] refused the user or password');
      expect(result.stderr + result.stdout).not.toContain('not-the-password-4711');
    }
  });
});
