/**
 * An experiment judged from its variants' email counters: each rate among sends, its lift against
 * the control, the test of the variants' difference (the two-proportion z-test for two, Pearson's
 * chi-squared for more) with the 95% interval of each variant's difference from the control, a
 * check of the split against the variants' weights (sample ratio mismatch), and one word a metric.
 */
import type { EmailMetrics } from '../../platform/email-metrics.js';
import { chiSquaredTest, goodnessOfFit, twoProportionTest } from './statistics.js';

/** The rates judged, each a count among sends, and which way is better. */
export const JUDGED = [
  { metric: 'opens', higherIsBetter: true },
  { metric: 'clicks', higherIsBetter: true },
  { metric: 'unsubscribes', higherIsBetter: false },
  { metric: 'spamReports', higherIsBetter: false },
  { metric: 'hardBounces', higherIsBetter: false },
  { metric: 'softBounces', higherIsBetter: false },
] as const;
export type JudgedMetric = (typeof JUDGED)[number]['metric'];

/** Below this many sends in a variant, no verdict. */
export const MIN_SENDS = 100;
/** Below this many expected successes or failures in a variant's cell, the tests' approximation does not hold: no verdict. */
export const MIN_EXPECTED = 5;
/** The significance level of a verdict. */
export const ALPHA = 0.05;
/** The sample ratio check's level: stricter, as the check runs on every experiment, every time. */
export const SRM_ALPHA = 0.001;

export type Verdict = 'better' | 'worse' | 'different' | 'no difference' | 'not enough data' | 'ratio mismatch';

export interface JudgedVariant {
  /** The VariantNode's id. */
  node: string;
  control: boolean;
  /** The share of the experiment's contacts it is meant to get. */
  weight: number;
  metrics: EmailMetrics;
}

export interface MetricJudgement {
  metric: JudgedMetric;
  /** Each variant's rate among its sends, in the variants' order. */
  rates: number[];
  /** Each variant's rate over the reference's, less one; null for the reference, or a reference rate of 0. */
  lifts: (number | null)[];
  /** Each variant's difference from the reference, with its 95% interval; null for the reference. */
  intervals: ({ difference: number; low: number; high: number } | null)[];
  test: 'two-proportion z' | 'chi-squared';
  statistic: number;
  pValue: number;
  verdict: Verdict;
}

export interface Judgement {
  /** The variant the others are compared with: the control, else the first. */
  reference: number;
  sampleRatio: { statistic: number; pValue: number; mismatch: boolean };
  metrics: MetricJudgement[];
}

/** Judges two variants or more; each must have sent. */
export function judge(variants: readonly JudgedVariant[]): Judgement {
  const controlAt = variants.findIndex((variant) => variant.control);
  const reference = controlAt === -1 ? 0 : controlAt;
  const sends = variants.map((variant) => variant.metrics.sends);
  const fit = goodnessOfFit(
    sends,
    variants.map((variant) => variant.weight),
  );
  const mismatch = fit.pValue < SRM_ALPHA;
  const metrics = JUDGED.map(({ metric, higherIsBetter }): MetricJudgement => {
    const groups = variants.map((variant) => ({ successes: variant.metrics[metric], trials: variant.metrics.sends }));
    const rates = groups.map((group) => (group.trials === 0 ? 0 : group.successes / group.trials));
    const base = groups[reference]!;
    const pairs = groups.map((group, i) => (i === reference ? null : twoProportionTest(base, group)));
    const lifts = rates.map((rate, i) => (i === reference || rates[reference] === 0 ? null : rate / rates[reference]! - 1));
    const intervals = pairs.map((pair) => (pair === null ? null : { difference: pair.difference, low: pair.interval[0], high: pair.interval[1] }));
    const overall = groups.length === 2 ? pairs[1 - reference]! : undefined;
    const test = overall === undefined ? chiSquaredTest(groups) : { statistic: overall.z, pValue: overall.pValue };
    const pooled = groups.reduce((sum, group) => sum + group.successes, 0) / groups.reduce((sum, group) => sum + group.trials, 0);
    const enough = groups.every((group) => group.trials >= MIN_SENDS && group.trials * pooled >= MIN_EXPECTED && group.trials * (1 - pooled) >= MIN_EXPECTED);
    let verdict: Verdict;
    if (mismatch) verdict = 'ratio mismatch';
    else if (!enough) verdict = 'not enough data';
    else if (test.pValue >= ALPHA) verdict = 'no difference';
    else if (overall === undefined) verdict = 'different';
    else verdict = overall.difference > 0 === higherIsBetter ? 'better' : 'worse';
    return { metric, rates, lifts, intervals, test: overall === undefined ? 'chi-squared' : 'two-proportion z', ...test, verdict };
  });
  return { reference, sampleRatio: { ...fit, mismatch }, metrics };
}

/**
 * The share of an experiment's contacts each variant is meant to get: the sampling rate shared
 * evenly by the variants, the rest to the control (running.ts's experimentVariant sends them so);
 * without a control, the variants alike.
 */
export function variantWeights(samplingRate: number, controls: readonly boolean[]): number[] {
  const others = controls.filter((control) => !control).length;
  const hasControl = controls.includes(true);
  const rate = Math.min(100, Math.max(0, samplingRate)) / 100;
  return controls.map((control) => {
    if (!hasControl) return 1 / others;
    if (others === 0) return 1;
    return control ? 1 - rate : rate / others;
  });
}
