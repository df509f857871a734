/** A server a test spawns (`loopsctl sandbox`, `sandbox serve`), which prints the URL it listens on as its first line. */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';

/** The first line `child` prints; rejects, with what it wrote to stderr, if it exits before printing one. */
export function firstLine(child: ChildProcessWithoutNullStreams, what: string): Promise<string> {
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
      if (stdout.includes('\n')) resolve(stdout.slice(0, stdout.indexOf('\n')));
    });
    child.on('exit', (code) => reject(new Error(`${what} exited with ${code}: ${stderr}`)));
  });
}
