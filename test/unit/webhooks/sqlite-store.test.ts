import { chmodSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { DeliveryStore, openDeliveryStore, PRUNE_BATCH } from '../../../src/webhooks/store/index.js';
import { migrate, type SqlDatabase } from '../../../src/webhooks/store/sql.js';
import { openSqlite, whileBusy } from '../../../src/webhooks/store/sqlite.js';
import { commitsPerDelivery, describeDeliveryStore, received } from '../../support/delivery-store.js';
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
      const counted: SqlDatabase = { ...db, run: counting(db.run), all: counting(db.all), batch: counting(db.batch), exclusive: counting(db.exclusive) };
      await migrate(counted, file);
      return new DeliveryStore(counted, file);
    };
    expect(await commitsPerDelivery(open, async () => commits)).toEqual({ handled: 2, failed: 2, redelivered: 1 });
  });

  it('prunes in transactions of PRUNE_BATCH deliveries each, so that a delivery waits at most for one', async () => {
    const file = join(tempDir(), 'prune.db');
    const db = openSqlite(file);
    const batches: number[] = [];
    const counted: SqlDatabase = {
      ...db,
      batch: (statements) => {
        batches.push(statements.length);
        return db.batch(statements);
      },
    };
    await migrate(counted, file);
    const store = new DeliveryStore(counted, file);
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
