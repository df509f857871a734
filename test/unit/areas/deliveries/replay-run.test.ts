/** Replay's pace, retries and stop, on a clock of the test's own: no time passes. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PACE, type ReplayDriver, type ReplayItem, replayDeliveries } from '../../../../src/areas/deliveries/replay-run.js';
import type { DeliveryOutcome } from '../../../../src/platform/webhooks/deliver.js';

const ok: DeliveryOutcome = { status: 200, latencyMs: 1, body: '' };
const status = (code: number): DeliveryOutcome => ({ status: code, latencyMs: 1, body: '' });
const silent: DeliveryOutcome = { status: null, latencyMs: 30_000, error: 'no answer within 30 s' };

/** A driver whose clock moves only when waited on, answering each try from `answers` (by id, in turn). */
function driver(answers: Record<string, DeliveryOutcome[]>, controller = new AbortController()) {
  let clock = 0;
  const sends: { id: string; at: number }[] = [];
  const waits: number[] = [];
  const run: ReplayDriver<ReplayItem> & { sends: typeof sends; waits: number[]; controller: AbortController } = {
    sends,
    waits,
    controller,
    signal: controller.signal,
    now: () => clock,
    async wait(ms, signal) {
      if (signal.aborted) throw signal.reason;
      waits.push(ms);
      clock += ms;
    },
    async send(item) {
      sends.push({ id: item.webhookId, at: clock });
      const queue = answers[item.webhookId] ?? [ok];
      return queue.length > 1 ? queue.shift()! : queue[0]!;
    },
  };
  return run;
}
const items = (count: number) => Array.from({ length: count }, (_, index) => ({ webhookId: `msg_${index}` }));

describe('replayDeliveries', () => {
  it('sends each delivery once, at most ten a second', async () => {
    const run = driver({});
    const report = await replayDeliveries(items(25), DEFAULT_PACE, run);
    expect(report).toEqual({ sent: 25, failed: [], stopped: false, lastDone: 'msg_24', remaining: 0 });
    expect(run.sends.map((send) => send.id)).toEqual(items(25).map((item) => item.webhookId));
    for (let index = 10; index < run.sends.length; index++) expect(run.sends[index]!.at - run.sends[index - 10]!.at).toBeGreaterThanOrEqual(1000);
  });

  it('retries a 5xx, a 429 and no answer with a doubling wait, and lists what still fails', async () => {
    const run = driver({ msg_0: [status(500), status(503), ok], msg_1: [silent], msg_2: [status(429), ok] });
    const report = await replayDeliveries(items(3), DEFAULT_PACE, run);
    expect(report.sent).toBe(2);
    expect(report.failed).toEqual([{ webhookId: 'msg_1', outcome: silent, attempts: 3 }]);
    expect(run.sends.map((send) => send.id)).toEqual(['msg_0', 'msg_0', 'msg_0', 'msg_1', 'msg_1', 'msg_1', 'msg_2', 'msg_2']);
    expect(run.waits.filter((ms) => ms >= 1000)).toEqual([1000, 2000, 1000, 2000, 1000]);
  });

  it('lists a 4xx at once: the target refused it, and another try would be refused the same', async () => {
    const run = driver({ msg_0: [status(400), ok] });
    const report = await replayDeliveries(items(2), DEFAULT_PACE, run);
    expect(report.failed).toEqual([{ webhookId: 'msg_0', outcome: status(400), attempts: 1 }]);
    expect(run.sends.map((send) => send.id)).toEqual(['msg_0', 'msg_1']);
  });

  it('stops at Ctrl-C with what was done and the id to resume after; the delivery cut short is not counted', async () => {
    const controller = new AbortController();
    const run = driver({}, controller);
    const send = run.send;
    run.send = async (item, signal) => {
      if (item.webhookId === 'msg_3') controller.abort();
      return send(item, signal);
    };
    const report = await replayDeliveries(items(6), DEFAULT_PACE, run);
    expect(report).toEqual({ sent: 3, failed: [], stopped: true, lastDone: 'msg_2', remaining: 3 });
  });

  it('stops during a retry wait just the same', async () => {
    const controller = new AbortController();
    const run = driver({ msg_1: [status(500), ok] }, controller);
    const wait = run.wait;
    run.wait = async (ms, signal) => {
      if (ms >= 1000) controller.abort();
      return wait(ms, signal);
    };
    const report = await replayDeliveries(items(3), DEFAULT_PACE, run);
    expect(report).toEqual({ sent: 1, failed: [], stopped: true, lastDone: 'msg_0', remaining: 2 });
  });
});
