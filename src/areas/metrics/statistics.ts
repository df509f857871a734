/**
 * The statistics `metrics experiments` judges with: the normal and chi-squared distributions
 * through the regularized incomplete gamma function (the normal's tail is erfc, itself Q(1/2, x²)),
 * the two-proportion z-test and Pearson's chi-squared test of a k×2 table, and the chi-squared
 * goodness of fit that checks a split against its weights. Written here, a few dozen lines, rather
 * than taken from a package: test/unit/areas/metrics/statistics.test.ts holds them to published
 * reference values to 1e-9.
 */

/** ln Γ(x) for x > 0: Lanczos' approximation (g = 7, 9 terms), good to about 1e-15. */
export function logGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
    9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  const y = x - 1;
  let sum = c[0]!;
  for (let i = 1; i < 9; i += 1) sum += c[i]! / (y + i);
  const t = y + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(sum);
}

const EPSILON = 1e-16;
const MAX_TERMS = 10_000;

/**
 * The regularized incomplete gamma functions P(a, x) and Q(a, x) = 1 − P(a, x): the series below
 * a + 1, Lentz's continued fraction above, each computing the smaller side directly so that a tail
 * of 1e-300 keeps its digits.
 */
export function regularizedGamma(a: number, x: number): { p: number; q: number } {
  if (x <= 0) return { p: 0, q: 1 };
  const front = Math.exp(a * Math.log(x) - x - logGamma(a));
  if (x < a + 1) {
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n < MAX_TERMS && Math.abs(term) > Math.abs(sum) * EPSILON; n += 1) {
      term *= x / (a + n);
      sum += term;
    }
    const p = sum * front;
    return { p, q: 1 - p };
  }
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < MAX_TERMS; i += 1) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPSILON) break;
  }
  const q = front * h;
  return { p: 1 - q, q };
}

/** The standard normal distribution's P(Z ≤ z): ½ erfc(−z/√2), erfc(t) being Q(½, t²) for t ≥ 0. */
export function normalCdf(z: number): number {
  const tail = 0.5 * regularizedGamma(0.5, (z * z) / 2).q;
  return z < 0 ? tail : 1 - tail;
}

/** P(X > x) for X chi-squared with `df` degrees of freedom. */
export function chiSquaredSurvival(x: number, df: number): number {
  return regularizedGamma(df / 2, x / 2).q;
}

/** The 97.5th percentile of the standard normal: a 95% interval is ± this many standard errors. */
export const Z_95 = 1.959963984540054;

export interface Proportion {
  successes: number;
  trials: number;
}

/**
 * The two-proportion z-test of `b` against `a` (pooled standard error; R's
 * `prop.test(correct = FALSE)` gives its square as X-squared), with the 95% Wald interval of the
 * difference b − a.
 */
export function twoProportionTest(a: Proportion, b: Proportion): { z: number; pValue: number; difference: number; interval: [number, number] } {
  const pa = a.successes / a.trials;
  const pb = b.successes / b.trials;
  const pooled = (a.successes + b.successes) / (a.trials + b.trials);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / a.trials + 1 / b.trials));
  const difference = pb - pa;
  const z = se === 0 ? 0 : difference / se;
  const spread = Z_95 * Math.sqrt((pa * (1 - pa)) / a.trials + (pb * (1 - pb)) / b.trials);
  return { z, pValue: 2 * normalCdf(-Math.abs(z)), difference, interval: [difference - spread, difference + spread] };
}

/** Pearson's chi-squared test of independence of a k×2 table (successes and failures of each group), without continuity correction. */
export function chiSquaredTest(groups: readonly Proportion[]): { statistic: number; df: number; pValue: number } {
  const successes = groups.reduce((sum, group) => sum + group.successes, 0);
  const trials = groups.reduce((sum, group) => sum + group.trials, 0);
  const rate = successes / trials;
  let statistic = 0;
  for (const group of groups) {
    const expected = [group.trials * rate, group.trials * (1 - rate)];
    const observed = [group.successes, group.trials - group.successes];
    for (let i = 0; i < 2; i += 1) if (expected[i]! > 0) statistic += (observed[i]! - expected[i]!) ** 2 / expected[i]!;
  }
  const df = groups.length - 1;
  return { statistic, df, pValue: chiSquaredSurvival(statistic, df) };
}

/** The chi-squared goodness of fit of counts to weights (R's `chisq.test(counts, p = weights)`). */
export function goodnessOfFit(counts: readonly number[], weights: readonly number[]): { statistic: number; df: number; pValue: number } {
  const total = counts.reduce((sum, count) => sum + count, 0);
  const weightSum = weights.reduce((sum, weight) => sum + weight, 0);
  let statistic = 0;
  counts.forEach((count, i) => {
    const expected = (total * weights[i]!) / weightSum;
    if (expected > 0) statistic += (count - expected) ** 2 / expected;
  });
  const df = counts.length - 1;
  return { statistic, df, pValue: chiSquaredSurvival(statistic, df) };
}
