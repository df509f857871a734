/**
 * The built binary reading a whole input from each kind of stdin: a pipe, a file, /dev/null, a
 * FIFO, and a device without end. It reads stdin's descriptor directly, without opening the
 * stream, so these run the real process.
 */
import { closeSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type CliResult, type RunOptions, spawnCli } from '../../support/run-cli.js';
import { tempDir } from '../../support/temp.js';

// The published test vector of the Standard Webhooks specification.
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const BODY = '{"test": 2432232314}';
const VECTOR = ['webhooks', 'sign', '--id', 'msg_p5jXN8AQM9LWM0D4loKWxJek', '--timestamp', '1614265330', '--json'];
const SIGNATURE = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';

const scratch = tempDir('loopsctl-stdin-');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The binary with stdin as given: 'pipe' gets `input` written and closed. */
function run(args: string[], stdin: RunOptions['stdin'], input?: string): Promise<CliResult> {
  return spawnCli(args, { env: { LOOPS_WEBHOOK_SECRET: SECRET }, stdin, input });
}

async function withFile<T>(path: string, use: (fd: number) => Promise<T>): Promise<T> {
  const fd = openSync(path, 'r');
  try {
    return await use(fd);
  } finally {
    closeSync(fd);
  }
}

const signature = (stdout: string) => (JSON.parse(stdout) as Record<string, string>)['webhook-signature'];

describe('a whole input on stdin', () => {
  it('is signed byte for byte from a pipe', async () => {
    const result = await run(VECTOR, 'pipe', BODY);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(signature(result.stdout)).toBe(SIGNATURE);
  });

  it('is signed byte for byte from a file', async () => {
    writeFileSync(join(scratch, 'body.json'), BODY);
    const result = await withFile(join(scratch, 'body.json'), (fd) => run(VECTOR, fd));
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(signature(result.stdout)).toBe(SIGNATURE);
  });

  it('is empty from /dev/null, and signed as such', async () => {
    const result = await run(VECTOR, 'ignore');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const verified = await run(
      ['webhooks', 'verify', '--id', 'msg_p5jXN8AQM9LWM0D4loKWxJek', '--timestamp', '1614265330', '--tolerance', '0', '--signature', signature(result.stdout)],
      'pipe',
      '',
    );
    expect(verified).toMatchObject({ code: 0, stdout: 'valid signature\n' });
  });

  it('stops past the limit on a device without end', async () => {
    const result = await withFile('/dev/zero', (fd) => run(['webhooks', 'sign'], fd));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('the body in stdin is larger than 67108864 bytes');
  });
});
