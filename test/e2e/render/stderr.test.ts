/**
 * A run that has nothing to say on stderr never asks for it: the real process opens stderr on
 * first use, which costs a start a millisecond or two when it is a pipe.
 */
import { describe, expect, it } from 'vitest';
import { run } from '../../support/main.js';

const SECRET = { LOOPS_WEBHOOK_SECRET: 'whsec_bG9vcHNjdGwtdGVzdC1zZWNyZXQ=' };

describe('stderr', () => {
  it.each([
    ['webhooks sign', ['webhooks', 'sign'], SECRET],
    ['--help', ['--help'], {}],
    ['a listing as JSON', ['--sandbox', 'ips', 'list', '--json'], {}],
    ['a listing as a table', ['--sandbox', 'themes', 'list'], {}],
  ])('is not opened by a successful run: %s', async (_name, argv, env) => {
    const result = await run(argv, { env, input: '{"type":"contact.created"}' });
    expect(result).toMatchObject({ code: 0, stderr: '', stderrOpened: false });
    expect(result.stdout).not.toBe('');
  });

  it('is opened for what a run has to say there', async () => {
    const failed = await run(['--sandbox', 'themes', 'get', 'no-such-theme']);
    expect(failed).toMatchObject({ code: 4, stderrOpened: true });
    expect(failed.stderr).toContain('Error: theme no-such-theme not found\n');
  });
});
