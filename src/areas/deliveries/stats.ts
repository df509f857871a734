/** `deliveries stats`: the journal's events counted, in all or by recipient, event type or day, with their rates among sends. */
import { type Handler, handler } from '../../core/capabilities.js';
import { type Cell, renderTable } from '../../render/table.js';
import type { DeliveryStats, StatsBy } from '../../webhooks/store/index.js';
import { percentText } from '../webhooks-shared/alert-rules.js';
import { openStore } from '../webhooks-shared/store-option.js';
import { type FilterOptions, filterOf } from './filters.js';

interface StatsOptions extends FilterOptions {
  store?: string;
  by?: StatsBy;
}

/** The counts whose rate among sends is worth a column. */
const RATED = ['deliveries', 'bounces', 'softBounces', 'complaints', 'opens', 'clicks', 'unsubscribes'] as const;

/** A row's counts with each one's rate among the sends (null without sends). */
export function withRates(stats: DeliveryStats) {
  const rates = Object.fromEntries(RATED.map((name) => [name, stats.sends === 0 ? null : stats[name] / stats.sends]));
  return { ...stats, rates };
}

export const stats: Handler<[], StatsOptions> = handler(['out', 'clock', 'env'], async (context, _args, options) => {
  const { out } = context;
  const filter = filterOf(options, context.runtime.now());
  const store = await openStore(context, options);
  try {
    const rows = (await store.stats(filter, options.by)).map(withRates);
    if (out.json) return await out.writeJson(options.by === undefined ? rows[0] : rows);
    // A rate among no sends is no rate: `-`, as --json's null.
    const cell = (count: number, rate: number | null): Cell => `${count} (${rate === null ? '-' : percentText(rate)})`;
    const table = rows.map((row) => [
      ...(options.by === undefined ? [] : [row.key ?? '-']),
      String(row.events),
      String(row.sends),
      ...RATED.map((name) => cell(row[name], row.rates[name])),
    ]);
    const headers = ['EVENTS', 'SENDS', 'DELIVERED', 'BOUNCED', 'SOFT BOUNCED', 'SPAM REPORTS', 'OPENS', 'CLICKS', 'UNSUBSCRIBES'];
    const by = options.by === undefined ? [] : [{ header: options.by === 'email' ? 'RECIPIENT' : options.by.toUpperCase(), truncate: true }];
    await out.write(renderTable(out, [...by, ...headers.map((header) => ({ header, align: 'right' as const }))], table));
  } finally {
    await store.close();
  }
});
