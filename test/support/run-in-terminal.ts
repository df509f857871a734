/**
 * Runs the built CLI on a pseudo-terminal (util-linux `script`), as a person at a terminal would,
 * so that prompts, box drawing and colour can be checked end to end.
 */
import { spawn } from 'node:child_process';
import { needs } from './programs.js';
import { BIN, type CliResult, tempConfigDir } from './run-cli.js';

/** util-linux's `script`, which gives the CLI a pseudo-terminal. */
export const script = needs('script', ['--version']);

const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

export interface Typing {
  /**
   * Typed once the screen shows `after`, as a person types in answer to a prompt, or once `after`
   * resolves (a request reached the server). "\x03" is Ctrl-C: the terminal sends SIGINT to the
   * programs in the foreground, loopsctl and its pager alike.
   */
  input: string;
  after: string | Promise<unknown>;
}

/**
 * stdout and stderr arrive mixed, as on a screen, with \r\n line ends turned into \n. The
 * terminal has no size (Node reads 0 columns) unless `columns` gives it one.
 */
export function runInTerminal(args: string[], env: Record<string, string>, typing?: Typing, columns?: number): Promise<CliResult> {
  const run = [process.execPath, BIN, ...args].map(quote).join(' ');
  const command = columns === undefined ? run : `stty cols ${columns} rows 40 && exec ${run}`;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        TERM: 'xterm-256color',
        LOOPSCTL_CONFIG_DIR: tempConfigDir(),
        COLUMNS: '200',
        LOOPSCTL_PAGER: '',
        ...env,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let typed = false;
    const type = () => {
      if (typed) return;
      typed = true;
      child.stdin.end(typing!.input);
    };
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
      if (typing && typeof typing.after === 'string' && stdout.includes(typing.after)) type();
    });
    if (typing && typeof typing.after !== 'string') void typing.after.then(type);
    if (!typing) child.stdin.end();
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: stdout.replace(/\r\n/g, '\n'), stderr: '' }));
  });
}
