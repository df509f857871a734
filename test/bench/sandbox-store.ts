/**
 * `npm run bench -- store`: what a sandbox's state file costs as the account grows to 100,000
 * contacts, in processes of their own as people run them.
 *   - a `GET /v1/api-key` to a running `loopsctl sandbox`: the server's CPU for each request
 *     (Linux's /proc, else the request's wall time), at the demo state and at 100,000 contacts;
 *   - 100,000 contacts created, four requests in flight, through a running `loopsctl sandbox` that
 *     keeps a state file, against the same through `startSandbox()` (loopsctl/sandbox, in memory),
 *     both a new team's sandbox with its rate limit off; the server that keeps a file is given
 *     IMPORT_BUDGET times the other's time, and what it created by then is reported;
 *   - `--sandbox contacts create` at 100,000 contacts against at 100.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { run } from './measure.js';
import type { StateCore } from '../../src/emulator/module.js';
import { readState, writeState } from '../../src/emulator/state.js';

export const LARGE_CONTACTS = 100_000;
const SMALL_CONTACTS = 100;
const GET_WARM_UP = 50;
const GET_ROUNDS = 10;
/** Enough that the CPU clock's 10 ms ticks make a tenth of a round's time at most. */
const GETS_A_ROUND = 300;
const IMPORT_IN_FLIGHT = 4;
/** How many times the in-memory import's time the server with a file is given before it is stopped. */
const IMPORT_BUDGET = 2;
const CREATE_ROUNDS = 5;

export interface StoreFigures {
  /** Server CPU (or wall) milliseconds a GET, by round: demo state, then 100,000 contacts. */
  get: { demo: number[]; large: number[]; unit: 'CPU' | 'wall' };
  /** The import's wall time in ms, and how many contacts the server with a file created in its budget. */
  import: { inMemoryMs: number; fileMs: number; fileCreated: number; contacts: number };
  /** `--sandbox contacts create` wall time by round: at 100 contacts, then at 100,000. */
  create: { small: number[]; large: number[] };
}

export async function measureSandboxStore(root: string, bin: string, scratch: string, env: Record<string, string>): Promise<StoreFigures> {
  const dir = join(scratch, 'store');
  mkdirSync(dir, { recursive: true });
  console.error(`sandbox store: states of the demo team's, ${SMALL_CONTACTS} and ${LARGE_CONTACTS.toLocaleString('en')} contacts…`);
  const demo = await demoState(bin, join(dir, 'demo'), env);
  const small = grownState(demo, join(dir, 'small'), SMALL_CONTACTS);
  const large = grownState(demo, join(dir, 'large'), LARGE_CONTACTS);

  console.error('sandbox store: GET /v1/api-key on loopsctl sandbox, demo state and 100,000 contacts…');
  const get = await measureGets(bin, env, [join(dir, 'demo', 'sandbox-state.db'), join(large, 'sandbox-state.db')]);

  console.error(`sandbox store: ${LARGE_CONTACTS.toLocaleString('en')} contacts created through startSandbox() and through loopsctl sandbox…`);
  const inMemory = await startProcess(process.execPath, [join(root, 'test/bench/emulator/sandbox-server.mjs'), root, 'serve'], env, 'json');
  let inMemoryMs: number;
  try {
    inMemoryMs = (await importContacts(inMemory.url, LARGE_CONTACTS, Number.POSITIVE_INFINITY)).ms;
  } finally {
    await inMemory.stop();
  }
  const fileDir = join(dir, 'import');
  const withFile = await startProcess(
    process.execPath,
    [bin, 'sandbox', '--port', '0', '--state', join(fileDir, 'sandbox-state.db'), '--seed', 'empty', '--reset', '--rate-limit', 'off', '--no-webhooks'],
    { ...env, LOOPSCTL_CONFIG_DIR: fileDir },
    'line',
  );
  let filed: { ms: number; created: number };
  try {
    filed = await importContacts(withFile.url, LARGE_CONTACTS, inMemoryMs * IMPORT_BUDGET);
  } finally {
    await withFile.stop();
  }

  console.error(`sandbox store: --sandbox contacts create at ${SMALL_CONTACTS} and ${LARGE_CONTACTS.toLocaleString('en')} contacts…`);
  const create = { small: [] as number[], large: [] as number[] };
  for (let round = 0; round < CREATE_ROUNDS; round += 1) {
    const pairs = [[small, create.small] as const, [large, create.large] as const];
    for (const [configDir, times] of round % 2 === 0 ? pairs : pairs.reverse()) {
      const args = [bin, '--sandbox', 'contacts', 'create', '--email', `bench-round-${round}@example.com`, '--json'];
      times.push((await run({ label: 'loopsctl --sandbox contacts create', args, env: { LOOPSCTL_CONFIG_DIR: configDir } }, env)).ms);
    }
  }
  return { get, import: { inMemoryMs, fileMs: filed.ms, fileCreated: filed.created, contacts: LARGE_CONTACTS }, create };
}

