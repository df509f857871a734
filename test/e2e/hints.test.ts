/** Errors that point to the next step: the list to look in, what to do first, the setting that is wrong. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../support/main.js';

const dir = mkdtempSync(join(tmpdir(), 'loopsctl-hints-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let runs = 0;
const config = () => ({ LOOPSCTL_CONFIG_DIR: join(dir, `config-${++runs}`) });

/** "Payment failed" in the sandbox's seed: a draft, never published. */
const UNPUBLISHED = 'clnbezeie7a6e97br15gg5obs';

describe('hints', () => {
  it('points an unknown mailing list of a campaign to `lists list`', async () => {
    const { code, stderr } = await run(['--sandbox', 'campaigns', 'create', '--name', 'Launch', '--list', 'cnosuchlist0000000000000'], { env: config() });
    expect(code).toBe(4);
    expect(stderr).toContain('Hint: the mailing list does not exist; see the mailing lists with `loopsctl lists list`');
  });

  it('says to publish an unpublished transactional email before sending it', async () => {
    const { code, stderr } = await run(['--sandbox', 'transactional', 'send', UNPUBLISHED, '--to', 'ada@example.com'], { env: config() });
    expect(code).toBe(5);
    expect(stderr).toContain(`Hint: publish the email first: \`loopsctl transactional publish ${UNPUBLISHED}\``);
  });

  it('names --base-url or LOOPS_BASE_URL when its path cannot be right, before anything is sent', async () => {
    const flag = await run(['--base-url', 'https://app.loops.so/api/v1', 'themes', 'list'], { env: { ...config(), LOOPS_API_KEY: 'test-key-not-real' } });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toBe('Error: --base-url "https://app.loops.so/api/v1" ends in /v1, which loopsctl adds to every request path\nHint: give https://app.loops.so/api\n');
    const variable = await run(['themes', 'list'], { env: { ...config(), LOOPS_API_KEY: 'test-key-not-real', LOOPS_BASE_URL: 'https://app.loops.so' } });
    expect(variable.code).toBe(2);
    expect(variable.stderr).toContain('Error: LOOPS_BASE_URL "https://app.loops.so" has no /api path: the Loops API is at https://app.loops.so/api');
  });
});
