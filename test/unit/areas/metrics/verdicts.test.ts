/**
 * An experiment judged: the variants' weights, the test for more than two, the sample ratio check
 * and the words. Expected p-values are scipy.stats 1.17.1's (chi2_contingency(correction=False),
 * chisquare), as R's chisq.test gives them.
 */
import { describe, expect, it } from 'vitest';
import { type JudgedVariant, judge, variantWeights } from '../../../../src/areas/metrics/verdicts.js';

const variant = (node: string, control: boolean, weight: number, sends: number, opens: number): JudgedVariant => ({
  node,
  control,
  weight,
  metrics: { sends, opens, clicks: sends / 10, unsubscribes: sends / 100, spamReports: 0, hardBounces: sends / 50, softBounces: sends / 50 },
});

describe('the weights of an experiment', () => {
  it('share the sampling rate among the variants and give the rest to the control, as the sandbox sends contacts', () => {
    expect(variantWeights(50, [true, false])).toEqual([0.5, 0.5]);
    expect(variantWeights(20, [true, false, false])).toEqual([0.8, 0.1, 0.1]);
    // Without a control, only the sample is sent through: the variants alike.
    expect(variantWeights(30, [false, false, false])).toEqual([1 / 3, 1 / 3, 1 / 3]);
    expect(variantWeights(40, [true])).toEqual([1]);
  });
});

describe('a judgement', () => {
  it("tests three variants by Pearson's chi-squared, each against the control with its interval", () => {
    const judged = judge([variant('a', true, 1 / 3, 1000, 200), variant('b', false, 1 / 3, 1000, 260), variant('c', false, 1 / 3, 1000, 230)]);
    expect(judged.reference).toBe(0);
    const opens = judged.metrics.find((metric) => metric.metric === 'opens')!;
    expect(opens.test).toBe('chi-squared');
    expect(Math.abs(opens.statistic - 10.163749294184077)).toBeLessThan(1e-9);
    expect(Math.abs(opens.pValue - 0.006208259804085228)).toBeLessThan(1e-9);
    expect(opens.verdict).toBe('different');
    expect(opens.lifts[0]).toBeNull();
    expect(opens.lifts[1]).toBeCloseTo(0.3, 12);
    expect(opens.intervals[0]).toBeNull();
    expect(opens.intervals[1]!.difference).toBeCloseTo(0.06, 12);
    expect(opens.intervals[1]!.low).toBeGreaterThan(0);
    // Clicks are 10% in each: nothing to tell apart.
    expect(judged.metrics.find((metric) => metric.metric === 'clicks')!.verdict).toBe('no difference');
    expect(judged.sampleRatio.mismatch).toBe(false);
  });

  it('finds a split that is not the weights, and then trusts no verdict', () => {
    const judged = judge([variant('a', true, 0.5, 500, 100), variant('b', false, 0.5, 300, 150)]);
    // scipy.stats.chisquare([500, 300], [400, 400]): 50, p = 1.537459794428033e-12.
    expect(judged.sampleRatio.statistic).toBeCloseTo(50, 12);
    expect(Math.abs(judged.sampleRatio.pValue - 1.537459794428033e-12) / 1.537459794428033e-12).toBeLessThan(1e-6);
    expect(judged.sampleRatio.mismatch).toBe(true);
    expect(new Set(judged.metrics.map((metric) => metric.verdict))).toEqual(new Set(['ratio mismatch']));
  });

  it('says worse of a variant whose bounces are higher, better of one whose opens are, and not enough data under 100 sends', () => {
    const worse = judge([
      variant('a', true, 0.5, 2000, 400),
      { ...variant('b', false, 0.5, 2000, 500), metrics: { ...variant('b', false, 0.5, 2000, 500).metrics, hardBounces: 120 } },
    ]);
    expect(worse.metrics.find((metric) => metric.metric === 'opens')!.verdict).toBe('better');
    expect(worse.metrics.find((metric) => metric.metric === 'hardBounces')!.verdict).toBe('worse');
    const small = judge([variant('a', true, 0.5, 90, 20), variant('b', false, 0.5, 90, 60)]);
    expect(small.metrics.find((metric) => metric.metric === 'opens')!.verdict).toBe('not enough data');
  });

  it('compares with the first variant when there is no control', () => {
    const judged = judge([variant('a', false, 0.5, 1000, 200), variant('b', false, 0.5, 1000, 200)]);
    expect(judged.reference).toBe(0);
    expect(judged.metrics.find((metric) => metric.metric === 'opens')!.verdict).toBe('no difference');
  });
});
