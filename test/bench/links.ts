/**
 * `check --links` at scale: 200 addresses on 20 hosts on loopback, each answering after 100 ms,
 * fetched through the prober `check` uses (2 at a time per host, 8 in all). Its floor is the bound
 * itself: 200 answers of 100 ms, 8 at a time, take 2.5 s; the goal is under 5 s.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Prober } from '../../src/areas/check/links/probe.js';

export const LINK_HOSTS = 20;
export const LINKS_PER_HOST = 10;
const ANSWER_MS = 100;

export interface LinksFigure {
  elapsedMs: number;
  answered: number;
}

export async function measureLinks(): Promise<LinksFigure> {
  const servers: Server[] = [];
  for (let index = 0; index < LINK_HOSTS; index += 1) {
    const server = createServer((req, res) => {
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(req.method === 'HEAD' ? undefined : 'ok'), ANSWER_MS);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
  }
  const addresses = servers.flatMap((server) =>
    Array.from({ length: LINKS_PER_HOST }, (_, path) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/page/${path}`),
  );
  const prober = new Prober({ userAgent: 'loopsctl/bench', timeoutMs: 10_000, allowPrivate: true });
  const started = performance.now();
  const verdicts = await Promise.all(addresses.map((address) => prober.verdict(address, 'link')));
  const elapsedMs = performance.now() - started;
  await prober.close();
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
  return { elapsedMs, answered: verdicts.filter((verdict) => verdict.kind === 'answered' && verdict.status === 200).length };
}
