/**
 * Tests that need a program the machine may lack (zsh, fish, util-linux's `script`): each is
 * skipped without it and says so, in its name and once on stderr, so that no run loses a test
 * without a word.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

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

/** package.json's engines: the oldest Node loopsctl runs on, as [major, minor, patch]. */
export function oldestNode(): number[] {
  const engines = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')).engines.node as string;
  const oldest = /^>=(\d+)\.(\d+)\.(\d+)$/.exec(engines);
  if (oldest === null) throw new Error(`package.json's engines.node is not ">=x.y.z": ${engines}`);
  return oldest.slice(1).map(Number);
}

/**
 * A `node` older than loopsctl runs on (Node 20, many machines' own): LOOPSCTL_TEST_OLD_NODE, else
 * the first on PATH, where a machine's own Node sits behind the one CI puts first; and the Need of
 * the tests that run on it.
 */
export function olderNode(): Need & { node: string | undefined } {
  const oldest = oldestNode();
  const isOlder = (version: string) => {
    const parts = version.replace(/^v/, '').split('.').map(Number);
    const at = parts.findIndex((part, index) => part !== oldest[index]);
    return at !== -1 && parts[at]! < oldest[at]!;
  };
  const candidates = [process.env.LOOPSCTL_TEST_OLD_NODE, ...(process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'node'))];
  const node = candidates.find((candidate) => {
    if (candidate === undefined || candidate === '') return false;
    const answer = spawnSync(candidate, ['--version'], { encoding: 'utf8' });
    return answer.status === 0 && isOlder(answer.stdout.trim());
  });
  const why = `no node older than ${oldest.join('.')} on PATH or in LOOPSCTL_TEST_OLD_NODE`;
  if (node === undefined) console.warn(`note: ${why}: the tests that need one are skipped`);
  return { node, skip: node === undefined, title: (name) => (node === undefined ? `${name} (skipped: ${why})` : name) };
}
