/** A release feed on loopback that names a newer version than any build (99.0.0), for the update check. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/** Starts the feed before the file's tests and closes it after them; `url()` is its address once started. */
export function releaseFeedForTests(): { url: () => string } {
  const feed = createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"version":"99.0.0"}'));
  let url = '';
  beforeAll(async () => {
    await new Promise<void>((done) => feed.listen(0, '127.0.0.1', done));
    url = `http://127.0.0.1:${(feed.address() as AddressInfo).port}/latest`;
  });
  afterAll(() => new Promise<void>((done) => feed.close(() => done())));
  return { url: () => url };
}
