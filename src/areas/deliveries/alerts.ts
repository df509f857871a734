/**
 * `deliveries alerts`: alert rules judged over the journal's events by their own times, for the
 * whole account and each email, and each transition printed. Exit 1 when an alert still stands
 * fired at the end.
 */
import { ExitCode } from '../../base/errors.js';
import { type Handler, handler } from '../../core/capabilities.js';
import { transitionLine } from '../webhooks-shared/alert-render.js';
import { parseAlertRule } from '../webhooks-shared/alert-rules.js';
import { type AlertEvent, type AlertTransition, alertEventOf, judgeAlerts } from '../webhooks-shared/alert-window.js';
import { openStore } from '../webhooks-shared/store-option.js';
import { filterOf } from './filters.js';

interface AlertsOptions {
  alert: string[];
  minSends?: number;
  since: string;
  until?: string;
  store?: string;
}

/** The alerts fired at the end: the last transition of each rule and scope, where it is `fired`. */
export function standing(transitions: readonly AlertTransition[]): AlertTransition[] {
  const last = new Map<string, AlertTransition>();
  for (const transition of transitions) last.set(`${transition.rule}\u0000${transition.email?.id ?? ''}`, transition);
  return [...last.values()].filter((transition) => transition.state === 'fired');
}

export const alerts: Handler<[], AlertsOptions> = handler(['out', 'clock', 'env'], async (context, _args, options) => {
  const { out, runtime } = context;
  const rules = options.alert.map((text) => parseAlertRule(text, options.minSends));
  const now = runtime.now();
  const filter = filterOf({ since: options.since, ...(options.until === undefined ? {} : { until: options.until }) }, now);
  const store = await openStore(context, options);
  const events: AlertEvent[] = [];
  try {
    for (const delivery of await store.find({ ...filter, order: 'oldest' })) {
      if (!delivery.verified) continue;
      const event = alertEventOf(delivery.body);
      if (event !== undefined) events.push(event);
    }
  } finally {
    await store.close();
  }
  const until = Math.floor(((filter.until ?? now).getTime() - 1) / 1000);
  const { transitions, floors } = judgeAlerts(rules, events, until);
  if (out.json) await out.writeJson({ transitions, rules: floors });
  else {
    if (transitions.length > 0) await out.write(transitions.map((transition) => `${transitionLine(transition)}\n`).join(''));
    // A rule that never had its floor of sends gave no verdict: that is not "no alert".
    const unjudged = floors.filter((floor) => !floor.judged);
    for (const { rule, mostSends, minSends } of unjudged)
      out.note(`Too few sends to judge ${rule}: at most ${mostSends} in its window, under its minimum of ${minSends} (--min-sends sets another).`);
    if (transitions.length === 0 && unjudged.length < floors.length) out.note(`No alert fired over ${events.length} events.`);
  }
  return standing(transitions).length > 0 ? ExitCode.mismatch : ExitCode.ok;
});
