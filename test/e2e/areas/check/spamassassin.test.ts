/**
 * `check --spamassassin host:port`: each email scored by a spamd on loopback speaking SPAMC (the
 * protocol: https://svn.apache.org/repos/asf/spamassassin/trunk/spamd/PROTOCOL), and a spamd that
 * never answers leaving the run incomplete, not hung.
 */

import type { AddressInfo } from 'node:net';
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type RecordingSandbox, sandboxEachTest } from '../../../support/recording.js';

interface Found {
  rule: string;
  name: string;
  message: string;
}

/** A spamd: reads a request whole (headers, then Content-length bytes), and answers as `answer` says, or never. */
async function startSpamd(answer: ((request: string) => string) | undefined): Promise<{ address: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  // Half-open, as spamd is: the client ends its side once the message is sent, and waits for the answer.
  const server: Server = createServer({ allowHalfOpen: true }, (socket) => {
    sockets.add(socket);
    let received = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      const split = received.indexOf('\r\n\r\n');
      if (split === -1) return;
      const length = Number(/Content-length: (\d+)/i.exec(received.subarray(0, split).toString('latin1'))?.[1]);
      if (received.length - split - 4 < length) return;
      const request = received.toString('utf8');
      requests.push(request);
      if (answer !== undefined) socket.end(answer(request));
    });
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const verdict = (request: string) =>
  request.includes('100% FREE')
    ? 'SPAMD/1.1 0 EX_OK\r\nContent-length: 35\r\nSpam: True ; 7.4 / 5.0\r\n\r\nHTML_IMAGE_ONLY_04,SUBJ_ALL_CAPS,X'
    : 'SPAMD/1.1 0 EX_OK\r\nContent-length: 0\r\nSpam: False ; 0.3 / 5.0\r\n\r\n';

function plantSpam(sandbox: RecordingSandbox): void {
  sandbox.server.update((state) => {
    for (const stored of state.emailMessages as { message: { lmx: string } }[])
      if (stored.message.lmx.includes('here</Link>')) stored.message.lmx = '<Paragraph>Everything is 100% FREE this week only.</Paragraph>\n';
  });
}

describe('check --spamassassin', () => {
  const openSandbox = sandboxEachTest();
  const closing: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const each of closing.splice(0)) await each.close();
  });

  it('reports the emails spamd scores as spam, with its score and rules, sending it the rendered message and nothing else', async () => {
    const sandbox = await openSandbox();
    plantSpam(sandbox);
    const spamd = await startSpamd(verdict);
    closing.push(spamd);
    const result = await sandbox.loopsctl(['check', '--spamassassin', spamd.address, '--json']);
    expect(result.stderr).toBe('');
    const found = result.json<Found[]>().filter((each) => each.rule === 'spamassassin');
    expect(found).toEqual([
      expect.objectContaining({
        name: 'Order receipt',
        message: 'the published email: spamd scores it 7.4 of the 5 that makes spam (HTML_IMAGE_ONLY_04, SUBJ_ALL_CAPS, X)',
      }),
    ]);
    // Each checked email, once.
    expect(spamd.requests).toHaveLength(11);
    for (const request of spamd.requests) {
      const split = request.indexOf('\r\n\r\n');
      const [head, message] = [request.slice(0, split), request.slice(split + 4)];
      expect(head).toMatch(/^SYMBOLS SPAMC\/1\.5\r\nContent-length: \d+\r\nUser: loopsctl$/);
      expect(Number(/Content-length: (\d+)/.exec(head)![1])).toBe(Buffer.byteLength(message));
      expect(message).toMatch(/^From: .*\r\nTo: recipient@example\.com\r\nSubject: /);
      expect(message).toContain('Content-Type: multipart/alternative; boundary=');
      expect(message).toContain('Content-Type: text/html; charset=utf-8');
      expect(message).not.toContain('sandbox-key');
    }
  });

  it('leaves the emails not checked, naming the spamd, when it never answers: exit 2, one wait only', async () => {
    const sandbox = await openSandbox();
    const spamd = await startSpamd(undefined);
    closing.push(spamd);
    const result = await sandbox.loopsctl(['check', '--spamassassin', spamd.address, '--timeout', '1', '--json']);
    expect(result.code).toBe(2);
    const notChecked = result.json<Found[]>().filter((each) => each.rule === 'not-checked');
    expect(notChecked).toHaveLength(11);
    expect(notChecked[0]!.message).toContain(`spamd at ${spamd.address}: no answer within 1 s`);
    expect(spamd.requests).toHaveLength(1);
  });

  it('refuses an address that is not host:port', async () => {
    const sandbox = await openSandbox();
    const result = await sandbox.loopsctl(['check', '--spamassassin', 'spamd:99999']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--spamassassin must be host:port of a spamd');
  });
});
