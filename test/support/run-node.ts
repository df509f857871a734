/**
 * A Node.js script in a child process of its own, as an app runs loopsctl's libraries: what it
 * printed and how it exited.
 */
import { spawn } from 'node:child_process';
import type { CliResult } from './run-cli.js';

/** Runs this process's Node.js with `args` (its options, then the script) and only `env`. */
export function runNode(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}
