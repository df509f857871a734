/**
 * The CI recipe of docs/content.md's "Environments", followed word for word by the built binary
 * (environments-ci.ts): a pull request reviewed for each environment, with nothing sent, then
 * merged, applied to staging and promoted to production.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { draftIn, expectOutcomes, pullRequest, readyWorld, resetText, runWorkflow, shipped, type World } from './environments-ci.js';

describe("the docs' CI recipe for environments, followed word for word", () => {
  let w: World;
  beforeAll(async () => {
    w = await readyWorld();
  });

  it('reviews a pull request for each environment, applies it to staging and promotes it to production', () => {
    pullRequest(w, 'password-reset', resetText('reset'));
    const checked = runWorkflow(w, 'pull_request', 'password-reset');
    expectOutcomes(checked, { check: 'success', staging: 'success', production: 'skipped' });
    // The pull request's review, a page for each environment: its values, never a placeholder.
    const reviews = checked.find((run) => run.job === 'check')!.artifacts.get('reviews');
    expect([...(reviews?.keys() ?? [])].sort()).toEqual(['review-production.html', 'review-staging.html']);
    expect(reviews!.get('review-staging.html')).toContain('https://staging.example.com/reset');
    expect(reviews!.get('review-production.html')).toContain('https://app.example.com/reset');
    expect(reviews!.get('review-production.html')).not.toContain('staging.example.com');
    for (const page of reviews!.values()) expect(page).not.toContain('{env.');
    // Nothing was sent for a pull request.
    expect(draftIn(w, 'staging')).not.toContain('/reset?');
    shipped(w, 'password-reset', 'reset');
  });
});
