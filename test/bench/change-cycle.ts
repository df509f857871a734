/**
 * The change cycle's requests: `loopsctl apply` of a plan of 70 writes (test/support/change-plan.ts:
 * 50 emails' drafts, half of them of published emails, and two waits in each of 10 workflows), the
 * built loopsctl run against a sandbox server in this process that counts every request it answers.
 * The goal: 1.5 requests a write, 105 or fewer. The requests are paced at the API's 10 a second, so
 * the part takes a minute or two.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from '../../src/emulator/server.js';
import { type Loopsctl, plannedChange } from '../support/change-plan.js';
import { run } from './measure.js';

const API_KEY = 'sandbox-key';

export interface ChangeCycleFigure {
  /** The requests of `content push --plan --out` that wrote the plan. */
  plan: number;
  /** The requests of its apply, and how many of them wrote. */
  apply: number;
  writes: number;
}

export async function measureChangeCycle(bin: string, scratch: string, env: Record<string, string>): Promise<ChangeCycleFigure> {
  const methods: string[] = [];
  const server = await startServer({ rateLimit: false, onRequest: (request) => methods.push(request.method) });
  try {
    const directory = join(scratch, 'change-cycle');
    mkdirSync(directory);
    const runEnv = { ...env, LOOPS_BASE_URL: server.url, LOOPS_API_KEY: API_KEY, LOOPSCTL_CONFIG_DIR: join(directory, 'config') };
    const loopsctl: Loopsctl = async (args) => {
      try {
        return { code: 0, stderr: (await run({ label: `loopsctl ${args.slice(0, 2).join(' ')}`, args: [bin, ...args] }, runEnv)).stderr };
      } catch (error) {
        return { code: 1, stderr: String(error) };
      }
    };
    console.error('the change cycle: 50 emails and 10 workflows made, pulled, changed, planned and applied (paced: about 80 s)…');
    const plan = await plannedChange(server, API_KEY, loopsctl, directory, () => {
      methods.length = 0;
    });
    const planned = methods.length;
    methods.length = 0;
    const applied = await loopsctl(['apply', plan]);
    if (applied.code !== 0) throw new Error(applied.stderr);
    return { plan: planned, apply: methods.length, writes: methods.filter((method) => method !== 'GET').length };
  } finally {
    await server.close();
  }
}
