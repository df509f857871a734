/**
 * `metrics history` with a delivery journal: the days before an email's first snapshot counted
 * from the events the journal kept of it, each marked as the journal's. End to end, the sandbox
 * delivers its webhooks to `webhooks listen --store`, the journal an app keeps, while the clock
 * moves; a day the journal kept no event of, or only part of (pruned), is a gap that says so.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { openDeliveryStore } from '../../../../src/webhooks/store/index.js';
import { eachTest, sendDelivery, WELCOME_SENT } from '../../../support/journaled-sandbox.js';
import { run } from '../../../support/main.js';
import { SEED_IDS } from '../../../support/sandbox.js';

const SECRET = `whsec_${Buffer.from('the secret of the history journal').toString('base64')}`;
const WELCOME = SEED_IDS.welcomeEmail;
const WORKFLOW = SEED_IDS.experimentWorkflow;
const DAY = 86_400_000;
const { scratchDir, journaled } = eachTest();

interface Period {
  start: string;
  status: string;
  counts?: Record<string, number | null>;
  reason?: string;
}
interface Made {
  historyStartsAt: string;
  journal: { store: string; from: string | null } | null;
  periods: Period[];
}

/** A morning three weeks ahead, so that each step stays in its day. */
function morning(): Date {
  const first = new Date(Date.now() + 21 * DAY);
  first.setUTCHours(9, 0, 0, 0);
  return first;
}

