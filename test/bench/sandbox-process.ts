/** A `loopsctl sandbox` of the bench's own, in a process of its own as an app's rehearsal runs it: its address, and its log (one line an answer). */
import { spawn } from 'node:child_process';

export interface SandboxProcess {
  url: string;
  /** What it has written on stderr so far: "<time> GET /v1/… 200 3.1 ms", a line an answer. */
  log(): string;
  kill(): void;
}

export async function startSandboxProcess(bin: string, args: readonly string[], env: Record<string, string>): Promise<SandboxProcess> {
  const sandbox = spawn(process.execPath, [bin, 'sandbox', '--port', '0', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  sandbox.stderr.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let stdout = '';
      sandbox.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        if (stdout.includes('\n')) resolve(stdout.slice(0, stdout.indexOf('\n')));
      });
      sandbox.on('exit', (code) => reject(new Error(`loopsctl sandbox exited with ${code}: ${log}`)));
    });
    return { url, log: () => log, kill: () => sandbox.kill() };
  } catch (error) {
    sandbox.kill();
    throw error;
  }
}

/** The answers a sandbox's log lists, and how many it refused with 429. */
export function answersOf(log: string): { requests: number; refused: number } {
  const answers = log.split('\n').filter((line) => / \/v1\/\S* \d{3} [\d.]+ ms$/.test(line));
  return { requests: answers.length, refused: answers.filter((line) => / 429 [\d.]+ ms$/.test(line)).length };
}
