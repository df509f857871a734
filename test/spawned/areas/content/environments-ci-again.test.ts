/**
 * The CI recipe of docs/content.md's "Environments" (environments-ci.ts), a second change after a
 * first: the second push finds the state the first run's jobs committed. Without it, staging's
 * plan skips the email as changed in the account, and production's promotion takes a conflict.
 * (The pull request's review is environments-ci.test.ts's.)
 */
import { beforeAll, describe, it } from 'vitest';
import { pullRequest, readyWorld, resetText, shipped, type World } from './environments-ci.js';

describe("the docs' CI recipe for environments, run for one change after another", () => {
  let w: World;
  beforeAll(async () => {
    w = await readyWorld();
  });

  it.each(['reset', 'choose'])('applies a change to staging and promotes it to production, after the one before it (%s)', (words) => {
    pullRequest(w, `password-${words}`, resetText(words));
    shipped(w, `password-${words}`, words);
  });
});
