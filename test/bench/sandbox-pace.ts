/**
 * `npm run bench -- pace`: a `content pull` of some 1,000 requests against `loopsctl sandbox` with
 * its rate limit on (10 requests in any sliding second, counted as they arrive), in processes of
 * their own as an app's rehearsal runs them. The sandbox logs every answer with its status: the
 * figure is how many it refused with 429, which a pace the API never refuses keeps at 0.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from './measure.js';
import { answersOf, startSandboxProcess } from './sandbox-process.js';

/** Published transactional emails: listed 50 a page, then each one's message read: 1,011 requests in all. */
const EMAILS = 990;

export interface PaceFigures {
  /** Requests the sandbox answered. */
  requests: number;
  /** Of which answered 429. */
  refused: number;
  /** Wall time of the pull. */
  ms: number;
}

export async function measureSandboxPace(bin: string, baseEnv: Record<string, string>): Promise<PaceFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'loopsctl-bench-pace-'));
  try {
    const fixtures = join(dir, 'fixtures.json');
    const transactionalEmails = Array.from({ length: EMAILS }, (_, index) => ({
      name: `Email ${index}`,
      subject: `Subject ${index}`,
      lmx: `<Paragraph>Hello {data.name}, this is email ${index}.</Paragraph>`,
    }));
    writeFileSync(fixtures, JSON.stringify({ transactionalEmails }));
    const env = { ...baseEnv, LOOPSCTL_CONFIG_DIR: join(dir, 'config') };
    const sandbox = await startSandboxProcess(bin, ['--fixtures', fixtures, '--state', join(dir, 'state.json'), '--rate-limit', 'on'], env);
    try {
      const { url } = sandbox;
      const pull = await run(
        {
          label: 'loopsctl content pull',
          args: [bin, 'content', 'pull', join(dir, 'loops'), '--only', 'transactional', '--json'],
          env: { LOOPS_BASE_URL: url, LOOPS_API_KEY: 'sandbox-key' },
        },
        env,
      );
      const records = (JSON.parse(pull.stdout) as { records: unknown[] }).records.length;
      if (records !== EMAILS) throw new Error(`the pull wrote ${records} of ${EMAILS} records`);
      return { ...answersOf(sandbox.log()), ms: pull.ms };
    } finally {
      sandbox.kill();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
