/**
 * `deliveries reconcile`: the account's counters of each email against the events the delivery
 * journal kept of it: sends against `*.email.sent`, deliveries against `email.delivered`, hard and
 * soft bounces and spam reports against theirs. Each gap is named; opens, clicks and unsubscribes
 * count unique people on the platform and every event in the journal, so they are not comparable.
 * With --since, what the counters gained since the metrics store's last snapshot at or before that
 * time, against the events since that snapshot. With --contacts, the contacts the journal says
 * hard-bounced or unsubscribed, against the account (reconcile-contacts.ts). Exit 1 when a gap, or
 * the number of contacts not as the journal says, passes --max-gap.
 */
import { ExitCode, UsageError } from '../../base/errors.js';
import { instantOf } from '../../base/instant.js';
import { sanitize } from '../../base/sanitize.js';
import { type Handler, handler } from '../../core/capabilities.js';
import { wrapText } from '../../render/wrap.js';
import { COMPARED, type Compared, countedEvent, EVENT_FIELD, eventsKeyOf, stepByStep } from '../metrics/journal.js';
import type { CounterField } from '../metrics/periods.js';
import { countersOf, targetsOf } from '../metrics/snapshot.js';
import { type KeptEmail, openMetricsStore } from '../metrics/store.js';
import { openStore } from '../webhooks-shared/store-option.js';
import { CONTACT_EVENTS, type ContactRow, ContactStates, checkContacts, renderContacts } from './reconcile-contacts.js';

/** The journal is read an hour at a time: between hours the counters' requests, read meanwhile at the API's pace, go out on time. */
const HOUR_MS = 3_600_000;

interface ReconcileOptions {
  store?: string;
  metricsStore?: string;
  since?: string;
  maxGap?: number;
  contacts?: boolean;
}

const COMPARED_FIELDS = Object.keys(COMPARED) as Compared[];
/** Counted once a person on the platform, once an event in the journal. */
const NOT_COMPARABLE: CounterField[] = ['opens', 'clicks', 'unsubscribes'];

const NOUNS: Record<Compared, string> = {
  sends: 'sends',
  deliveries: 'deliveries',
  hardBounces: 'hard bounces',
  softBounces: 'soft bounces',
  spamReports: 'spam reports',
};

type Target = Awaited<ReturnType<typeof targetsOf>>[number];

export interface Gap {
  field: Compared;
  account: number;
  kept: number;
  /** The account's count less the journal's: missing when above 0, more kept than counted below it. */
  missing: number;
}

export const reconcile: Handler<[], ReconcileOptions> = handler(['out', 'client', 'globals', 'config', 'env', 'clock'], async (context, _args, options) => {
  const { out } = context;
  const maxGap = options.maxGap ?? 0;
  const api = await context.client();
  const targets = await targetsOf(api);
  // The email an event's ids name, by the key its events carry.
  const byEvents = new Map(
    targets.flatMap((target) => {
      const key = eventsKeyOf(target, target.emailMessageId);
      return key === undefined ? [] : [[key, target.key] as const];
    }),
  );
  // With --since, each email's counters at the snapshot before it, and when that was (the account's clock).
  const bases =
    options.since === undefined
      ? undefined
      : await basesAt(
          context,
          options,
          targets.map((target) => target.key),
        );
  const from = bases === undefined ? undefined : Math.min(...[...bases.values()].map((base) => base.takenAt));
  const kept = new Map<string, Record<Compared, number>>();
  const journal = await openStore(context, options);
  // The counters are read at the API's pace while the journal is read: a run takes the longer of the two, not their sum.
  const counting = countersOf(context, api, targets);
  // Awaited once the journal is read; a failure meanwhile waits for that.
  counting.catch(() => {});
  const states = options.contacts === true ? new ContactStates() : undefined;
  let events = 0;
  try {
    const names = [...Object.keys(EVENT_FIELD), ...(states === undefined ? [] : CONTACT_EVENTS)];
    for await (const deliveries of stepByStep(journal, names, HOUR_MS, from)) {
      for (const delivery of deliveries) {
        if (delivery.verified) states?.see(delivery);
        const event = countedEvent(delivery);
        if (event === undefined) continue;
        const at = delivery.eventAt.getTime();
        const counted = kept.get(event.key) ?? { sends: 0, deliveries: 0, hardBounces: 0, softBounces: 0, spamReports: 0 };
        // Counted from the email's own snapshot: an event before it is in the snapshot's counts already.
        const base = bases?.get(byEvents.get(event.key) ?? '');
        if (bases !== undefined && (base === undefined || at < base.takenAt)) continue;
        counted[event.field] += 1;
        kept.set(event.key, counted);
        events += 1;
      }
    }
  } catch (error) {
    // The counters' requests end with the run.
    context.cancel();
    await counting.catch(() => {});
    throw error;
  } finally {
    await journal.close();
  }
  const { found, code, byKey } = await counting;
  const rows = found.flatMap(({ item, value }): Row[] => {
    const target = byKey.get(item)!;
    const eventsKey = eventsKeyOf(target, target.emailMessageId);
    const base = bases?.get(item);
    if (bases !== undefined && base === undefined) return [{ email: emailOf(target), skipped: 'no snapshot at or before --since in the metrics store' }];
    const counted = eventsKey === undefined ? undefined : kept.get(eventsKey);
    const gaps: Gap[] = [];
    for (const field of COMPARED_FIELDS) {
      const now = value.body[field];
      if (typeof now !== 'number') continue;
      const account = now - (base?.counts[field] ?? 0);
      const journalCount = counted?.[field] ?? 0;
      gaps.push({ field, account, kept: journalCount, missing: account - journalCount });
    }
    const notComparable = NOT_COMPARABLE.filter((field) => typeof value.body[field] === 'number');
    return [{ email: emailOf(target), gaps, notComparable }];
  });
  const contacts = states === undefined ? undefined : await checkContacts(context, api, states);
  const mismatches = contacts?.rows.filter((row) => row.mismatch).length ?? 0;
  const over = rows.some((row) => row.gaps?.some((gap) => Math.abs(gap.missing) > maxGap) === true) || mismatches > maxGap;
  if (out.json)
    await out.writeJson({
      since: from === undefined ? null : new Date(from).toISOString(),
      events,
      maxGap,
      emails: rows,
      ...(contacts === undefined ? {} : { contacts: { checked: contacts.rows.length, mismatches, rows: contacts.rows } }),
    });
  else await out.write(renderReconcile(rows, contacts?.rows, maxGap, out.tty ? out.columns : undefined));
  const failed = Math.max(code, contacts?.code ?? ExitCode.ok);
  if (failed !== ExitCode.ok) return failed;
  return over ? ExitCode.mismatch : ExitCode.ok;
});

