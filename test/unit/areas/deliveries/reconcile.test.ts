/** How `deliveries reconcile` (and `metrics history`) read the journal while the account's counters are read. */
import { describe, expect, it } from 'vitest';
import { stepByStep } from '../../../../src/areas/metrics/journal.js';
import type { DeliveryFilter } from '../../../../src/webhooks/store/filter.js';
import type { DeliveryStore, StoredDelivery } from '../../../../src/webhooks/store/index.js';

const HOUR_MS = 3_600_000;
const START = Date.UTC(2026, 10, 2);

/** A journal of one delivery an hour that answers at once, as a SQLite store does. */
function journalOf(hours: number): DeliveryStore {
  const all = Array.from({ length: hours }, (_, hour) => ({ webhookId: `msg_${hour}`, eventAt: new Date(START + hour * HOUR_MS) }) as StoredDelivery);
  const find = async (filter: DeliveryFilter) => {
    const within = all.filter(
      (delivery) => (filter.since === undefined || delivery.eventAt >= filter.since) && (filter.until === undefined || delivery.eventAt < filter.until),
    );
    const ordered = filter.order === 'oldest' ? within : [...within].reverse();
    return filter.limit === undefined ? ordered : ordered.slice(0, filter.limit);
  };
  return { find } as unknown as DeliveryStore;
}

describe('stepByStep', () => {
  it('reads every delivery an hour at a time, letting the event loop turn between hours so that requests go out meanwhile', async () => {
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    const seen: { id: string; turned: boolean }[] = [];
    for await (const deliveries of stepByStep(journalOf(5), ['transactional.email.sent'], HOUR_MS))
      for (const delivery of deliveries) seen.push({ id: delivery.webhookId, turned });
    expect(seen.map((each) => each.id)).toEqual(['msg_0', 'msg_1', 'msg_2', 'msg_3', 'msg_4']);
    // The first hour is read before any turn; a later one after the event loop has turned.
    expect(seen[0]!.turned).toBe(false);
    expect(seen.at(-1)!.turned).toBe(true);
  });
});
