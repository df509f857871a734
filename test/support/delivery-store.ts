/**
 * The behaviour every delivery store keeps, whatever its database: run by the SQLite store's
 * tests and the PostgreSQL store's, each with a way to open a fresh store.
 */
import { describe, expect, it, vi } from 'vitest';
import { isSendEvent } from '../../src/platform/webhooks/event-names.js';
import type { ReceivedDelivery } from '../../src/webhooks/delivery-store.js';
import { webhookHandler } from '../../src/webhooks/handler.js';
import { signWebhookEvent, webhookFixture } from '../../src/webhooks/sign.js';
import {
  type DeliveryFilter,
  type DeliveryStats,
  DeliveryStore,
  type DeliveryStoreOptions,
  openDeliveryStore,
  type StatsBy,
} from '../../src/webhooks/store/index.js';
import { openPostgres } from '../../src/webhooks/store/postgres.js';
import { DAY_MS, migrate, migrations, type SqlDatabase } from '../../src/webhooks/store/sql.js';
import { openSqlite } from '../../src/webhooks/store/sqlite.js';

/** The URL of a new, empty store: `sqlite:<file>` or `postgres://…`. */
export type FreshStore = () => Promise<string>;

/** The database under a store's URL, as the store reaches it, for a test to write what an older loopsctl wrote. */
const databaseOf = (url: string): Promise<SqlDatabase> =>
  url.startsWith('sqlite:') ? Promise.resolve(openSqlite(url.slice('sqlite:'.length))) : openPostgres(url);

/**
 * A store on `db` whose statements pass through `watch`'s methods (a test's count of what the store
 * asks of its database), its tables made through them too; `db`'s own methods where `watch` has none.
 */
export async function watchedStore(
  db: SqlDatabase,
  where: string,
  watch: (db: SqlDatabase) => Partial<SqlDatabase>,
  options: DeliveryStoreOptions = {},
): Promise<DeliveryStore> {
  const watched: SqlDatabase = { ...db, ...watch(db) };
  await migrate(watched, where);
  return new DeliveryStore(watched, where, options);
}

/**
 * The counts of stats, worked out from every delivery find() returns, in code: what the daily
 * counts must add up to. A send is a `*.email.sent` event; keys in order, none first.
 */
