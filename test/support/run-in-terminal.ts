/**
 * Runs the built CLI on a pseudo-terminal (util-linux `script`), as a person at a terminal would,
 * so that prompts, box drawing and colour can be checked end to end.
 */
import { execFileSync, spawn } from 'node:child_process';
import { BIN, tempConfigDir, type CliResult } from './run-cli.js';

export const hasScript = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

export interface Typing {
  /** Typed once the screen shows `after`, as a person types in answer to a prompt. */
  input: string;
  after: string;
}

/** stdout and stderr arrive mixed, as on a screen, with \r\n line ends turned into \n. */
export function runInTerminal(args: string[], env: Record<string, string>, typing?: Typing): Promise<CliResult> {
  const command = [process.execPath, BIN, ...args].map(quote).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TERM: 'xterm-256color', LOOPSCTL_CONFIG_DIR: tempConfigDir(), COLUMNS: '200', LOOPSCTL_PAGER: '', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let typed = false;
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
      if (typing && !typed && stdout.includes(typing.after)) {
        typed = true;
        child.stdin.end(typing.input);
      }
    });
    if (!typing) child.stdin.end();
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: stdout.replace(/\r\n/g, '\n'), stderr: '' }));
  });
}
