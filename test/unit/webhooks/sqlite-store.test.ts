import { chmodSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { MOVE_AFTER, openDeliveryStore, PRUNE_BATCH } from '../../../src/webhooks/store/index.js';
import { migrations } from '../../../src/webhooks/store/sql.js';
import { openSqlite, whileBusy } from '../../../src/webhooks/store/sqlite.js';
import { commitsPerDelivery, describeDeliveryStore, received, watchedStore } from '../../support/delivery-store.js';
import { tempDir } from '../../support/temp.js';

describeDeliveryStore('SQLite', async () => `sqlite:${join(tempDir(), 'deliveries.db')}`);

describe('a SQLite store', () => {
  it('keeps its deliveries and claims across a reopen, and creates its tables once', async () => {
    const file = join(tempDir(), 'kept.db');
    const first = await openDeliveryStore(`sqlite:${file}`);
    const delivery = received('msg_kept', 'email.delivered', 'a@example.com', 100);
    expect(await first.claim(delivery)).toBe('claimed');
    await first.settle('msg_kept', { state: 'handled' });
    await first.close();
    const again = await openDeliveryStore(file);
    try {
      expect(await again.claim(delivery)).toBe('handled');
      expect((await again.get('msg_kept'))?.outcome).toEqual({ state: 'handled' });
    } finally {
      await again.close();
    }
  });

  it('commits at most twice a delivery: the record and claim before the handler, the outcome after', async () => {
    const file = join(tempDir(), 'commits.db');
    // Every statement outside a transaction is a transaction of its own; a batch or an exclusive run is one.
    let commits = 0;
    const open = async () => {
      const db = openSqlite(file);
      const counting =
        <Args extends unknown[], Result>(call: (...args: Args) => Result) =>
        (...args: Args) => {
          commits += 1;
          return call(...args);
        };
      return watchedStore(db, file, () => ({
        run: counting(db.run),
        all: counting(db.all),
        batch: counting(db.batch),
        exclusive: (work) => {
          commits += 1;
          return db.exclusive(work);
        },
      }));
    };
    // A redelivery: its claim, which takes nothing, then the claim's transaction, which says it was handled. The first claim
    // after a reopen is that transaction alone (it moves the outcomes gathered), so five redeliveries take nine.
    expect(await commitsPerDelivery(open, async () => commits)).toEqual({ handled: 2, failed: 2, redelivered: 9 / 5 });
  });

  it("claims a new delivery with one statement, leaving the claim's transaction to a move and to a claim that took nothing", async () => {
    const file = join(tempDir(), 'one-statement.db');
    const db = openSqlite(file);
    const calls: string[] = [];
    const store = await watchedStore(db, file, () => ({
      run: (sql, params) => {
        calls.push('run');
        return db.run(sql, params);
      },
      batch: (statements) => {
        calls.push('batch');
        return db.batch(statements);
      },
    }));
    const calledBy = async (work: () => Promise<unknown>) => {
      calls.length = 0;
      await work();
      return calls;
    };
    try {
      // The first claim of a process moves what an earlier one left: the whole transaction.
      expect(await calledBy(() => store.claim(received('msg_first', 'email.opened', 'a@example.com', 100)))).toEqual(['batch']);
      expect(await calledBy(() => store.settle('msg_first', { state: 'handled' }))).toEqual(['run']);
      expect(await calledBy(() => store.claim(received('msg_new', 'email.opened', 'a@example.com', 101)))).toEqual(['run']);
      expect(await store.claim(received('msg_first', 'email.opened', 'a@example.com', 100))).toBe('handled');
      expect(await calledBy(() => store.claim(received('msg_new', 'email.opened', 'a@example.com', 101)))).toEqual(['run', 'batch']);
      expect(await store.claim(received('msg_new', 'email.opened', 'a@example.com', 101))).toBe('held');
    } finally {
      await store.close();
    }
  });

  it('writes about four pages of its write-ahead log a handled delivery, its indexes and counts a group of claims at a time', async () => {
    const file = join(tempDir(), 'pages.db');
    const store = await openDeliveryStore(`sqlite:${file}`);
    const { DatabaseSync } = await import('node:sqlite');
    // A reader's open transaction keeps every frame in the log (no checkpoint can restart it), so its growth counts them.
    const reader = new DatabaseSync(file);
    try {
      reader.exec('BEGIN');
      reader.prepare('SELECT version FROM loopsctl_webhook_store').get();
      const frames = () => (statSync(`${file}-wal`).size - 32) / (4096 + 24);
      const before = frames();
      const deliveries = 2 * MOVE_AFTER;
      for (let index = 0; index < deliveries; index += 1) {
        const id = `msg_page_${index}`;
        const delivery = received(id, index % 2 ? 'email.opened' : 'email.delivered', `r${index % 40}@example.com`, 1_700_000_000 + index);
        expect(await store.claim(delivery)).toBe('claimed');
        await store.settle(id, { state: 'handled' });
      }
      // The floor is two (one commit of the row and its key's index); each row in the journal's table with its four indexes and counts, 7.8.
      expect((frames() - before) / deliveries).toBeLessThan(4.6);
    } finally {
      reader.exec('ROLLBACK');
      reader.close();
      await store.close();
    }
  });

  it("moves settled claims into the journal's table a group at a time, each delivery found, counted and answered wherever it is kept", async () => {
    const file = join(tempDir(), 'moved.db');
    const store = await openDeliveryStore(`sqlite:${file}`);
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(file);
    const rows = (table: string) => Number(db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get()!.n);
    try {
      const settled = MOVE_AFTER + 2;
      for (let index = 0; index < settled; index += 1) {
        const id = `msg_move_${index}`;
        await store.claim(received(id, index % 2 ? 'email.opened' : 'email.clicked', 'a@example.com', 1_700_000_000 + index));
        await store.settle(id, index === 1 ? { state: 'failed', error: 'boom' } : { state: 'handled' });
      }
      expect(await store.claim(received('msg_move_held', 'email.opened', 'a@example.com', 1_700_100_000))).toBe('claimed');
      // The claim after MOVE_AFTER outcomes moved them; the two settled since and the one held wait for the next.
      expect([rows('loopsctl_webhook_deliveries'), rows('loopsctl_webhook_recent')]).toEqual([MOVE_AFTER, 3]);
      expect(await store.count()).toBe(settled + 1);
      expect((await store.find({ limit: 2 })).map((delivery) => delivery.webhookId)).toEqual(['msg_move_held', `msg_move_${settled - 1}`]);
      expect(await store.stats()).toMatchObject([{ events: settled + 1, opens: settled / 2 + 1, clicks: settled / 2 }]);
      expect((await store.stats({}, 'event')).map(({ key, events }) => [key, events])).toEqual([
        ['email.clicked', settled / 2],
        ['email.opened', settled / 2 + 1],
      ]);
      // Moved or not: a handled delivery is answered handled, a failed one claimed again, a held one held.
      expect(await store.claim(received('msg_move_0', 'email.clicked', 'a@example.com', 1_700_000_000))).toBe('handled');
      expect(await store.claim(received(`msg_move_${settled - 1}`, 'email.opened', 'a@example.com', 1_700_000_000))).toBe('handled');
      expect(await store.claim(received('msg_move_held', 'email.opened', 'a@example.com', 1_700_100_000))).toBe('held');
      expect(await store.claim(received('msg_move_1', 'email.opened', 'a@example.com', 1_700_000_001))).toBe('claimed');
      await store.settle('msg_move_1', { state: 'handled' });
      expect((await store.get('msg_move_1'))?.outcome).toEqual({ state: 'handled' });
      expect(await store.claim(received('msg_move_1', 'email.opened', 'a@example.com', 1_700_000_001))).toBe('handled');
      // Pruned where it waits, a claim is counted first: the counts of a pruned day stay.
      expect(await store.prune(new Date(1_700_100_001_000))).toBe(settled + 1);
      expect(await store.stats()).toMatchObject([{ events: settled + 1 }]);
      expect([rows('loopsctl_webhook_deliveries'), rows('loopsctl_webhook_recent')]).toEqual([0, 0]);
    } finally {
      db.close();
      await store.close();
    }
  });

  it('upgrades a store of version 4 in place, and refuses the claims an older loopsctl still running would make', async () => {
    const file = join(tempDir(), 'v4.db');
    const db = openSqlite(file);
    const now = Date.now();
    try {
      for (const statement of migrations('sqlite').slice(0, 4).flat()) await db.run(statement);
      await db.run('CREATE TABLE loopsctl_webhook_store (version INTEGER NOT NULL)');
      await db.run('INSERT INTO loopsctl_webhook_store (version) VALUES (4)');
      for (const [id, claimedAt, handledAt] of [
        ['msg_v4_handled', now - 1000, now - 500],
        ['msg_v4_held', now - 1000, null],
      ] as const)
        await db.run(
          `INSERT INTO loopsctl_webhook_deliveries (webhook_id, received_at, event_at, event_name, headers, body, verified, claimed_at, handled_at)
           VALUES (?, ?, ?, 'email.opened', '{}', '{}', 1, ?, ?)`,
          [id, now, now, claimedAt, handledAt],
        );
    } finally {
      await db.close();
    }
    const store = await openDeliveryStore(file);
    try {
      const claims = ['msg_v4_handled', 'msg_v4_held', 'msg_v5'].map((id) => store.claim(received(id, 'email.opened', 'a@example.com', 100)));
      expect(await Promise.all(claims)).toEqual(['handled', 'held', 'claimed']);
      expect(await store.stats()).toMatchObject([{ events: 3, opens: 3 }]);
      // Version 4's claim, as an older loopsctl still running would make it.
      const { DatabaseSync } = await import('node:sqlite');
      const older = new DatabaseSync(file);
      try {
        expect(() =>
          older
            .prepare(
              `INSERT INTO loopsctl_webhook_deliveries (webhook_id, received_at, event_at, headers, body, verified, claimed_at)
               VALUES ('msg_v5', 1, 1, '{}', '{}', 1, 1) ON CONFLICT (webhook_id) DO NOTHING`,
            )
            .run(),
        ).toThrow(/version 5, where a claim is kept in loopsctl_webhook_recent: restart the app on the newer loopsctl/);
      } finally {
        older.close();
      }
    } finally {
      await store.close();
    }
  });

  it('prunes in transactions of PRUNE_BATCH deliveries each, so that a delivery waits at most for one', async () => {
    const file = join(tempDir(), 'prune.db');
    const db = openSqlite(file);
    const batches: number[] = [];
    const store = await watchedStore(db, file, () => ({
      batch: (statements) => {
        batches.push(statements.length);
        return db.batch(statements);
      },
    }));
    try {
      for (let index = 0; index < 2 * PRUNE_BATCH + 100; index += 1) await store.record(received(`msg_${index}`, 'email.opened', 'a@example.com', 100 + index));
      batches.length = 0;
      expect(await store.prune(new Date(100_000 + (2 * PRUNE_BATCH + 50) * 1000))).toBe(2 * PRUNE_BATCH + 50);
      expect(batches).toEqual([2, 2, 2]);
      expect(await store.count()).toBe(50);
    } finally {
      await store.close();
    }
  });

  it('checkpoints a commit into the database file itself once quiet, not in the commit', async () => {
    const file = join(tempDir(), 'quiet.db');
    const store = await openDeliveryStore(`sqlite:${file}`);
    try {
      await store.record(received('msg_quiet', 'email.delivered', 'a@example.com', 100));
      // Kept in the write-ahead log until then: the commit made no checkpoint of its own.
      expect(readFileSync(file).includes('msg_quiet')).toBe(false);
      await vi.waitFor(() => expect(readFileSync(file).includes('msg_quiet')).toBe(true), { timeout: 10_000, interval: 20 });
    } finally {
      await store.close();
    }
  });

  it('refuses a link, a file it cannot write, a file that is not a database, and a newer layout, saying which', async () => {
    const dir = tempDir();
    const target = join(dir, 'real.db');
    await (await openDeliveryStore(`sqlite:${target}`)).close();
    symlinkSync(target, join(dir, 'link.db'));
    await expect(openDeliveryStore(`sqlite:${join(dir, 'link.db')}`)).rejects.toThrow(/is a symbolic link/);
    writeFileSync(join(dir, 'corrupt.db'), 'this is not a database, but it is long enough to be read as one'.repeat(100));
    await expect(openDeliveryStore(`sqlite:${join(dir, 'corrupt.db')}`)).rejects.toThrow(/is not a SQLite database/);
    await expect(openDeliveryStore(`sqlite:${join(dir, 'missing', 'x.db')}`)).rejects.toThrow(/cannot be opened: does its folder exist/);
    await expect(openDeliveryStore('redis://localhost/0')).rejects.toThrow(/neither sqlite:<file> nor postgres/);
    await expect(openDeliveryStore('sqlite:')).rejects.toThrow(/names no file/);
    const { DatabaseSync } = await import('node:sqlite');
    const newer = new DatabaseSync(target);
    newer.exec('UPDATE loopsctl_webhook_store SET version = 99');
    newer.close();
    await expect(openDeliveryStore(target)).rejects.toThrow(/version 99 .* upgrade loopsctl/);
    if (process.getuid?.() !== 0) {
      const readOnly = join(dir, 'read-only.db');
      await (await openDeliveryStore(readOnly)).close();
      chmodSync(readOnly, 0o444);
      await expect(openDeliveryStore(readOnly)).rejects.toThrow(/cannot be written/);
    }
  });
});

describe('a SQLite store met with a busy answer', () => {
  const busy = () => Object.assign(new Error('database is locked'), { errcode: 5 });

  it('runs the work again until SQLite takes it, where SQLite answered busy at once', () => {
    let tries = 0;
    const answer = whileBusy('/tmp/x.db', () => {
      tries += 1;
      if (tries < 4) throw busy();
      return 'done';
    });
    expect([answer, tries]).toEqual(['done', 4]);
  });

  it('says how long it stayed locked, and what SQLite said, once the timeout has passed', () => {
    let tries = 0;
    const refused = () =>
      whileBusy(
        '/tmp/x.db',
        () => {
          tries += 1;
          throw busy();
        },
        30,
      );
    expect(refused).toThrow(/^the store \/tmp\/x\.db stayed locked by another process for \d+\.\d s \(SQLite: database is locked\)$/);
    expect(tries).toBeGreaterThan(1);
  });

  it('runs other failures once', () => {
    let tries = 0;
    const failing = () =>
      whileBusy('/tmp/x.db', () => {
        tries += 1;
        throw Object.assign(new Error('disk I/O error'), { errcode: 10 });
      });
    expect(failing).toThrow('the store /tmp/x.db failed: disk I/O error');
    expect(tries).toBe(1);
  });
});
