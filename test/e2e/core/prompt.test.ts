/**
 * Questions on a terminal (the confirmation of a destructive command): a signal sent to the run
 * (Ctrl-C or `kill` from another program, which abort the run's signal) ends one at once, and a
 * terminal that closes answers no.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/base/exit-codes.js';
import { run, tempDir } from '../../support/main.js';

/** Runs `contacts delete` on a terminal that answers nothing, and acts once the question is shown. */
async function askedToDelete(onQuestion: (stdin: PassThrough, interrupt: AbortController) => void) {
  const env = { LOOPSCTL_CONFIG_DIR: tempDir() };
  const stdin = new PassThrough();
  const interrupt = new AbortController();
  const result = await run(['--sandbox', 'contacts', 'delete', '--email', 'ada@example.com'], {
    env,
    tty: { columns: 80 },
    input: stdin,
    signal: interrupt.signal,
    onWrite: (stream, text) => {
      if (stream === 'stderr' && text.includes('[y/N]')) onQuestion(stdin, interrupt);
    },
  });
  const found = await run(['--sandbox', 'contacts', 'find', '--email', 'ada@example.com', '--json'], { env });
  return { result, stillThere: found.code === 0 };
}

describe('a question on a terminal', () => {
  it('ends at once when the run is interrupted by a signal, changing nothing', async () => {
    const { result, stillThere } = await askedToDelete((_stdin, interrupt) => interrupt.abort());
    expect(result.code).toBe(ExitCode.interrupted);
    expect(result.stderr).toContain('Error: interrupted');
    expect(stillThere).toBe(true);
  });

  it('is answered no when the terminal closes', async () => {
    const { result, stillThere } = await askedToDelete((stdin) => stdin.end());
    expect(result.code).toBe(ExitCode.usage);
    expect(result.stderr).toContain('Error: cancelled; nothing was changed');
    expect(stillThere).toBe(true);
  });
});