async function scannedStats(store: DeliveryStore, filter: Omit<DeliveryFilter, 'limit' | 'order' | 'target'>, by?: StatsBy): Promise<DeliveryStats[]> {
  const named: Record<string, keyof DeliveryStats> = {
    'email.delivered': 'deliveries',
    'email.hardBounced': 'bounces',
    'email.softBounced': 'softBounces',
    'email.spamReported': 'complaints',
    'email.opened': 'opens',
    'email.clicked': 'clicks',
    'email.unsubscribed': 'unsubscribes',
  };
  const rows = new Map<string | null, Record<string, number | string | null>>();
  const zero = { events: 0, sends: 0, deliveries: 0, bounces: 0, softBounces: 0, complaints: 0, opens: 0, clicks: 0, unsubscribes: 0 };
  if (by === undefined) rows.set(null, { key: null, ...zero });
  for (const delivery of await store.find(filter)) {
    const key =
      by === undefined
        ? null
        : by === 'email'
          ? delivery.recipient
          : by === 'event'
            ? delivery.eventName
            : new Date(Math.trunc(delivery.eventAt.getTime() / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
    const row = rows.get(key) ?? { key, ...zero };
    rows.set(key, row);
    (row.events as number) += 1;
    const as = delivery.eventName === null ? undefined : isSendEvent(delivery.eventName) ? 'sends' : named[delivery.eventName];
    if (as !== undefined) (row[as] as number) += 1;
  }
  return [...rows.values()].sort((a, b) =>
    a.key === b.key ? 0 : a.key === null ? -1 : b.key === null ? 1 : (a.key as string) < (b.key as string) ? -1 : 1,
  ) as unknown as DeliveryStats[];
}

/** Deliveries over four days, with one sent twice and one whose body is no event, in the ways a journal gets them. */
async function recordDays(record: (delivery: ReceivedDelivery) => Promise<unknown>): Promise<void> {
  const day = 86_400;
  const start = 20_000 * day;
  const events = [
    'campaign.email.sent',
    'loop.email.sent',
    'transactional.email.sent',
    'email.delivered',
    'email.hardBounced',
    'email.opened',
    'contact.created',
    'email.clicked',
    'email.spamReported',
    'email.unsubscribed',
  ];
  for (let index = 0; index < 60; index += 1) {
    const at = start + Math.floor((index * 4 * day) / 60) + (index % 7) * 3_600;
    await record(received(`msg_day_${index}`, events[index % events.length]!, `r${index % 3}@example.com`, at, `em_${index % 2}`));
  }
  await record(received('msg_day_0', 'campaign.email.sent', 'r0@example.com', start));
  await record({ webhookId: 'msg_day_raw', receivedAt: new Date((start + day + 5) * 1000), headers: {}, body: 'not json', verified: false });
}

/** The filters and groupings stats answers, each compared with a scan. */
function statsCases(): [Omit<DeliveryFilter, 'limit' | 'order' | 'target'>, StatsBy | undefined][] {
  const start = 20_000 * DAY_MS;
  const filters: Omit<DeliveryFilter, 'limit' | 'order' | 'target'>[] = [
    {},
    { event: ['email.hardBounced', 'campaign.email.sent'] },
    { event: [] },
    { since: new Date(start + DAY_MS) },
    { since: new Date(start + DAY_MS / 2) },
    { until: new Date(start + 2 * DAY_MS + 3_600_000) },
    { since: new Date(start + 3_600_000 * 5), until: new Date(start + 3 * DAY_MS + 7_200_000), event: ['email.opened', 'loop.email.sent', 'email.delivered'] },
    { since: new Date(start + 3_600_000), until: new Date(start + 3_600_000 * 20) },
    { to: 'R1@example.com' },
    { emailId: 'em_1', since: new Date(start + DAY_MS) },
  ];
  return filters.flatMap((filter) =>
    [undefined, 'event', 'day', 'email'].map((by) => [filter, by as StatsBy | undefined] as [typeof filter, StatsBy | undefined]),
  );
}

/** A delivery of `eventName` to `email` at `eventTime` seconds, as a journal receives it. */
export function received(webhookId: string, eventName: string, email: string, eventTime: number, emailId = 'em_1') {
  const body = JSON.stringify({
    eventName,
    eventTime,
    webhookSchemaVersion: '1.0.0',
    contactIdentity: { id: `c_${email}`, email, userId: null },
    email: { id: emailId, emailMessageId: 'm_1', subject: 'Hi' },
  });
  return { webhookId, receivedAt: new Date(eventTime * 1000 + 500), headers: { 'webhook-id': webhookId }, body, verified: true };
}

const SECRET = 'whsec_Y29tbWl0cy1hLWRlbGl2ZXJ5LXRlc3Qtc2VjcmV0MDE=';

/** The commits a delivery costs, by what the handler made of it. */
export interface CommitsPerDelivery {
  handled: number;
  failed: number;
  /** Sent again once handled: answered as a duplicate. */
  redelivered: number;
}

/**
 * The commits webhookHandler makes on a store for each delivery, handled, failed, or sent again
 * once handled, through a count of them that the database keeps (`commits()`, read after each
 * store is closed). The store's own opening is counted apart, with a store that handles none.
 */
export async function commitsPerDelivery(open: () => Promise<DeliveryStore>, commits: () => Promise<number>): Promise<CommitsPerDelivery> {
  const run = async (deliveries: readonly { headers: Readonly<Record<string, string>>; body: string }[]) => {
    const store = await open();
    try {
      const handler = webhookHandler({
        secret: SECRET,
        store,
        on: {
          'email.opened': () => {},
          'email.clicked': () => {
            throw new Error('the mail provider timed out');
          },
        },
      });
      for (const delivery of deliveries) await handler.answer(delivery);
    } finally {
      await store.close();
    }
  };
  const counted = async (deliveries: readonly { headers: Readonly<Record<string, string>>; body: string }[]) => {
    const before = await commits();
    await run(deliveries);
    return (await commits()) - before;
  };
  await run([]);
  const opening = await counted([]);
  const perDelivery = async (deliveries: readonly { headers: Readonly<Record<string, string>>; body: string }[]) =>
    ((await counted(deliveries)) - opening) / deliveries.length;
  const opened = Array.from({ length: 5 }, (_, index) => signWebhookEvent(webhookFixture('email.opened'), SECRET, { id: `msg_opened_${index}` }));
  const clicked = Array.from({ length: 5 }, (_, index) => signWebhookEvent(webhookFixture('email.clicked'), SECRET, { id: `msg_clicked_${index}` }));
  return { handled: await perDelivery(opened), failed: await perDelivery(clicked), redelivered: await perDelivery(opened) };
}

export function describeDeliveryStore(name: string, fresh: FreshStore): void {
  const open = async (options?: DeliveryStoreOptions) => openDeliveryStore(await fresh(), options);
  describe(`${name}: the journal`, () => {
    it('claims an id once, holds it until settled, again after a failure, and answers handled ever after it was handled', async () => {
      const store = await open();
      try {
        const delivery = received('msg_1', 'email.delivered', 'a@example.com', 1_700_000_000);
        expect(await store.claim(delivery)).toBe('claimed');
        expect(await store.get('msg_1')).toMatchObject({ body: delivery.body, outcome: null });
        expect(await store.claim(delivery)).toBe('held');
        await store.settle('msg_1', { state: 'failed', error: 'boom' });
        expect(await store.claim(delivery)).toBe('claimed');
        await store.settle('msg_1', { state: 'handled' });
        expect(await store.claim(delivery)).toBe('handled');
        await store.settle('msg_1', { state: 'failed', error: 'a late failure' });
        expect(await store.claim(delivery)).toBe('handled');
      } finally {
        await store.close();
      }
    });

    it('lets a claim left unsettled past its lease be taken again, and not before', async () => {
      let now = new Date('2026-01-01T00:00:00Z');
      const store = await open({ now: () => now, claimLeaseMs: 60_000 });
      try {
        const delivery = received('msg_stuck', 'email.delivered', 'a@example.com', 1_700_000_000);
        expect(await store.claim(delivery)).toBe('claimed');
        now = new Date(now.getTime() + 60_000);
        expect(await store.claim(delivery)).toBe('held');
        now = new Date(now.getTime() + 1);
        expect(await store.claim(delivery)).toBe('claimed');
      } finally {
        await store.close();
      }
    });

    it('never lets a handled delivery be claimed again, however long after (a redelivery, a replay)', async () => {
      let now = new Date('2026-01-01T00:00:00Z');
      const store = await open({ now: () => now, claimLeaseMs: 60_000 });
      try {
        const delivery = received('msg_done', 'loop.email.sent', 'a@example.com', 1_700_000_000);
        expect(await store.claim(delivery)).toBe('claimed');
        await store.settle('msg_done', { state: 'handled' });
        now = new Date(now.getTime() + 86_400_000);
        expect(await store.claim(delivery)).toBe('handled');
        expect(await store.claim(delivery)).toBe('handled');
      } finally {
        await store.close();
      }
    });

    it('records a delivery once, keeps it whole, and keeps its outcome', async () => {
      const store = await open();
      try {
        const delivery = received('msg_2', 'email.hardBounced', 'Bob@Example.com', 1_700_000_100, 'em_2');
        expect(await store.record(delivery)).toBe(true);
        expect(await store.record({ ...delivery, body: '{}' })).toBe(false);
        await store.settle('msg_2', { state: 'failed', error: 'boom' });
        const kept = await store.get('msg_2');
        expect(kept).toMatchObject({
          webhookId: 'msg_2',
          body: delivery.body,
          headers: delivery.headers,
          verified: true,
          eventName: 'email.hardBounced',
          recipient: 'bob@example.com',
          emailId: 'em_2',
          outcome: { state: 'failed', error: 'boom' },
        });
        expect(kept!.receivedAt).toEqual(delivery.receivedAt);
        expect(kept!.eventAt).toEqual(new Date(1_700_000_100_000));
        expect(await store.get('msg_none')).toBeUndefined();
      } finally {
        await store.close();
      }
    });

    it('keeps a body that is not JSON as received, found by when it arrived', async () => {
      const store = await open();
      try {
        await store.record({ webhookId: 'msg_raw', receivedAt: new Date(5_000), headers: {}, body: 'not json', verified: false });
        expect(await store.find()).toMatchObject([{ webhookId: 'msg_raw', body: 'not json', eventName: null, eventAt: new Date(5_000), verified: false }]);
      } finally {
        await store.close();
      }
    });
  });

  describe(`${name}: queries`, () => {
    it('finds by recipient, event, email id and time, newest first, and counts what it finds', async () => {
      const store = await open();
      try {
        await store.record(received('m1', 'campaign.email.sent', 'a@example.com', 100, 'e1'));
        await store.record(received('m2', 'email.delivered', 'a@example.com', 200, 'e1'));
        await store.record(received('m3', 'email.hardBounced', 'b@example.com', 300, 'e2'));
        await store.record(received('m4', 'email.opened', 'A@example.com', 400, 'e1'));
        const ids = (found: { webhookId: string }[]) => found.map((delivery) => delivery.webhookId);
        expect(ids(await store.find({ to: 'A@EXAMPLE.COM' }))).toEqual(['m4', 'm2', 'm1']);
        expect(ids(await store.find({ event: 'email.hardBounced' }))).toEqual(['m3']);
        expect(ids(await store.find({ event: ['email.opened', 'email.delivered'] }))).toEqual(['m4', 'm2']);
        expect(ids(await store.find({ emailId: 'e1', order: 'oldest' }))).toEqual(['m1', 'm2', 'm4']);
        expect(ids(await store.find({ since: new Date(200_000), until: new Date(400_000) }))).toEqual(['m3', 'm2']);
        expect(ids(await store.find({ limit: 2 }))).toEqual(['m4', 'm3']);
        expect(await store.count({ to: 'a@example.com' })).toBe(3);
        expect(await store.count({ to: 'a@example.com', limit: 2 })).toBe(2);
        expect(await store.find({ event: [] })).toEqual([]);
      } finally {
        await store.close();
      }
    });

    it("counts an email's unsubscribe link (email.unsubscribed) as an unsubscribe, and no contact's or list's", async () => {
      const store = await open();
      try {
        await store.record(received('s1', 'campaign.email.sent', 'a@example.com', 10));
        await store.record(received('u1', 'email.unsubscribed', 'a@example.com', 20));
        await store.record(received('u2', 'contact.unsubscribed', 'a@example.com', 20));
        await store.record(received('u3', 'contact.mailingList.unsubscribed', 'a@example.com', 20));
        const [all] = await store.stats();
        expect(all).toMatchObject({ events: 4, sends: 1, unsubscribes: 1 });
      } finally {
        await store.close();
      }
    });

    it('counts sends (every *.email.sent), deliveries, bounces, complaints, opens and clicks, in all and by email, event and day', async () => {
      const store = await open();
      try {
        const day = 86_400;
        await store.record(received('s1', 'campaign.email.sent', 'a@example.com', 10));
        await store.record(received('s2', 'loop.email.sent', 'b@example.com', 20));
        await store.record(received('s3', 'transactional.email.sent', 'b@example.com', day + 5));
        await store.record(received('d1', 'email.delivered', 'a@example.com', 30));
        await store.record(received('b1', 'email.hardBounced', 'b@example.com', 40));
        await store.record(received('b2', 'email.softBounced', 'b@example.com', 41));
        await store.record(received('c1', 'email.spamReported', 'a@example.com', day + 50));
        await store.record(received('o1', 'email.opened', 'a@example.com', 60));
        await store.record(received('k1', 'email.clicked', 'a@example.com', 70));
        const [all] = await store.stats();
        expect(all).toEqual({ key: null, events: 9, sends: 3, deliveries: 1, bounces: 1, softBounces: 1, complaints: 1, opens: 1, clicks: 1, unsubscribes: 0 });
        const byEmail = await store.stats({}, 'email');
        expect(byEmail.map(({ key, sends, bounces, complaints }) => ({ key, sends, bounces, complaints }))).toEqual([
          { key: 'a@example.com', sends: 1, bounces: 0, complaints: 1 },
          { key: 'b@example.com', sends: 2, bounces: 1, complaints: 0 },
        ]);
        expect((await store.stats({}, 'day')).map(({ key, events, sends }) => ({ key, events, sends }))).toEqual([
          { key: '1970-01-01', events: 7, sends: 2 },
          { key: '1970-01-02', events: 2, sends: 1 },
        ]);
        expect((await store.stats({ since: new Date(day * 1000) }, 'event')).map(({ key, events }) => ({ key, events }))).toEqual([
          { key: 'email.spamReported', events: 1 },
          { key: 'transactional.email.sent', events: 1 },
        ]);
      } finally {
        await store.close();
      }
    });

    it('keeps counts per day and event that give what a scan of the deliveries gives, by every filter and grouping', async () => {
      const store = await open();
      try {
        await recordDays((delivery) => store.record(delivery));
        await store.claim(received('msg_claimed', 'email.opened', 'r2@example.com', 20_001 * 86_400 + 60));
        await store.claim(received('msg_claimed', 'email.opened', 'r2@example.com', 20_001 * 86_400 + 60));
        for (const [filter, by] of statsCases())
          expect(await store.stats(filter, by), JSON.stringify({ filter, by })).toEqual(await scannedStats(store, filter, by));
        expect((await store.stats())[0]).toMatchObject({ events: 62, sends: 18 });
      } finally {
        await store.close();
      }
    });

    it('fills the counts of a journal an older loopsctl kept, when it opens it, and counts on from there', async () => {
      const url = await fresh();
      const db = await databaseOf(url);
      try {
        // The tables of version 1, as the loopsctl before the counts made them, and its deliveries in them.
        for (const statement of migrations(db.dialect)[0]!) await db.run(statement);
        await db.run('CREATE TABLE loopsctl_webhook_store (version INTEGER NOT NULL)');
        await db.run('INSERT INTO loopsctl_webhook_store (version) VALUES (1)');
        await recordDays(async (delivery) => {
          const facts = JSON.parse(delivery.body.startsWith('{') ? delivery.body : '{}') as {
            eventName?: string;
            eventTime?: number;
            contactIdentity?: { email: string };
          };
          await db.run(
            `INSERT INTO loopsctl_webhook_deliveries (webhook_id, received_at, event_at, event_name, recipient, headers, body, verified)
             VALUES (?, ?, ?, ?, ?, '{}', ?, 1) ON CONFLICT (webhook_id) DO NOTHING`,
            [
              delivery.webhookId,
              delivery.receivedAt.getTime(),
              facts.eventTime === undefined ? delivery.receivedAt.getTime() : facts.eventTime * 1000,
              facts.eventName ?? null,
              facts.contactIdentity?.email ?? null,
              delivery.body,
            ],
          );
        });
      } finally {
        await db.close();
      }
      const store = await openDeliveryStore(url);
      try {
        await store.record(received('msg_after', 'email.clicked', 'r0@example.com', 20_002 * 86_400));
        for (const [filter, by] of statsCases())
          expect(await store.stats(filter, by), JSON.stringify({ filter, by })).toEqual(await scannedStats(store, filter, by));
        expect((await store.stats())[0]).toMatchObject({ events: 62 });
      } finally {
        await store.close();
      }
    });

    it('keeps the claims of a journal of version 2, kept in a table of their own, when it opens it', async () => {
      const url = await fresh();
      const db = await databaseOf(url);
      const now = Date.now();
      try {
        for (const statement of [...migrations(db.dialect)[0]!, ...migrations(db.dialect)[1]!]) await db.run(statement);
        await db.run('CREATE TABLE loopsctl_webhook_store (version INTEGER NOT NULL)');
        await db.run('INSERT INTO loopsctl_webhook_store (version) VALUES (2)');
        for (const id of ['msg_v2_handled', 'msg_v2_held', 'msg_v2_lapsed', 'msg_v2_unclaimed'])
          await db.run(
            `INSERT INTO loopsctl_webhook_deliveries (webhook_id, received_at, event_at, event_name, headers, body, verified)
             VALUES (?, ?, ?, 'email.opened', '{}', '{}', 1)`,
            [id, now, now],
          );
        await db.run('INSERT INTO loopsctl_webhook_claims (webhook_id, claimed_at, handled_at) VALUES (?, ?, ?)', ['msg_v2_handled', now - 1000, now - 500]);
        await db.run('INSERT INTO loopsctl_webhook_claims (webhook_id, claimed_at) VALUES (?, ?)', ['msg_v2_held', now - 1000]);
        await db.run('INSERT INTO loopsctl_webhook_claims (webhook_id, claimed_at) VALUES (?, ?)', ['msg_v2_lapsed', now - 10 * 60_000]);
      } finally {
        await db.close();
      }
      const store = await openDeliveryStore(url);
      try {
        const claims = await Promise.all(
          ['msg_v2_handled', 'msg_v2_held', 'msg_v2_lapsed', 'msg_v2_unclaimed'].map((id) => store.claim(received(id, 'email.opened', 'a@example.com', 100))),
        );
        expect(claims).toEqual(['handled', 'held', 'claimed', 'claimed']);
        expect((await store.stats())[0]).toMatchObject({ events: 4 });
      } finally {
        await store.close();
      }
    });

    it('prunes the deliveries before a time, their claims and forwards with them, and keeps their counts', async () => {
      const store = await open();
      try {
        await recordDays((delivery) => store.record(delivery));
        await store.claim(received('msg_day_1', 'loop.email.sent', 'r1@example.com', 0));
        await store.settle('msg_day_1', { state: 'handled' });
        await store.enqueueForward('http://a.test/', 'msg_day_1');
        const before = await store.stats({}, 'day');
        const [all] = await store.stats();
        const cut = new Date(20_002 * DAY_MS);
        const older = await store.count({ until: cut });
        expect(older).toBeGreaterThan(0);
        expect(await store.prune(cut)).toBe(older);
        expect(await store.count({ until: cut })).toBe(0);
        expect(await store.count()).toBe(61 - older);
        expect(await store.forwards('msg_day_1')).toEqual([]);
        expect(await store.stats({}, 'day')).toEqual(before);
        expect(await store.stats()).toEqual([all]);
        expect(await store.prune(cut)).toBe(0);
        // Its claim went with it: the same id sent again is a new delivery.
        expect(await store.claim(received('msg_day_1', 'loop.email.sent', 'r1@example.com', 20_000 * 86_400))).toBe('claimed');
      } finally {
        await store.close();
      }
    });

    it('keeps N days when asked: prunes in the background of the deliveries it records, at most once an hour', async () => {
      let now = new Date(30 * DAY_MS);
      const store = await open({ keepDays: 10, now: () => now });
      try {
        const prune = vi.spyOn(store, 'prune');
        const old = (id: string) => received(id, 'email.opened', 'a@example.com', 5 * 86_400);
        await store.record(old('msg_old_1'));
        expect(prune).toHaveBeenCalledTimes(1);
        await prune.mock.results[0]!.value;
        expect(await store.get('msg_old_1')).toBeUndefined();
        now = new Date(now.getTime() + 30 * 60_000);
        await store.claim(old('msg_old_2'));
        expect(prune).toHaveBeenCalledTimes(1);
        expect(await store.get('msg_old_2')).toBeDefined();
        now = new Date(now.getTime() + 30 * 60_000);
        await store.record(received('msg_new', 'email.opened', 'a@example.com', 29 * 86_400));
        expect(prune).toHaveBeenCalledTimes(2);
        expect(prune).toHaveBeenLastCalledWith(new Date(now.getTime() - 10 * DAY_MS));
        await prune.mock.results[1]!.value;
        expect((await store.find()).map((delivery) => delivery.webhookId)).toEqual(['msg_new']);
        expect((await store.stats())[0]!.events).toBe(3);
      } finally {
        await store.close();
      }
    });

    it('queues deliveries per target: due in order, retried when asked, done on a 2xx, found by target', async () => {
      const store = await open();
      try {
        await store.record(received('f1', 'email.opened', 'a@example.com', 100));
        await store.record(received('f2', 'email.clicked', 'a@example.com', 200));
        const t0 = new Date(1_000_000);
        expect(await store.enqueueForward('http://a.test/', 'f1', t0)).toBe(true);
        expect(await store.enqueueForward('http://a.test/', 'f1', t0)).toBe(false);
        await store.enqueueForward('http://a.test/', 'f2', new Date(1_000_500));
        await store.enqueueForward('http://b.test/', 'f1', t0);
        expect(await store.nextForwardAt('http://a.test/')).toEqual(t0);
        expect((await store.dueForwards('http://a.test/', t0)).map((due) => due.webhookId)).toEqual(['f1']);
        await store.recordForwardAttempt('http://a.test/', 'f1', { at: t0, status: 500, nextAt: new Date(1_002_000) });
        expect((await store.dueForwards('http://a.test/', new Date(1_001_000))).map((due) => due.webhookId)).toEqual(['f2']);
        await store.recordForwardAttempt('http://a.test/', 'f2', { at: new Date(1_001_000), status: 204, nextAt: new Date(9_999_999) });
        await store.recordForwardAttempt('http://a.test/', 'f1', { at: new Date(1_002_000), status: null, error: 'no answer within 10 s', nextAt: null });
        expect(await store.nextForwardAt('http://a.test/')).toBeUndefined();
        expect(await store.dueForwards('http://b.test/', t0)).toHaveLength(1);
        const toA = await store.find({ target: 'http://a.test/' });
        expect(toA.map((delivery) => [delivery.webhookId, delivery.forward?.attempts, delivery.forward?.lastStatus, delivery.forward?.doneAt])).toEqual([
          ['f2', 1, 204, new Date(1_001_000)],
          ['f1', 2, null, null],
        ]);
        expect(toA[1]!.forward!.lastError).toBe('no answer within 10 s');
        expect((await store.forwards('f1')).map((forward) => forward.target)).toEqual(['http://a.test/', 'http://b.test/']);
        expect(await store.count({ target: 'http://b.test/' })).toBe(1);
      } finally {
        await store.close();
      }
    });
  });
}