describe('loopsctl metrics history with the delivery journal', () => {
  it('fills the days before the first snapshot from the journal the app kept, marked as its, and a day it kept nothing of is a gap', async () => {
    // The sandbox signs its webhooks at its clock, weeks ahead of this machine's: the app's check of their age is off.
    const { store, listen, api } = await journaled(SECRET, ['--tolerance', '0']);
    const ok = async (argv: string[], extra: Record<string, string> = {}) => {
      const result = await run(argv, { env: { ...api, ...extra } });
      expect(result.code, `${argv.join(' ')}: ${result.stderr}`).toBe(0);
      return result;
    };
    const send = async (times: number) => {
      for (let i = 0; i < times; i += 1)
        await ok(['transactional', 'send', WELCOME, '--to', `r${i}@example.com`, '--var', 'firstName=Ada', '--var', 'loginUrl=https://acme.example/in']);
    };
    const first = morning();
    const day = (offset: number) => new Date(first.getTime() + offset * DAY).toISOString().slice(0, 10);

    // Day 0: two sends, the journal keeps them; day 1: nothing at all; day 2: three sends. Day 3:
    // the first snapshot, then four sends; day 4: a snapshot.
    await ok(['sandbox', 'clock', 'set', first.toISOString()]);
    await send(2);
    await listen.waitFor(/(?:"eventName":"email\.delivered"[\s\S]*){2}/);
    await ok(['sandbox', 'clock', 'advance', '2d']);
    await send(3);
    await listen.waitFor(/(?:"eventName":"email\.delivered"[\s\S]*){5}/);
    await ok(['sandbox', 'clock', 'advance', '1d']);
    await ok(['metrics', 'snapshot']);
    await send(4);
    await ok(['sandbox', 'clock', 'advance', '1d']);
    await ok(['metrics', 'snapshot']);

    const filled = (await ok(['metrics', 'history', WELCOME, '--delivery-store', store, '--json'])).json<Made>();
    expect(filled.journal).toEqual({ store, from: `${day(0)}T00:00:00.000Z` });
    expect(filled.historyStartsAt.slice(0, 10)).toBe(day(3));
    expect(filled.periods.map(({ start, status, counts, reason }) => [start.slice(0, 10), status, counts?.sends, counts?.deliveries, reason])).toEqual([
      [day(0), 'journal', 2, 2, undefined],
      [day(1), 'gap', undefined, undefined, 'the journal kept no event that day'],
      [day(2), 'journal', 3, 3, undefined],
      [day(3), 'start', undefined, undefined, undefined],
      [day(4), 'counted', 4, 4, undefined],
    ]);
    // Only what an event stands for exactly, and what the email's snapshots report.
    expect(filled.periods[0]!.counts).toEqual({
      sends: 2,
      deliveries: 2,
      opens: null,
      clicks: null,
      unsubscribes: null,
      spamReports: 0,
      hardBounces: 0,
      softBounces: 0,
    });

    // LOOPS_DELIVERY_STORE names the journal as --delivery-store does; set empty, none is read.
    const viaEnv = (await ok(['metrics', 'history', WELCOME, '--json'], { LOOPS_DELIVERY_STORE: store })).json<Made>();
    expect(viaEnv.periods).toEqual(filled.periods);
    const without = (await ok(['metrics', 'history', WELCOME, '--json'], { LOOPS_DELIVERY_STORE: '' })).json<Made>();
    expect(without.journal).toBeNull();
    expect(without.periods.map((period) => period.status)).toEqual(['start', 'counted']);

    // From a day after the first snapshot, the journal fills nothing, and says so.
    const later = await ok(['metrics', 'history', WELCOME, '--delivery-store', store, '--since', day(4)]);
    expect(later.stdout).toContain(
      `The delivery journal ${store} fills no day here: it kept no event of this email in a period shown before the first snapshot.`,
    );
    expect(later.stdout).not.toContain('from the delivery journal');

    // The text says which periods are the journal's, and so does the page.
    const text = await ok(['metrics', 'history', WELCOME, '--delivery-store', store]);
    expect(text.stdout).toContain(
      `Before it, from ${day(0)}, each day marked "from the delivery journal" is counted from the events of this email that ${store} kept`,
    );
    const lines = text.stdout.split('\n');
    expect(lines.find((line) => line.startsWith(day(0)))).toMatch(/^\S+\s+2\s+2 \(100\.00%\).*from the delivery journal$/);
    expect(lines.find((line) => line.startsWith(day(1)))).toContain('no snapshot: a gap (the journal kept no event that day)');
    const page = join(scratchDir(), 'history.html');
    await ok(['metrics', 'history', WELCOME, '--delivery-store', store, '--out', page]);
    const html = readFileSync(page, 'utf8');
    const deliveries = html.slice(
      html.indexOf('<figure data-chart="deliveries">'),
      html.indexOf('</figure>', html.indexOf('<figure data-chart="deliveries">')),
    );
    expect([...deliveries.matchAll(/<circle class="point (\w+)" data-period="([^"]+)"/g)].map((match) => [match[2], match[1]])).toEqual([
      [day(0), 'journal'],
      [day(2), 'journal'],
      [day(4), 'snapshots'],
    ]);
    expect(deliveries).toContain(`${day(1)}: no snapshot: a gap (the journal kept no event that day)`);
    expect(html).toContain('from the delivery journal, before the first snapshot');
  });

  it('makes a day whose deliveries were pruned a gap, never a count of what is left, and refuses a journal URL of neither kind', async () => {
    const env = { LOOPSCTL_CONFIG_DIR: scratchDir() };
    const file = join(scratchDir(), 'deliveries.db');
    // A Tuesday: the day before it is in its week, the two before that in the week before.
    const first = morning();
    while (first.getUTCDay() !== 2) first.setTime(first.getTime() + DAY);
    const day = (offset: number) => new Date(first.getTime() + offset * DAY).toISOString().slice(0, 10);
    const journal = await openDeliveryStore(`sqlite:${file}`);
    try {
      // A send on each of the three days before the snapshot.
      for (const offset of [3, 2, 1]) {
        const eventTime = Math.floor((first.getTime() - offset * DAY) / 1000);
        await journal.record(sendDelivery(offset, eventTime, WELCOME_SENT, { emailMessageId: 'm_1', subject: 'Welcome to Acme' }));
      }
    } finally {
      await journal.close();
    }
    // The middle day's deliveries pruned, as keepDays prunes them: its daily counts stay.
    const db = new DatabaseSync(file);
    db.prepare("DELETE FROM loopsctl_webhook_deliveries WHERE webhook_id = 'msg_2'").run();
    db.close();
    const ok = async (argv: string[]) => {
      const result = await run(argv, { env });
      expect(result.code, `${argv.join(' ')}: ${result.stderr}`).toBe(0);
      return result;
    };
    await ok(['sandbox', 'clock', 'set', first.toISOString()]);
    await ok(['--sandbox', 'metrics', 'snapshot']);
    const made = (await ok(['metrics', 'history', WELCOME, '--delivery-store', file, '--json'])).json<Made>();
    expect(made.periods.map(({ status, counts, reason }) => [status, counts?.sends, reason])).toEqual([
      ['journal', 1, undefined],
      ['gap', undefined, 'the journal kept 0 of the 1 events it received that day (the rest pruned)'],
      ['journal', 1, undefined],
      ['start', undefined, undefined],
    ]);
    // By week, the week before the first snapshot's is a gap too, saying which day was pruned; the
    // snapshot's own week starts history, the journal's Monday in it left out.
    const weekly = (await ok(['metrics', 'history', WELCOME, '--delivery-store', file, '--by', 'week', '--json'])).json<Made>();
    expect(weekly.periods.map(({ start, status, reason }) => [start.slice(0, 10), status, reason])).toEqual([
      [day(-8), 'gap', `the journal kept 0 of the 1 events it received that day (the rest pruned) (${day(-2)})`],
      [day(-1), 'start', undefined],
    ]);

    const neither = await run(['metrics', 'history', WELCOME, '--delivery-store', 'mysql://user:secret@db/loops'], { env });
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('mysql://[redacted]@db/loops');
    expect(neither.stderr).toContain('--delivery-store (or LOOPS_DELIVERY_STORE)');
    expect(neither.stderr).not.toContain('secret');
  });

  it("fills a workflow email's days by the message its snapshot kept, and says so when no snapshot kept it", async () => {
    const env = { LOOPSCTL_CONFIG_DIR: scratchDir() };
    const file = join(scratchDir(), 'deliveries.db');
    const first = morning();
    const ok = async (argv: string[]) => {
      const result = await run(argv, { env });
      expect(result.code, `${argv.join(' ')}: ${result.stderr}`).toBe(0);
      return result;
    };
    await ok(['sandbox', 'clock', 'set', first.toISOString()]);
    const { emails } = (await ok(['--sandbox', 'metrics', 'snapshot', '--json'])).json<{ emails: string[] }>();
    const key = emails.find((email) => email.startsWith(`workflow/${WORKFLOW}/`))!;
    const node = key.split('/')[2]!;
    const workflow = (await ok(['--sandbox', 'workflow', 'get', WORKFLOW, '--json'])).json<{ nodes: Record<string, { emailMessageId?: string }> }>();
    const message = workflow.nodes[node]!.emailMessageId!;
    const journal = await openDeliveryStore(`sqlite:${file}`);
    try {
      // The day before the snapshot, a send of this node's message, and one of another workflow's with the same message id.
      const eventTime = Math.floor((first.getTime() - DAY) / 1000);
      for (const [index, loopId] of [WORKFLOW, 'cother00000000000000000000'].entries()) {
        const sent = { eventName: 'loop.email.sent', loopId };
        await journal.record(sendDelivery(index, eventTime, sent, { emailMessageId: message, subject: 'Welcome to the beta' }));
      }
    } finally {
      await journal.close();
    }
    const made = (await ok(['metrics', 'history', key, '--delivery-store', file, '--json'])).json<Made>();
    expect(made.periods.map(({ status, counts }) => [status, counts?.sends])).toEqual([
      ['journal', 1],
      ['start', undefined],
    ]);

    // A store whose snapshots never kept the message (as one a loopsctl before it wrote): said, and nothing filled.
    const db = new DatabaseSync(join(env.LOOPSCTL_CONFIG_DIR, 'metrics.db'));
    db.prepare('DELETE FROM loopsctl_metrics_messages').run();
    db.close();
    const unknown = await ok(['metrics', 'history', key, '--delivery-store', file]);
    expect(unknown.stdout).toContain(
      `The delivery journal ${file} fills no day: this workflow email's events name its message, which no snapshot of it has kept yet`,
    );
    const json = (await ok(['metrics', 'history', key, '--delivery-store', file, '--json'])).json<Made>();
    expect(json.journal).toEqual({ store: file, from: null });
    expect(json.periods.map((period) => period.status)).toEqual(['start']);
  });
});
