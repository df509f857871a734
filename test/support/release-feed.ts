/** A release feed on loopback that names a newer version than any build (99.0.0), for the update check. */
import { createServer, type ServerResponse } from 'node:http';
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

export interface CountingFeed {
  /** Its address, once started. */
  url: () => string;
  /** How many requests it got so far. */
  requests: () => number;
  /** How it answers from now on. */
  answer: (respond: (response: ServerResponse) => void) => void;
}

/** A feed that counts the requests it gets and answers as a test says; started and closed as above. */
export function countingFeedForTests(): CountingFeed {
  let respond: (response: ServerResponse) => void = () => {};
  let requests = 0;
  const feed = createServer((_request, response) => {
    requests += 1;
    respond(response);
  });
  let url = '';
  beforeAll(async () => {
    await new Promise<void>((done) => feed.listen(0, '127.0.0.1', done));
    url = `http://127.0.0.1:${(feed.address() as AddressInfo).port}/latest`;
  });
  afterAll(() => {
    // A test's feed may never answer: its connections end here.
    feed.closeAllConnections();
    return new Promise<void>((done) => feed.close(() => done()));
  });
  return { url: () => url, requests: () => requests, answer: (given) => (respond = given) };
}

/** An answer naming this version, as npm's registry gives it. */
export const latestVersion = (version: string) => (response: ServerResponse) =>
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ version }));
