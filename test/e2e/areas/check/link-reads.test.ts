/**
 * `check --links` is bounded by its links, not by the account's reads: the emails are read once
 * each, and every link is fetched as soon as they are, while Guardian's reports are still being
 * read. Counted, not timed: the API sits behind a gate that holds every Guardian report until the
 * link host has been asked for every link; the reads that come before the first link are the
 * listings, records and messages the links need, and nothing is read twice.
 */
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type LinkHost, page, spreadOverEmails, startLinkHost } from '../../../support/link-hosts.js';
import { run } from '../../../support/main.js';
import { sandboxEachTest } from '../../../support/recording.js';

const LINKS = 40;

/** The API behind a gate: each request passed on to the sandbox as it comes, Guardian's reports held until `open()`. */
async function gate(target: string, timeline: string[]): Promise<{ url: string; open(): void; close(): Promise<void> }> {
  const held: (() => void)[] = [];
  let opened = false;
  const pass = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const to = new URL(target);
    const forwarded = request({ host: to.hostname, port: to.port, path: req.url, method: req.method, headers: { ...req.headers, host: to.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forwarded.on('error', () => res.destroy());
    forwarded.end(body);
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!;
      timeline.push(`api ${req.method} ${path}`);
      const go = () => pass(req, res, Buffer.concat(chunks));
      if (path.endsWith('/guardian') && !opened) held.push(go);
      else go();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    open: () => {
      opened = true;
      for (const go of held.splice(0)) go();
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('check --links, bounded by its links', () => {
  const openSandbox = sandboxEachTest();
  const closing: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const each of closing.splice(0)) await each.close();
  });

  it('reads each email once, and fetches every link before any Guardian report comes back', async () => {
    const sandbox = await openSandbox();
    const timeline: string[] = [];
    const api = await gate(sandbox.server.url, timeline);
    closing.push(api);
    const web: LinkHost = await startLinkHost();
    closing.push(web);
    let asked = 0;
    for (let index = 0; index < LINKS; index += 1)
      web.route(`/notes/${index}`, (req, res) => {
        timeline.push(`link ${req.method} /notes/${index}`);
        asked += 1;
        // Every link asked while Guardian's reports are held: they may come now.
        if (asked === LINKS) api.open();
        page(req, res);
      });
    const emails = spreadOverEmails(
      sandbox,
      Array.from({ length: LINKS }, (_, index) => `<Link href="${web.origin}/notes/${index}">the notes of part ${index + 1}</Link>`),
    );
    const result = await run(['check', '--links', '--allow-private-links', '--drafts', '--json'], {
      env: { LOOPS_BASE_URL: api.url, LOOPS_API_KEY: 'sandbox-key' },
    });
    expect([0, 1]).toContain(result.code);
    expect(result.json<{ rule: string }[]>().filter((found) => found.rule.startsWith('link'))).toEqual([]);
    const reads = timeline.filter((entry) => entry.startsWith('api '));
    const guardian = reads.filter((entry) => entry.endsWith('/guardian'));
    expect(guardian.length).toBeGreaterThanOrEqual(emails);
    // Nothing read twice: each listing, record and message once.
    expect(new Set(reads).size).toBe(reads.length);
    // Before the first link: every read but Guardian's, and none of them.
    const first = timeline.findIndex((entry) => entry.startsWith('link '));
    const before = timeline.slice(0, first).filter((entry) => !entry.endsWith('/guardian'));
    expect(before).toEqual(reads.filter((entry) => !entry.endsWith('/guardian')));
    // Among them, the message of each email Guardian reports on: read once, before any link.
    for (const report of guardian) expect(before).toContain(report.replace(/\/guardian$/, ''));
  });
});
