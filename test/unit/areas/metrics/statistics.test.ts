/**
 * The statistics of `metrics experiments` against a reference implementation: every expected value
 * below is scipy.stats 1.17.1's (norm.cdf, chi2.sf, chi2_contingency(correction=False), chisquare),
 * which give what R's pnorm, pchisq(lower.tail = FALSE), prop.test(correct = FALSE) and
 * chisq.test(p = ...) give; the quantiles (qnorm(0.975) = 1.959963984540054, qchisq(0.95, 4) =
 * 9.487729036781154, …) are the published tables'. Held to 1e-9, tighter than the 1e-6 promised.
 */
import { describe, expect, it } from 'vitest';
import {
  chiSquaredSurvival,
  chiSquaredTest,
  goodnessOfFit,
  logGamma,
  normalCdf,
  regularizedGamma,
  twoProportionTest,
} from '../../../../src/areas/metrics/statistics.js';

const close = (actual: number, expected: number, tolerance = 1e-9) => expect(Math.abs(actual - expected)).toBeLessThan(tolerance);

describe('the statistics of experiments', () => {
  it('gives the standard normal distribution as scipy.stats.norm.cdf (R: pnorm)', () => {
    const table: [number, number][] = [
      [-5, 2.866515718791933e-7],
      [-3, 0.0013498980316300933],
      [-1.959963984540054, 0.025],
      [-1, 0.15865525393145707],
      [-0.5, 0.3085375387259869],
      [0, 0.5],
      [0.5, 0.6914624612740131],
      [1, 0.8413447460685429],
      [1.96, 0.9750021048517795],
      [2.5758293035489, 0.995],
      [3, 0.9986501019683699],
      [6, 0.9999999990134123],
    ];
    for (const [z, p] of table) close(normalCdf(z), p);
    // A far tail keeps its digits, relatively: pnorm(-5) to 1e-9 of itself.
    expect(Math.abs(normalCdf(-5) / 2.866515718791933e-7 - 1)).toBeLessThan(1e-9);
  });

  it("gives the chi-squared distribution's upper tail as scipy.stats.chi2.sf (R: pchisq(lower.tail = FALSE))", () => {
    const table: [number, number, number][] = [
      [0.01, 1, 0.920344325445942],
      [0.5, 1, 0.47950012218695337],
      [3.841458820694124, 1, 0.05],
      [8.333333333333334, 1, 0.003892417122778637],
      [5.991464547107979, 2, 0.05],
      [1, 3, 0.8012519569012009],
      [11.34486673014437, 3, 0.01],
      [9.487729036781154, 4, 0.05],
      [18.30703805327515, 10, 0.05],
      [40, 10, 1.694474393006737e-5],
      [100, 50, 3.454931382984871e-5],
    ];
    for (const [x, df, p] of table) close(chiSquaredSurvival(x, df), p);
    // With two degrees of freedom the tail is exp(-x/2), exactly.
    for (const x of [0.1, 1, 4, 20]) close(chiSquaredSurvival(x, 2), Math.exp(-x / 2), 1e-14);
  });

  it('computes ln Γ and the regularized gamma functions as their identities say', () => {
    close(logGamma(0.5), Math.log(Math.sqrt(Math.PI)), 1e-14);
    close(logGamma(1), 0, 1e-14);
    close(logGamma(6), Math.log(120), 1e-13);
    // Γ(1/4) = 3.6256099082219083…, to the double nearest it.
    close(logGamma(0.25), Math.log(3.625609908221908), 1e-13);
    // P(1, x) = 1 - e^-x, on both sides of a + 1, where the series and the continued fraction meet.
    for (const x of [0.5, 1.9, 2.1, 10]) close(regularizedGamma(1, x).p, 1 - Math.exp(-x), 1e-14);
  });

  it('tests two proportions as chi2_contingency(correction=False) does (R: prop.test(correct = FALSE))', () => {
    // The sandbox's demo experiment: 220 of 400 opened against 260 of 400.
    const result = twoProportionTest({ successes: 220, trials: 400 }, { successes: 260, trials: 400 });
    close(result.z ** 2, 8.333333333333334);
    close(result.pValue, 0.003892417122778637);
    close(result.difference, 0.1, 1e-15);
    // The Wald interval: 0.1 ± 1.959963984540054 × √(0.55·0.45/400 + 0.65·0.35/400).
    const spread = 1.959963984540054 * Math.sqrt((0.55 * 0.45) / 400 + (0.65 * 0.35) / 400);
    close(result.interval[0], 0.1 - spread, 1e-15);
    close(result.interval[1], 0.1 + spread, 1e-15);
    // The same table by Pearson's chi-squared: the same p-value.
    close(
      chiSquaredTest([
        { successes: 220, trials: 400 },
        { successes: 260, trials: 400 },
      ]).pValue,
      result.pValue,
      1e-12,
    );
  });

  it("tests three groups by Pearson's chi-squared as chi2_contingency(correction=False) does", () => {
    const result = chiSquaredTest([
      { successes: 220, trials: 400 },
      { successes: 260, trials: 400 },
      { successes: 250, trials: 400 },
    ]);
    expect(result.df).toBe(2);
    close(result.statistic, 9.093558729233461);
    close(result.pValue, 0.010601292359198532);
  });

  it('checks a split against its weights as scipy.stats.chisquare does (R: chisq.test(p = ...))', () => {
    const two = goodnessOfFit([480, 520], [0.5, 0.5]);
    close(two.statistic, 1.6);
    close(two.pValue, 0.20590321073206466);
    const three = goodnessOfFit([90, 100, 110], [1, 1, 1]);
    close(three.statistic, 2);
    close(three.pValue, 0.36787944117144245);
  });
});
