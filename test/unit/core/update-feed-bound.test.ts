import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { feedTimeoutMs, latestVersion, MAX_FEED_BYTES } from '../../../src/core/update-check.js';

/** A feed on loopback answering `body`, with or without its length; the bytes it managed to send are counted. */
async function feed(body: string, withLength: boolean): Promise<{ url: string; sent: () => number }> {
  let sent = 0;
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', ...(withLength ? { 'content-length': Buffer.byteLength(body) } : {}) });
    // In pieces, so that a reader that stops early leaves the rest unsent.
    const piece = 16 * 1024;
    const next = (offset: number): void => {
      if (offset >= body.length) {
        response.end();
        return;
      }
      sent += piece;
      if (response.write(body.slice(offset, offset + piece))) setImmediate(() => next(offset + piece));
      else response.once('drain', () => next(offset + piece));
    };
    next(0);
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/latest`, sent: () => sent };
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
  }
});

/**
 * A feed's answer naming a newer version, padded to about `bytes`: the JSON written out rather than
 * made by JSON.stringify, which would read the 32 MB of padding twice to escape them.
 */
const padded = (bytes: number) => `{"version":"99.0.0","readme":"${'x'.repeat(bytes)}"}`;

describe('the update check reads at most a few KB of the feed', () => {
  it('reads an answer of a manifest’s size', async () => {
    const { url } = await feed(padded(10 * 1024), false);
    expect(await latestVersion({ LOOPSCTL_UPDATE_URL: url }, new AbortController().signal)).toBe('99.0.0');
  });

  it('reads an answer of exactly the most it reads, and not one byte more, whether its length is announced or not', async () => {
    for (const withLength of [true, false]) {
      const fits = padded(0).length;
      const atTheBound = padded(MAX_FEED_BYTES - fits);
      expect(Buffer.byteLength(atTheBound)).toBe(MAX_FEED_BYTES);
      expect(await latestVersion({ LOOPSCTL_UPDATE_URL: (await feed(atTheBound, withLength)).url }, new AbortController().signal)).toBe('99.0.0');
      expect(
        await latestVersion({ LOOPSCTL_UPDATE_URL: (await feed(padded(MAX_FEED_BYTES - fits + 1), withLength)).url }, new AbortController().signal),
      ).toBeUndefined();
    }
  });

  it('gives up on a larger answer, whether its length is announced or not, without reading it to its end', async () => {
    for (const withLength of [true, false]) {
      const size = 32 * 1024 * 1024;
      const { url, sent } = await feed(padded(size), withLength);
      expect(await latestVersion({ LOOPSCTL_UPDATE_URL: url }, new AbortController().signal)).toBeUndefined();
      // Stopped long before the end: what was sent is what the socket's buffers held, not the 32 MB.
      expect(sent()).toBeLessThan(size / 2);
    }
    expect(MAX_FEED_BYTES).toBeLessThanOrEqual(64 * 1024);
  });
});

describe('the wait for the feed', () => {
  it('is 1.5 s, or the positive seconds of LOOPSCTL_UPDATE_TIMEOUT', () => {
    expect(feedTimeoutMs({})).toBe(1500);
    expect(feedTimeoutMs({ LOOPSCTL_UPDATE_TIMEOUT: '30' })).toBe(30_000);
    expect(feedTimeoutMs({ LOOPSCTL_UPDATE_TIMEOUT: ' 0.5 ' })).toBe(500);
    // The notice comes after the command's output, with no place to refuse a setting: the default.
    for (const value of ['', ' ', '0', '-2', 'soon', 'Infinity']) expect(feedTimeoutMs({ LOOPSCTL_UPDATE_TIMEOUT: value }), value).toBe(1500);
  });

  it('reads an answer slower than the default when LOOPSCTL_UPDATE_TIMEOUT allows it', async () => {
    // A slow line: the feed answers a little after the default wait would have ended.
    const server = createServer((_request, response) => {
      setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end('{"version":"99.0.0"}'), feedTimeoutMs({}) + 200);
    });
    servers.push(server);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/latest`;
    expect(await latestVersion({ LOOPSCTL_UPDATE_URL: url, LOOPSCTL_UPDATE_TIMEOUT: '100' }, new AbortController().signal)).toBe('99.0.0');
  });
});
