/**
 * Tests that need a program the machine may lack (zsh, fish, util-linux's `script`): each is
 * skipped without it and says so, in its name and once on stderr, so that no run loses a test
 * without a word.
 */
import { spawnSync } from 'node:child_process';

/** Whether the program runs: a shell runs `exit 0`, another program answers `--version`. */
export function installed(program: string, probe: string[] = ['-c', 'exit 0']): boolean {
  return spawnSync(program, probe, { stdio: 'ignore' }).status === 0;
}

export interface Need {
  /** For it.skipIf / describe.skipIf. */
  skip: boolean;
  /** The test's name, with why it is skipped when it is. */
  title(name: string): string;
}

export function needs(program: string, probe?: string[]): Need {
  const skip = !installed(program, probe);
  const why = `${program} is not installed`;
  if (skip) console.warn(`note: ${why}: the tests that need it are skipped`);
  return { skip, title: (name) => (skip ? `${name} (skipped: ${why})` : name) };
}
