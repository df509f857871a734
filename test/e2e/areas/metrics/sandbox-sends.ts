/** What the tests of `metrics` run against the sandbox: commands that must succeed, and sends of the welcome email. */
import { expect } from 'vitest';
import { run } from '../../../support/main.js';
import { SEED_IDS } from '../../../support/sandbox.js';

export const WELCOME = SEED_IDS.welcomeEmail;

/** Runs loopsctl, and fails the test with its stderr unless it exits 0. */
export async function ok(argv: string[], env: Record<string, string>, tty?: { columns: number }) {
  const result = await run(argv, { env, tty });
  expect(result.code, `${argv.join(' ')}: ${result.stderr}`).toBe(0);
  return result;
}

/** Sends the welcome email `times` times through the sandbox, to a reader each. */
export async function send(times: number, env: Record<string, string>) {
  for (let i = 0; i < times; i += 1)
    await ok(
      ['--sandbox', 'transactional', 'send', WELCOME, '--to', `reader${i}@example.com`, '--var', 'firstName=Ada', '--var', 'loginUrl=https://acme.example/in'],
      env,
    );
}
