/** `metrics experiments` against the sandbox's demo account: its subject test judged, its holdout experiment said without a verdict. */
import { describe, expect, it } from 'vitest';
import type { ExperimentReport } from '../../../../src/areas/metrics/experiments.js';
import { run, tempDir } from '../../../support/main.js';
import { SEED_IDS } from '../../../support/sandbox.js';

describe('loopsctl metrics experiments', () => {
  it("judges the demo's subject test with the two-proportion z-test, and says why the holdout experiment has no verdict", async () => {
    const env = { LOOPSCTL_CONFIG_DIR: tempDir() };
    const result = await run(['--sandbox', 'metrics', 'experiments', '--json'], { env });
    expect(result.code, result.stderr).toBe(0);
    const reports = result.json() as ExperimentReport[];
    const subject = reports.find((report) => report.workflow.id === SEED_IDS.experimentWorkflow)!;
    expect(subject.samplingRate).toBe(50);
    expect(subject.variants.map((variant) => [variant.control, variant.weight, variant.metrics?.sends])).toEqual([
      [true, 0.5, 400],
      [false, 0.5, 400],
    ]);
    const judgement = subject.judgement!;
    expect(judgement.sampleRatio).toMatchObject({ mismatch: false, pValue: 1 });
    const opens = judgement.metrics.find((metric) => metric.metric === 'opens')!;
    // 220 of 400 opened against 260 of 400: scipy.stats.chi2_contingency(correction=False) gives p = 0.003892417122778637.
    expect(opens.test).toBe('two-proportion z');
    expect(Math.abs(opens.pValue - 0.003892417122778637)).toBeLessThan(1e-9);
    expect(opens.rates).toEqual([0.55, 0.65]);
    expect(opens.lifts[1]).toBeCloseTo(0.65 / 0.55 - 1, 12);
    expect(opens.verdict).toBe('better');
    const clicks = judgement.metrics.find((metric) => metric.metric === 'clicks')!;
    // 60 of 400 clicked against 44 of 400: fewer, and not significantly so (p ≈ 0.09).
    expect(clicks.verdict).toBe('no difference');
    // 2 spam reports of 400 in each: 2 expected in a cell, fewer than the 5 the test needs.
    expect(judgement.metrics.find((metric) => metric.metric === 'spamReports')!.verdict).toBe('not enough data');

    const holdout = reports.find((report) => report.workflow.name === 'Win-back (draft)')!;
    expect(holdout.judgement).toBeUndefined();
    expect(holdout.noVerdict).toBe('only one variant sends an email: no email node to compare (a holdout sends nothing)');
  });

  it('shows the verdicts as a table, and one workflow named by its name', async () => {
    const env = { LOOPSCTL_CONFIG_DIR: tempDir() };
    const result = await run(['--sandbox', 'metrics', 'experiments', 'Beta onboarding subject test'], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('workflow "Beta onboarding subject test", experiment ');
    expect(result.stdout).toMatch(/open rate\s+55\.00%\s+65\.00%\s+\+18\.18%\s+\+3\.25% to \+16\.75%\s+0\.0039\s+better/);
    expect(result.stdout).toContain('two-proportion z-test; sample ratio as weighted (p = 1.0000)');
    expect(result.stdout).not.toContain('Win-back');

    const none = await run(['--sandbox', 'metrics', 'experiments', 'No such workflow'], { env });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no workflow has the id or name "No such workflow"');
  });
});