/** The demo team's state, as a first `--sandbox` command makes it. */
async function demoState(bin: string, configDir: string, env: Record<string, string>): Promise<StateCore & { contacts: { id: string; email: string }[] }> {
  await run({ label: 'first run', args: [bin, '--sandbox', 'workflow', 'list'], env: { LOOPSCTL_CONFIG_DIR: configDir } }, env);
  return { ...readState(join(configDir, 'sandbox-state.db'))! } as StateCore & { contacts: { id: string; email: string }[] };
}

/** A config dir whose state is the demo team's with contacts added (copies of its first, each with its own id and email) up to `contacts`. */
function grownState(demo: StateCore & { contacts: { id: string; email: string }[] }, configDir: string, contacts: number): string {
  const [first] = demo.contacts;
  const grown = [...demo.contacts];
  for (let index = grown.length; index < contacts; index += 1)
    grown.push({ ...first!, id: `cbench${String(index).padStart(19, '0')}`, email: `person${index}@example.com` });
  mkdirSync(configDir, { recursive: true, mode: 0o700 });
  writeState(join(configDir, 'sandbox-state.db'), { ...demo, contacts: grown });
  return configDir;
}

interface Started {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** A server process, serving once it printed its URL (a line, or `{"url"}`); stopped by ending its stdin, then by a signal. */
async function startProcess(file: string, args: string[], env: Record<string, string>, says: 'line' | 'json'): Promise<Started> {
  const child: ChildProcess = spawn(file, args, { env, stdio: ['pipe', 'pipe', 'ignore'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      if (text.includes('\n')) resolve(text.slice(0, text.indexOf('\n')).trim());
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} ended (exit ${code}) before it served`)));
  });
  const url = says === 'json' ? (JSON.parse(line) as { url: string }).url : line;
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      child.stdin!.end();
      child.kill();
      await exited;
    },
  };
}

function send(url: string, method: string, path: string, agent: Agent, body?: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    request(`${url}${path}`, { method, agent, headers: { authorization: 'Bearer sandbox-key', 'content-type': 'application/json' } }, (response) =>
      response.resume().on('end', () => resolve(response.statusCode ?? 0)),
    )
      .on('error', reject)
      .end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** The CPU time a process has used, in ms (Linux), or undefined where /proc does not say. */
function cpuMs(pid: number): number | undefined {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return undefined;
  const fields = readFileSync(stat, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime, in clock ticks of 10 ms.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** GETs to a server for each state, both running, round after round in turn. */
async function measureGets(bin: string, env: Record<string, string>, stateFiles: string[]): Promise<StoreFigures['get']> {
  const servers = await Promise.all(
    stateFiles.map((stateFile) => startProcess(process.execPath, [bin, 'sandbox', '--port', '0', '--state', stateFile, '--rate-limit', 'off'], env, 'line')),
  );
  try {
    const agents = servers.map(() => new Agent({ keepAlive: true, maxSockets: 1 }));
    for (const [index, server] of servers.entries())
      for (let warm = 0; warm < GET_WARM_UP; warm += 1) await send(server.url, 'GET', '/v1/api-key', agents[index]!);
    const perRequest = servers.map(() => [] as number[]);
    const unit = cpuMs(servers[0]!.pid) === undefined ? 'wall' : 'CPU';
    for (let round = 0; round < GET_ROUNDS; round += 1) {
      for (const [index, server] of servers.entries()) {
        const cpuBefore = cpuMs(server.pid);
        const started = performance.now();
        for (let sent = 0; sent < GETS_A_ROUND; sent += 1) {
          const status = await send(server.url, 'GET', '/v1/api-key', agents[index]!);
          if (status !== 200) throw new Error(`loopsctl sandbox answered GET /v1/api-key with ${status}`);
        }
        const spent = unit === 'CPU' ? cpuMs(server.pid)! - cpuBefore! : performance.now() - started;
        perRequest[index]!.push(spent / GETS_A_ROUND);
      }
    }
    for (const agent of agents) agent.destroy();
    return { demo: perRequest[0]!, large: perRequest[1]!, unit };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

/** Contacts created IMPORT_IN_FLIGHT at a time until all are or `budgetMs` is spent: the time taken and how many were created. */
async function importContacts(url: string, contacts: number, budgetMs: number): Promise<{ ms: number; created: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: IMPORT_IN_FLIGHT });
  const started = performance.now();
  let next = 0;
  let created = 0;
  await Promise.all(
    Array.from({ length: IMPORT_IN_FLIGHT }, async () => {
      while (next < contacts && performance.now() - started < budgetMs) {
        const index = next;
        next += 1;
        const status = await send(url, 'POST', '/v1/contacts/create', agent, {
          email: `imported${index}@example.com`,
          firstName: 'Ada',
          userId: `user-${index}`,
        });
        if (status !== 200) throw new Error(`the sandbox answered contact ${index}'s create with ${status}`);
        created += 1;
      }
    }),
  );
  agent.destroy();
  return { ms: performance.now() - started, created };
}