function emailOf(target: Target): KeptEmail {
  return { key: target.key, kind: target.kind, recordId: target.recordId, nodeId: target.nodeId, name: target.name, workflowName: target.workflowName };
}

/** Each email's last snapshot at or before --since. */
async function basesAt(context: Parameters<typeof openMetricsStore>[0], options: ReconcileOptions, keys: readonly string[]) {
  const store = await openMetricsStore(context, { ...(options.metricsStore === undefined ? {} : { store: options.metricsStore }) });
  try {
    const latest = await store.latest();
    const lastAt = Math.max(0, ...latest.values());
    const since = instantOf(options.since!, '--since', new Date(lastAt), 'start');
    const bases = new Map<string, { takenAt: number; counts: Record<string, number | null> }>();
    for (const key of keys) {
      const before = (await store.series(key)).filter((point) => point.takenAt <= since).sort((a, b) => a.takenAt - b.takenAt);
      const base = before.at(-1);
      if (base !== undefined) bases.set(key, { takenAt: base.takenAt, counts: base.counts });
    }
    if (bases.size === 0)
      throw new UsageError(`no email has a snapshot at or before ${new Date(since).toISOString()} in ${store.location}`, {
        hint: 'take one with `loopsctl metrics snapshot` when the journal starts, or reconcile without --since',
      });
    return bases;
  } finally {
    await store.close();
  }
}

type Row = { email: KeptEmail; skipped?: string; gaps?: Gap[]; notComparable?: CounterField[] };

/**
 * A line an email: "Welcome (transactional/…): 27 sends in the account, 20 kept: 7 missing", or
 * that it matches; then, with --contacts, the contacts' count and each contact not as the journal
 * says; on a terminal, wrapped to its width.
 */
function renderReconcile(rows: readonly Row[], contacts: readonly ContactRow[] | undefined, maxGap: number, width: number | undefined): string {
  const lines = rows.map((row) => {
    const named = `${row.email.name} (${row.email.key})`;
    if (row.skipped !== undefined) return `${named}: not reconciled: ${row.skipped}`;
    const gaps = row.gaps!.filter((gap) => gap.missing !== 0);
    const told = gaps.map(
      (gap) =>
        `${gap.account} ${NOUNS[gap.field]} in the account, ${gap.kept} kept: ${gap.missing > 0 ? `${gap.missing} missing` : `${-gap.missing} more than the account counts`}`,
    );
    const within = gaps.length > 0 && gaps.every((gap) => Math.abs(gap.missing) <= maxGap) ? ' (within --max-gap)' : '';
    const unmatched =
      row.notComparable!.length === 0 ? '' : `; ${row.notComparable!.join(', ')} not comparable (the account counts people, the journal events)`;
    return `${named}: ${told.length === 0 ? `exact (${row.gaps!.map((gap) => `${gap.account} ${NOUNS[gap.field]}`).join(', ')})` : `${told.join('; ')}${within}`}${unmatched}`;
  });
  if (contacts !== undefined) lines.push(...renderContacts(contacts, maxGap));
  return lines.map((line) => `${width === undefined ? sanitize(line) : wrapText(sanitize(line), width)}\n`).join('');
}
