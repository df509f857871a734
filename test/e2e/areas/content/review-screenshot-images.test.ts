/**
 * `content review --screenshots --allow-network` in Chromium: the images the emails draw are
 * fetched by loopsctl's fetcher for outside addresses, which the browser's requests are handed to,
 * never by the browser itself. An image at a loopback address (an internal server, as far as the
 * review can tell) is listed and not loaded unless --allow-private-links; with it, the host is
 * asked by loopsctl (its user agent), once, and the picture drawn with the image.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, CHROMIUM } from '../../../support/browser.js';
import { run, tempDir } from '../../../support/main.js';
import { CAMPAIGNS, editTree, resetRepository, reviewRepository } from '../../../support/review-tree.js';
import { pngHeader } from '../../../support/link-hosts.js';

describe.skipIf(browserSkipReason() !== undefined)('the screenshots of a review, with the network', () => {
  let root: string;
  let server: Server;
  let port: number;
  const asked: { path: string; agent: string }[] = [];

  beforeAll(async () => {
    root = reviewRepository();
    server = createServer((req, res) => {
      asked.push({ path: req.url ?? '', agent: req.headers['user-agent'] ?? '' });
      res.writeHead(200, { 'content-type': 'image/png' }).end(pngHeader(40, 40));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    editTree(
      root,
      `${CAMPAIGNS[0]}/email.lmx`,
      /<Button /,
      `<Image src="http://127.0.0.1:${port}/internal.png" alt="Internal" width="40" />\n<Image src="http://localhost:${port}/admin.png" alt="Admin" width="40" />\n<Button `,
    );
  });
  afterAll(async () => {
    resetRepository(root);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const review = (...more: string[]) =>
    run(
      ['content', 'review', root, '--base', 'HEAD', '--out', join(tempDir('loopsctl-review-net-'), 'review.html'), '--screenshots', '--allow-network', ...more],
      {
        env: { LOOPSCTL_CHROMIUM: CHROMIUM },
      },
    );

  it('lists an image at a loopback address, loaded by nobody, unless --allow-private-links', async () => {
    const result = await review();
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      `Not loaded in the review: http://127.0.0.1:${port}/internal.png: a loopback address (127.0.0.0/8) (--allow-private-links loads it).`,
    );
    expect(result.stderr).toContain(
      `Not loaded in the review: http://localhost:${port}/admin.png: a loopback address (localhost) (--allow-private-links loads it).`,
    );
    expect(asked).toEqual([]);
  }, 120_000);

  it('fetches each image itself, once, when allowed: the browser asks nothing of the host', async () => {
    const result = await review('--allow-private-links');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('Not loaded');
    expect(asked.map((request) => request.path).sort()).toEqual(['/admin.png', '/internal.png']);
    for (const request of asked) expect(request.agent).toMatch(/^loopsctl\//);
  }, 120_000);
});
