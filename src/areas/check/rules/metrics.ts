/**
 * The metrics family, only when thresholds are given (--max-bounce-rate and the others, or the
 * rules file's `thresholds`): each email's rates over the counters the API gives, or over the sends
 * since the last --snapshot.
 */
import type { Counters } from '../metrics.js';
import { type Problem, problem } from '../records.js';
import type { Threshold } from '../rules-file.js';
import { declareRules, type RuleFamily } from './rule.js';

const { rules, severityOf } = declareRules('metrics', {
  'bounce-rate': { severity: 'error', summary: 'an email whose hard and soft bounces, over its sends, pass the bounceRate threshold' },
  'complaint-rate': { severity: 'error', summary: 'an email whose spam reports, over its sends, pass the complaintRate threshold' },
  'unsubscribe-rate': { severity: 'error', summary: 'an email whose unsubscribes, over its sends, pass the unsubscribeRate threshold' },
  'open-rate': { severity: 'error', summary: 'an email whose opens, over its sends, stay under the openRate threshold' },
});

/** Each threshold: its rule, the counter it divides by the sends, and whether the rate must stay under it. */
const MEASURES: Record<
  Threshold,
  { rule: 'bounce-rate' | 'complaint-rate' | 'unsubscribe-rate' | 'open-rate'; part: (counters: Counters) => number | undefined; noun: string; most: boolean }
> = {
  bounceRate: { rule: 'bounce-rate', part: (c) => c.hardBounces + c.softBounces, noun: 'bounce rate', most: true },
  complaintRate: { rule: 'complaint-rate', part: (c) => c.spamReports, noun: 'complaint rate', most: true },
  unsubscribeRate: { rule: 'unsubscribe-rate', part: (c) => c.unsubscribes, noun: 'unsubscribe rate', most: true },
  openRate: { rule: 'open-rate', part: (c) => c.opens, noun: 'open rate', most: false },
};

const percent = (rate: number) => `${Number((rate * 100).toFixed(2))}%`;

export const metrics: RuleFamily = {
  family: 'metrics',
  rules,
  check(account, expected) {
    const problems: Problem[] = [];
    for (const email of account.metrics ?? []) {
      const { sends } = email.counters;
      if (sends === 0) continue;
      for (const [threshold, limit] of Object.entries(expected.thresholds) as [Threshold, number | undefined][]) {
        const measure = MEASURES[threshold];
        const part = measure.part(email.counters);
        if (limit === undefined || part === undefined) continue;
        const rate = part / sends;
        if (measure.most ? rate <= limit : rate >= limit) continue;
        problems.push(
          problem(
            email.record,
            measure.rule,
            severityOf(measure.rule),
            `${email.which}: ${measure.noun} ${percent(rate)} (${part} of ${sends} sends${account.sinceSnapshot ? ' since the snapshot' : ''}), ${measure.most ? 'over' : 'under'} the ${percent(limit)} allowed`,
            measure.most ? 'look at who it goes to and what bounces or complains, in the app' : 'look at its subject, sender and audience',
          ),
        );
      }
    }
    return problems;
  },
};
