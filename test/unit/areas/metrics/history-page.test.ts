/**
 * The page `metrics history --out` writes: a chart a rate, whose line joins only periods next to
 * each other that have the rate (a gap is shaded, never bridged), the start said, the table, and
 * the numbers --json gives; nothing that loads from the network.
 */
import { describe, expect, it } from 'vitest';
import { pageOf } from '../../../../src/areas/metrics/history.js';
import { type Counts, ratesOf } from '../../../../src/areas/metrics/periods.js';
import type { KeptEmail } from '../../../../src/areas/metrics/store.js';
import { counts, historyFrom } from './snapshots.js';

const EMAIL: KeptEmail = {
  key: 'campaign/c1',
  kind: 'campaign',
  recordId: 'c1',
  nodeId: null,
  name: 'October <news> & "more"',
  workflowName: null,
};

// Day 1 the first snapshot; days 2 and 3 counted; day 4 a gap; days 5 and 6 counted.
const MADE = historyFrom([
  ['2026-11-01T02:00:00Z', 100, 40],
  ['2026-11-02T02:00:00Z', 200, 80],
  ['2026-11-03T02:00:00Z', 300, 110],
  ['2026-11-05T02:00:00Z', 500, 150],
  ['2026-11-06T02:00:00Z', 600, 170],
]);

describe('the history page', () => {
  it('draws a line a run of periods with the rate, broken at the first snapshot and at the gap, which is shaded', async () => {
    const html = await pageOf({ email: EMAIL, by: 'day', made: MADE });
    const opens = html.slice(html.indexOf('<figure data-chart="opens">'), html.indexOf('</figure>', html.indexOf('<figure data-chart="opens">')));
    expect([...opens.matchAll(/data-run="([^"]+)"/g)].map((match) => match[1])).toEqual(['2026-11-02..2026-11-03', '2026-11-05..2026-11-06']);
    expect([...opens.matchAll(/<circle[^>]*data-period="([^"]+)" data-rate="([^"]+)"/g)].map((match) => [match[1], Number(match[2])])).toEqual([
      ['2026-11-02', 0.4],
      ['2026-11-03', 0.3],
      ['2026-11-05', 0.2],
      ['2026-11-06', 0.2],
    ]);
    expect([...opens.matchAll(/data-gap="([^"]+)"/g)].map((match) => match[1])).toEqual(['2026-11-04']);
    // The first snapshot's period, which has no number, marked where history starts.
    expect([...opens.matchAll(/data-start="([^"]+)"/g)].map((match) => match[1])).toEqual(['2026-11-01']);
    // Day 5 counts from the snapshot before the gap, two days of sends, and its point says so.
    expect(opens).toContain('2026-11-05: 20.00% (40 of 200 sends)');
  });

  it('charts each rate the periods have, and none the API does not report', async () => {
    const html = await pageOf({ email: EMAIL, by: 'day', made: MADE });
    expect([...html.matchAll(/<figure data-chart="(\w+)">/g)].map((match) => match[1])).toEqual([
      'opens',
      'clicks',
      'unsubscribes',
      'spamReports',
      'hardBounces',
      'softBounces',
    ]);
  });

  it('says that history starts with the first snapshot, holds the table and the numbers --json gives, and loads nothing', async () => {
    const html = await pageOf({ email: EMAIL, by: 'day', made: MADE });
    expect(html).toContain(
      '<p class="said">campaign/c1 &quot;October &lt;news&gt; &amp; &quot;more&quot;&quot; by day: history starts with its first snapshot, 2026-11-01T02:00:00.000Z</p>',
    );
    expect(html).toContain('<td>2026-11-04</td><td>-</td>');
    expect(html).toContain('<td>no snapshot: a gap</td>');
    expect(html).toContain('<td>since 2026-11-03T02:00:00Z (after a gap)</td>');
    const data = html.slice(html.indexOf('<script type="application/json" id="history-json">') + 50, html.indexOf('</script>'));
    const json = JSON.parse(data) as { historyStartsAt: string; periods: { status: string; counts?: Counts }[]; email: KeptEmail };
    expect(json.email.name).toBe(EMAIL.name);
    expect(json.historyStartsAt).toBe('2026-11-01T02:00:00.000Z');
    expect(json.periods.map((period) => [period.status, period.counts?.sends])).toEqual([
      ['start', undefined],
      ['counted', 100],
      ['counted', 100],
      ['gap', undefined],
      ['counted', 200],
      ['counted', 100],
    ]);
    // Nothing from the network, and no script that runs.
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
    expect(html).not.toMatch(/\b(?:src|href)=/);
    expect(html.match(/<script/g)).toHaveLength(1);
    // The data block cannot end itself early, whatever the names hold.
    expect(data).not.toContain('<');
  });

  it('draws the periods the delivery journal filled apart: their own line and points, and says so', async () => {
    const day = (iso: string) => Date.parse(iso);
    const journalCounts = { ...counts(50, 0), opens: null, clicks: null, unsubscribes: null };
    const journal = [
      {
        start: day('2026-10-30T00:00:00Z'),
        end: day('2026-10-31T00:00:00Z'),
        status: 'journal' as const,
        counts: journalCounts,
        rates: ratesOf(journalCounts),
      },
      {
        start: day('2026-10-31T00:00:00Z'),
        end: day('2026-11-01T00:00:00Z'),
        status: 'journal' as const,
        counts: journalCounts,
        rates: ratesOf(journalCounts),
      },
    ];
    const html = await pageOf({
      email: EMAIL,
      by: 'day',
      made: { ...MADE, rows: [...journal, ...MADE.rows] },
      journal: { store: 'deliveries.db', from: journal[0]!.start, matched: true },
    });
    const spam = html.slice(html.indexOf('<figure data-chart="spamReports">'), html.indexOf('</figure>', html.indexOf('<figure data-chart="spamReports">')));
    expect([...spam.matchAll(/<path class="line (\w+)" data-run="([^"]+)"/g)].map((match) => [match[1], match[2]])).toEqual([
      ['journal', '2026-10-30..2026-10-31'],
      ['snapshots', '2026-11-02..2026-11-03'],
      ['snapshots', '2026-11-05..2026-11-06'],
    ]);
    expect(spam).toContain('2026-10-30: 0.00% (0 of 50 sends, from the delivery journal)');
    expect(html).toContain('from the delivery journal, before the first snapshot');
    expect(html).toContain('<td>2026-10-31</td><td>50</td>');
    expect(html).toContain('each day marked &quot;from the delivery journal&quot; is counted from the events of this email that deliveries.db kept');
  });
});
