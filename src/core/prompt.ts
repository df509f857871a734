/** Reading from the user: hidden input on a terminal, a yes/no question, or the whole of stdin for scripts. */
import { InterruptedError, UsageError } from '../base/errors.js';
import { sanitize } from '../base/sanitize.js';
import { readInput } from './input.js';
import type { InputSource, Runtime } from './runtime.js';

export async function readStdin(runtime: InputSource): Promise<string> {
  return (await readInput(runtime, '-', 'input')).text;
}

/** What a question needs: the terminal, and the run's signal, which a Ctrl-C or kill sent as a signal aborts. */
type Asking = Pick<Runtime, 'stdin' | 'stderr' | 'signal'>;

/**
 * Reads one line from the terminal, echoing it or not. Ctrl-C typed (a byte, in raw mode) and the
 * run's signal (SIGINT, SIGTERM from another program) both interrupt; the terminal closing ends the
 * line as Ctrl-D does.
 */
function readLine(runtime: Asking, question: string, hidden: boolean): Promise<string> {
  const { stdin, stderr, signal } = runtime;
  if (signal.aborted) return Promise.reject(new InterruptedError('interrupted'));
  // Echo goes off before the question appears, so nothing typed after it can be shown.
  stdin.setRawMode?.(true);
  stdin.setEncoding('utf8');
  stdin.resume();
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = () => {
      stdin.setRawMode?.(false);
      stdin.pause();
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      signal.removeEventListener('abort', onAbort);
      stderr.write('\n');
    };
    // Ctrl-C, typed or sent.
    const onAbort = () => {
      finish();
      reject(new InterruptedError('interrupted'));
    };
    // The line's end: Enter, Ctrl-D, or the terminal closing.
    const onEnd = () => {
      finish();
      resolve(value);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n' || char === '\u0004') return onEnd();
        if (char === '\u0003') return onAbort();
        if (char === '\u007f' || char === '\b') {
          if (!hidden && value.length > 0) stderr.write('\b \b');
          value = value.slice(0, -1);
        } else {
          value += char;
          if (!hidden) stderr.write(char);
        }
      }
    };
    stdin.on('data', onData);
    stdin.once('end', onEnd);
    signal.addEventListener('abort', onAbort, { once: true });
    // Asked once listening: an interruption that comes as the question appears still ends it.
    stderr.write(question);
  });
}

/** Asks on stderr and reads a line from the terminal without echoing it. */
export function promptHidden(runtime: Asking, question: string): Promise<string> {
  if (!runtime.stdin.isTTY) throw new UsageError('no terminal to ask for the key on', { hint: 'pipe the key in with --with-key-stdin' });
  return readLine(runtime, question, true);
}

/**
 * The safety rule for destructive operations: on a terminal, ask; otherwise go ahead only with
 * --yes. Nothing has been sent when this refuses. A question quotes the API (a workflow's name, a
 * team's), so it is sanitized: escape sequences in a name cannot rewrite what is asked.
 */
export async function confirm(runtime: Asking, question: string, yes: boolean | undefined): Promise<void> {
  if (yes) return;
  if (!runtime.stdin.isTTY) throw new UsageError(`${question.replace(/\?$/, '')}: not confirmed`, { hint: 'pass --yes to confirm when not on a terminal' });
  const answer = (await readLine(runtime, `${sanitize(question)} [y/N] `, false)).trim().toLowerCase();
  if (answer !== 'y' && answer !== 'yes') throw new UsageError('cancelled; nothing was changed');
}
