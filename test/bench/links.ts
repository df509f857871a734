/**
 * `check --links` as a whole command: `loopsctl check --links` of an account of 10 transactional
 * emails, served by `loopsctl sandbox` with its rate limit on (10 requests in any sliding second, as
 * the API), whose links are on 20 hosts on loopback, each answering after 100 ms. Measured from the
 * start of the process to its end: the account's reads (paced) and the links (2 at a time at a
 * host, 32 in all), which start as soon as the emails are read, while Guardian's reports are read.
 * 200 links (10 a host) and 2,000 (100 a host); the goals are 5 s and 20 s.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runNode } from '../support/run-node.js';
import { answersOf, startSandboxProcess } from './sandbox-process.js';

export const LINK_HOSTS = 20;
const EMAILS = 10;
const ANSWER_MS = 100;

export interface LinksFigure {
  links: number;
  elapsedMs: number;
  /** Links the hosts were asked for (a HEAD each). */
  asked: number;
  /** Requests the API answered. */
  requests: number;
  /** Of which answered 429 (a pace the API would refuse). */
  refused: number;
}

/** The whole command for each size: `links` on LINK_HOSTS hosts, in EMAILS emails. */
export async function measureLinks(bin: string, baseEnv: Record<string, string>, sizes: readonly number[]): Promise<LinksFigure[]> {
  const servers: Server[] = [];
  let asked = 0;
  try {
    for (let index = 0; index < LINK_HOSTS; index += 1) {
      const server = createServer((req, res) => {
        asked += 1;
        setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(req.method === 'HEAD' ? undefined : 'ok'), ANSWER_MS);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      servers.push(server);
    }
    const origins = servers.map((server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const figures: LinksFigure[] = [];
    for (const links of sizes) {
      asked = 0;
      const figure = await measureOne(bin, baseEnv, origins, links);
      figures.push({ ...figure, asked });
    }
    return figures;
  } finally {
    for (const server of servers) {
      server.closeAllConnections();
      server.close();
    }
  }
}

async function measureOne(bin: string, baseEnv: Record<string, string>, origins: readonly string[], links: number): Promise<Omit<LinksFigure, 'asked'>> {
  const dir = mkdtempSync(join(tmpdir(), 'loopsctl-bench-links-'));
  try {
    const addresses = Array.from({ length: links }, (_, index) => `${origins[index % origins.length]}/notes/${index}`);
    const transactionalEmails = Array.from({ length: EMAILS }, (_, email) => ({
      name: `Release notes ${email + 1}`,
      subject: `What is new, part ${email + 1}`,
      lmx: `<H1>What is new</H1>\n<Paragraph>This month brings faster exports: ${addresses
        .filter((_, index) => index % EMAILS === email)
        .map((address, index) => `<Link href="${address}">the notes of part ${index + 1}</Link>`)
        .join(', ')}.</Paragraph>\n`,
    }));
    const fixtures = join(dir, 'fixtures.json');
    writeFileSync(fixtures, JSON.stringify({ seed: 'empty', transactionalEmails }));
    const env = { ...baseEnv, LOOPSCTL_CONFIG_DIR: join(dir, 'config') };
    const sandbox = await startSandboxProcess(bin, ['--fixtures', fixtures, '--state', join(dir, 'state.json'), '--rate-limit', 'on'], env);
    try {
      const { url } = sandbox;
      const started = performance.now();
      const { code, stdout, stderr } = await runNode([bin, 'check', '--links', '--allow-private-links', '--json'], {
        ...env,
        LOOPS_BASE_URL: url,
        LOOPS_API_KEY: 'sandbox-key',
      });
      const elapsedMs = performance.now() - started;
      // Exit 1 is a finding of another rule family; a link finding or another exit is a failed bench.
      if (code !== 0 && code !== 1) throw new Error(`check --links exited with ${code}: ${stderr.trim()}`);
      const found = (JSON.parse(stdout) as { rule: string }[]).filter((problem) => problem.rule.startsWith('link'));
      if (found.length > 0) throw new Error(`check --links found ${found.length} link problems: ${JSON.stringify(found[0])}`);
      return { links, elapsedMs, ...answersOf(sandbox.log()) };
    } finally {
      sandbox.kill();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
