/**
 * `check --spamassassin host:port`: each email, rendered as a MIME message, scored by the team's own
 * spamd over the SPAMC protocol (SYMBOLS: the verdict, the score, the threshold and the rules that
 * hit). Nothing leaves the machine unless the person names a spamd; a spamd that does not answer
 * within the time limit leaves its emails not checked, never a hang.
 * The protocol: https://svn.apache.org/repos/asf/spamassassin/trunk/spamd/PROTOCOL
 */
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { textOfDocument } from '../../lmx/qa/index.js';
import { type RenderedEmail, whichEmail } from './emails.js';
import type { Account } from './gather.js';
import { LINK_RULES } from './links/rules.js';
import { type Problem, problem } from './records.js';

/** spamd answers a message this large at most by default (spamc's -s): larger ones are not scored. */
const MAX_MESSAGE_BYTES = 500 * 1024;

export interface Spamd {
  host: string;
  port: number;
}

export interface SpamdVerdict {
  spam: boolean;
  score: number;
  threshold: number;
  symbols: string[];
}

/** The email as a MIME message: a text part and the HTML, under its subject and sender. */
export function mimeMessage(email: RenderedEmail): string {
  const { message } = email.checked;
  const boundary = `loopsctl-${randomUUID()}`;
  const from = message.fromEmail.includes('@') ? message.fromEmail : `${message.fromEmail || 'hello'}@example.com`;
  const header = (text: string) => text.replace(/[\r\n]+/g, ' ');
  return [
    `From: ${header(message.fromName)} <${header(from)}>`,
    'To: recipient@example.com',
    `Subject: ${header(message.subject)}`,
    `Date: ${new Date().toUTCString()}`,
    `Message-ID: <${randomUUID()}@loopsctl.invalid>`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    textOfDocument(email.document),
    `--${boundary}`,
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    email.html,
    `--${boundary}--`,
    '',
  ].join('\r\n');
}

/** spamd's answer to SYMBOLS: `SPAMD/1.1 0 EX_OK`, `Spam: True ; 7.5 / 5.0`, then the rules that hit. */
export function readSpamdAnswer(answer: string): SpamdVerdict {
  const [head = '', body = ''] = answer.split(/\r?\n\r?\n/, 2);
  const [status = '', ...headers] = head.split(/\r?\n/);
  const code = /^SPAMD\/\d+\.\d+ (\d+) (.*)$/.exec(status);
  if (code === null) throw new Error(`not a spamd answer (${JSON.stringify(status.slice(0, 40))})`);
  if (code[1] !== '0') throw new Error(`spamd refused it: ${code[1]} ${code[2]}`);
  const verdict = headers.map((line) => /^Spam:\s*(\w+)\s*;\s*(-?[\d.]+)\s*\/\s*(-?[\d.]+)/i.exec(line)).find((match) => match !== null);
  if (verdict === undefined || verdict === null) throw new Error('spamd gave no Spam: header');
  const symbols = body
    .split(',')
    .map((symbol) => symbol.trim())
    .filter((symbol) => symbol !== '');
  return { spam: /^(true|yes)$/i.test(verdict[1]!), score: Number(verdict[2]), threshold: Number(verdict[3]), symbols };
}

/** One message scored: the SYMBOLS request, and the whole answer read before the time limit. */
export function askSpamd(spamd: Spamd, message: string, timeoutMs: number, signal?: AbortSignal): Promise<SpamdVerdict> {
  const bytes = Buffer.from(message);
  return new Promise((resolve, reject) => {
    const socket = connect(spamd.port, spamd.host);
    const chunks: Buffer[] = [];
    let received = 0;
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    const timer = setTimeout(() => fail(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
    signal?.addEventListener('abort', () => fail(new Error('interrupted')), { once: true });
    socket.once('connect', () => {
      socket.write(`SYMBOLS SPAMC/1.5\r\nContent-length: ${bytes.length}\r\nUser: loopsctl\r\n\r\n`);
      socket.end(bytes);
    });
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
      // An answer is a status, two headers and a list of rule names: far under this.
      if (received > 64 * 1024) return fail(new Error('an answer larger than spamd gives'));
      chunks.push(chunk);
    });
    socket.once('error', (error) => fail(error));
    socket.once('end', () => {
      clearTimeout(timer);
      try {
        resolve(readSpamdAnswer(Buffer.concat(chunks).toString('utf8')));
      } catch (error) {
        reject(error);
      }
    });
  });
}

/** Each email scored by spamd, one at a time; what spamd could not score is left unchecked, with why. */
export async function scoreWithSpamd(
  emails: readonly RenderedEmail[],
  spamd: Spamd,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  unchecked: Account['unchecked'],
): Promise<Problem[]> {
  const problems: Problem[] = [];
  // A spamd that did not answer once is not asked again: the other emails would only wait as long.
  let down: string | undefined;
  for (const email of emails) {
    const { checked } = email;
    const message = mimeMessage(email);
    const what = `the spam score of ${whichEmail(checked)} of ${checked.record.kind} "${checked.record.name}"`;
    if (down !== undefined) {
      unchecked.push({ what, reason: down, record: checked.record });
      continue;
    }
    if (Buffer.byteLength(message) > MAX_MESSAGE_BYTES) {
      unchecked.push({ what, reason: 'the message is over the 500 KB spamd scores', record: checked.record });
      continue;
    }
    try {
      const verdict = await askSpamd(spamd, message, timeoutMs, signal);
      if (!verdict.spam) continue;
      problems.push(
        problem(
          checked.record,
          'spamassassin',
          LINK_RULES.spamassassin.severity,
          `${whichEmail(checked)}: spamd scores it ${verdict.score} of the ${verdict.threshold} that makes spam (${verdict.symbols.join(', ') || 'no rule named'})`,
          "look up each rule in SpamAssassin's documentation and change what it scores",
        ),
      );
    } catch (error) {
      const reason = `spamd at ${spamd.host}:${spamd.port}: ${(error as Error).message}`;
      if (!/^spamd refused it/.test((error as Error).message)) down = reason;
      unchecked.push({ what, reason, record: checked.record });
    }
  }
  return problems;
}
