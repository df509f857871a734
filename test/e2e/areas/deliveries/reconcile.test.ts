/**
 * `deliveries reconcile` end to end: `loopsctl sandbox` delivering webhooks to `webhooks listen
 * --store`, the journal an app keeps. With the app up, the journal holds every event the account
 * counted since the snapshot it starts from: exact. With it down, the sends made meanwhile are
 * counted by the account and missing from the journal, and each gap is named.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDeliveryStore } from '../../../../src/webhooks/store/index.js';
import { eachTest, sendDelivery, WELCOME_SENT } from '../../../support/journaled-sandbox.js';
import { run } from '../../../support/main.js';
import { SEED_IDS } from '../../../support/sandbox.js';

const SECRET = `whsec_${Buffer.from('the secret of reconciling journal').toString('base64')}`;
const WELCOME = SEED_IDS.welcomeEmail;
const { scratchDir, journaled } = eachTest();

interface Reconciled {
  emails: { email: { key: string }; gaps?: { field: string; account: number; kept: number; missing: number }[]; notComparable?: string[] }[];
}

describe('loopsctl deliveries reconcile', () => {
  it('is exact with the app up, and names each gap of the sends made while it was down', async () => {
    const { store, listen, api } = await journaled(SECRET);
    const ok = async (argv: string[]) => {
      const result = await run(argv, { env: api });
      expect(result.code, `${argv.join(' ')}: ${result.stderr}`).toBe(0);
      return result;
    };
    const send = async (to: string) =>
      ok(['transactional', 'send', WELCOME, '--to', to, '--var', 'firstName=Ada', '--var', 'loginUrl=https://acme.example/in']);

    // The journal starts now: a snapshot of the counters, then a minute on, three sends (and their deliveries) kept.
    await ok(['metrics', 'snapshot']);
    const snapshotAt = (await ok(['sandbox', 'clock', '--json'])).json<{ now: string }>().now;
    await ok(['sandbox', 'clock', 'advance', '1m']);
    for (const to of ['a@example.com', 'b@example.com', 'c@example.com']) await send(to);
    await listen.waitFor(/(?:"eventName":"email\.delivered"[\s\S]*){3}/);
    const exact = await run(['deliveries', 'reconcile', '--store', store, '--since', snapshotAt, '--json'], { env: api });
    expect(exact.code, exact.stderr).toBe(0);
    const welcome = (exact.json() as Reconciled).emails.find((row) => row.email.key === `transactional/${WELCOME}`)!;
    expect(welcome.gaps).toContainEqual({ field: 'sends', account: 3, kept: 3, missing: 0 });
    expect(welcome.gaps).toContainEqual({ field: 'deliveries', account: 3, kept: 3, missing: 0 });

    // The app goes down: two sends the account counts, which the journal never gets.
    await listen.stop();
    await send('d@example.com');
    await send('e@example.com');
    const gap = await run(['deliveries', 'reconcile', '--store', store, '--since', snapshotAt], { env: api });
    expect(gap.code, gap.stderr).toBe(1);
    expect(gap.stdout).toContain(
      `Welcome (transactional/${WELCOME}): 5 sends in the account, 3 kept: 2 missing; 5 deliveries in the account, 3 kept: 2 missing`,
    );
    const within = await run(['deliveries', 'reconcile', '--store', store, '--since', snapshotAt, '--max-gap', '2'], { env: api });
    expect(within.code, within.stderr).toBe(0);
    expect(within.stdout).toContain('2 missing (within --max-gap)');
  });

  it('with --contacts, looks up each contact the journal says hard-bounced or unsubscribed, and names one subscribed again', async () => {
    const { store, listen, api } = await journaled(SECRET);
    const ok = async (argv: string[]) => {
      const result = await run(argv, { env: api });
      expect(result.code, `${argv.join(' ')}: ${result.stderr}`).toBe(0);
      return result;
    };
    const send = (to: string) => ok(['transactional', 'send', WELCOME, '--to', to, '--var', 'firstName=Ada', '--var', 'loginUrl=https://acme.example/in']);
    await ok(['metrics', 'snapshot']);
    const snapshotAt = (await ok(['sandbox', 'clock', '--json'])).json<{ now: string }>().now;
    await ok(['sandbox', 'clock', 'advance', '1m']);
    for (const email of ['bounced@example.com', 'left@example.com', 'spam@example.com']) await ok(['contacts', 'create', '--email', email]);
    // The OpenAPI description of email.hardBounced: "In Loops, a hard bounce also unsubscribes the contact
    // from your audience, so a `contact.unsubscribed` event will also be sent." Its email.spamReported says
    // no such thing ("Sent when a recipient reports your email as spam."): a spam report is not checked.
    await ok(['sandbox', 'engagement', '--email', WELCOME, '--hard-bounce-rate', '1']);
    await send('bounced@example.com');
    await ok(['sandbox', 'engagement', '--email', WELCOME, '--spam-rate', '1']);
    await send('spam@example.com');
    await ok(['contacts', 'update', '--email', 'left@example.com', '--unsubscribed']);
    // Each kept: the bounce and the spam report follow their sends by a second of the sandbox's.
    for (const kept of [/"eventName":"email\.hardBounced"/, /"eventName":"email\.spamReported"/, /"eventName":"contact\.unsubscribed"[^\n]*left@example\.com/])
      await listen.waitFor(kept);

    const reconcile = (...more: string[]) => run(['deliveries', 'reconcile', '--store', store, '--since', snapshotAt, '--contacts', ...more], { env: api });
    const exact = await reconcile('--json');
    expect(exact.code, exact.stderr).toBe(0);
    const contacts = exact.json<{
      contacts: { checked: number; mismatches: number; rows: { email: string; journal: { said: string }; mismatch: boolean }[] };
    }>().contacts;
    expect(contacts).toMatchObject({ checked: 2, mismatches: 0 });
    expect(contacts.rows.map((row) => [row.email, row.journal.said, row.mismatch])).toEqual([
      ['bounced@example.com', 'hard-bounced', false],
      ['left@example.com', 'unsubscribed', false],
    ]);

    // The app subscribes the bounced contact again: the account no longer agrees with the journal.
    await ok(['contacts', 'update', '--email', 'bounced@example.com', '--subscribed']);
    const mismatch = await reconcile();
    expect(mismatch.code, mismatch.stderr).toBe(1);
    expect(mismatch.stdout).toContain('contacts: 2 contacts the journal says hard-bounced or unsubscribed; 1 mismatch\n');
    expect(mismatch.stdout).toMatch(/^bounced@example\.com: hard-bounced in the journal at \S+Z, subscribed in the account$/m);
    expect(mismatch.stdout).not.toContain('left@example.com');
    expect((await reconcile('--max-gap', '1')).code).toBe(0);
    // --json passes the account's contact through as the API gave it.
    const passed = (await reconcile('--json')).json<{ contacts: { rows: { email: string; account: unknown }[] } }>().contacts.rows;
    const found = (await ok(['contacts', 'find', '--email', 'bounced@example.com', '--json'])).json<unknown[]>()[0];
    expect(passed.find((row) => row.email === 'bounced@example.com')!.account).toEqual(found);
  });

  it('sets the all-time counters against the whole journal without --since, and says which counters are not comparable', async () => {
    const env = { LOOPSCTL_CONFIG_DIR: scratchDir() };
    const store = join(scratchDir(), 'deliveries.db');
    const result = await run(['--sandbox', 'deliveries', 'reconcile', '--store', store], { env });
    expect(result.code, result.stderr).toBe(1);
    // The seed's counters, and a journal that kept nothing of them.
    expect(result.stdout).toContain(
      `Welcome (transactional/${WELCOME}): 18432 sends in the account, 0 kept: 18432 missing; 18211 deliveries in the account, 0 kept: 18211 missing`,
    );
    expect(result.stdout).toMatch(/\(campaign\/\w+\): [^\n]*; opens, clicks, unsubscribes not comparable \(the account counts people, the journal events\)\n/);
    const json = (await run(['--sandbox', 'deliveries', 'reconcile', '--store', store, '--json'], { env })).json() as Reconciled & { since: string | null };
    expect(json.since).toBeNull();
    expect(json.emails.find((row) => row.email.key === `transactional/${WELCOME}`)!.notComparable).toEqual([]);
    // On a terminal of 80 columns, each email's gaps are wrapped to it.
    const shown = await run(['--sandbox', 'deliveries', 'reconcile', '--store', store, '--no-pager'], { env, tty: { columns: 80 } });
    expect(shown.stdout.replace(/\s+/g, ' ')).toContain(`Welcome (transactional/${WELCOME}): 18432 sends in the account, 0 kept: 18432 missing;`);
    for (const line of shown.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
  });

  it('counts every event of a journal that spans days, an hour at a time, those at the edges of an hour included', async () => {
    const env = { LOOPSCTL_CONFIG_DIR: scratchDir() };
    const file = join(scratchDir(), 'deliveries.db');
    const journal = await openDeliveryStore(`sqlite:${file}`);
    const day = Date.UTC(2026, 10, 2) / 1000;
    const times = [day, day + 3600, day + 86_399, day + 86_400, day + 2 * 86_400 + 10, day + 5 * 86_400];
    try {
      for (const [index, eventTime] of times.entries()) {
        await journal.record(sendDelivery(index, eventTime, WELCOME_SENT, { emailMessageId: 'm_1', subject: 'Welcome to Acme' }));
      }
    } finally {
      await journal.close();
    }
    const result = await run(['--sandbox', 'deliveries', 'reconcile', '--store', file, '--json'], { env });
    const welcome = (result.json() as Reconciled).emails.find((row) => row.email.key === `transactional/${WELCOME}`)!;
    expect(welcome.gaps).toContainEqual({ field: 'sends', account: 18_432, kept: times.length, missing: 18_432 - times.length });
  });
});
