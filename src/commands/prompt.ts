/** Reading a secret: hidden input on a terminal, or the whole of stdin for scripts. */
import { InterruptedError, UsageError } from '../api/errors.js';

export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Asks on stderr and reads a line from the terminal without echoing it. */
export function promptHidden(question: string): Promise<string> {
  const { stdin, stderr } = process;
  if (!stdin.isTTY) throw new UsageError('no terminal to ask for the key on', { hint: 'pipe the key in with --with-key-stdin' });
  // Echo goes off before the question appears, so nothing typed after it can be shown.
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.resume();
  stderr.write(question);
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = () => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      stderr.write('\n');
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n' || char === '\u0004') {
          finish();
          resolve(value);
          return;
        }
        if (char === '\u0003') {
          finish();
          reject(new InterruptedError('interrupted'));
          return;
        }
        if (char === '\u007f' || char === '\b') value = value.slice(0, -1);
        else value += char;
      }
    };
    stdin.on('data', onData);
  });
}
