/**
 * `npm run bench -- store`: what a sandbox's state file costs as the account grows to 100,000
 * contacts, 200,000 kept journeys and 100,000 sends, in processes of their own as people run them.
 *   - a `GET /v1/api-key` to a running `loopsctl sandbox`: the server's CPU for each request
 *     (Linux's /proc, else the request's wall time), at the demo state and at 100,000 contacts;
 *   - on running servers as well, a contact created (and one that starts a journey, joining the
 *     list of the demo's welcome series) at 10,000 and 200,000 kept journeys, and a transactional
 *     send at an outbox of 100,000, each against the same at the demo state; and the time a server
 *     takes to start serving at 200,000 journeys against at the demo state;
 *   - 100,000 contacts created, four requests in flight, through a running `loopsctl sandbox` that
 *     keeps a state file, against the same through `startSandbox()` (loopsctl/sandbox, in memory),
 *     both a new team's sandbox with its rate limit off; the server that keeps a file is given
 *     IMPORT_BUDGET times the other's time, and what it created by then is reported;
 *   - `--sandbox contacts create` at 100,000 contacts against at 100.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type StateCore, seedId } from '../../src/emulator/module.js';
import { readState, writeState } from '../../src/emulator/state/index.js';
import { run } from './measure.js';

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
/** The kept journeys of the states a write is measured at, and the outbox's sends. */
export const KEPT_JOURNEYS = [10_000, 200_000];
export const LARGE_OUTBOX = 100_000;
/** Writes a round, per server: each one a new contact or a send. */
const WRITES_A_ROUND = 100;
const WRITE_ROUNDS = 7;
const START_ROUNDS = 3;

export interface StoreFigures {
  /** Server CPU (or wall) milliseconds a GET, by round: demo state, then 100,000 contacts. */
  get: { demo: number[]; large: number[]; unit: 'CPU' | 'wall' };
  /** The import's wall time in ms, and how many contacts the server with a file created in its budget. */
  import: { inMemoryMs: number; fileMs: number; fileCreated: number; contacts: number };
  /** `--sandbox contacts create` wall time by round: at 100 contacts, then at 100,000. */
  create: { small: number[]; large: number[] };
  /** Server CPU (or wall) milliseconds a write, by round, at the demo state and at a larger one. */
  writes: { name: string; demo: number[]; large: number[]; unit: 'CPU' | 'wall' }[];
  /** Wall milliseconds until a server serves, by round: at the demo state, then at the most journeys. */
  start: { demo: number[]; large: number[] };
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
  const { writes, start } = await measureWrites(bin, env, demo, dir);
  return { get, import: { inMemoryMs, fileMs: filed.ms, fileCreated: filed.created, contacts: LARGE_CONTACTS }, create, writes, start };
}

type Demo = StateCore & { contacts: { id: string; email: string }[] };
type Write = (index: number) => { path: string; body: unknown };

/** A contact created, with nothing else; one joining the list of the demo's welcome series, which starts a journey; a transactional send. */
const createContact: Write = (index) => ({ path: '/v1/contacts/create', body: { email: `bench-write-${index}@example.com` } });
const createJoining: Write = (index) => ({
  path: '/v1/contacts/create',
  body: { email: `bench-joined-${index}@example.com`, mailingLists: { [seedId('mailing-list/Product updates')]: true } },
});
const sendReceipt: Write = (index) => ({
  path: '/v1/transactional',
  body: {
    transactionalId: seedId('transactional/Order receipt'),
    email: `bench-send-${index}@example.com`,
    dataVariables: { orderNumber: index, items: '2 mugs', total: '$24', invoiceUrl: 'https://acme.example/i' },
  },
});

/** The writes at kept journeys and at a large outbox, each against the demo state, and a server's start at the most journeys. */
async function measureWrites(bin: string, env: Record<string, string>, demo: Demo, dir: string): Promise<Pick<StoreFigures, 'writes' | 'start'>> {
  const demoFile = join(dir, 'demo', 'sandbox-state.db');
  const journeyFiles = KEPT_JOURNEYS.map((count) => {
    console.error(`sandbox store: a state of ${count.toLocaleString('en')} kept journeys…`);
    return journeyState(demo, join(dir, `journeys-${count}`), count);
  });
  console.error(`sandbox store: a state of ${LARGE_OUTBOX.toLocaleString('en')} sends…`);
  const outboxFile = outboxState(demo, join(dir, 'outbox'), LARGE_OUTBOX);
  const writes: StoreFigures['writes'] = [];
  for (const [index, file] of journeyFiles.entries()) {
    const kept = `${KEPT_JOURNEYS[index]!.toLocaleString('en')} kept journeys`;
    console.error(`sandbox store: contacts created on loopsctl sandbox, demo state and ${kept}…`);
    writes.push({
      name: `contact create, ${kept}`,
      ...(await measureRequests(bin, env, [demoFile, file], 'POST', createContact, WRITES_A_ROUND, WRITE_ROUNDS)),
    });
    writes.push({
      name: `contact create that starts a journey, ${kept}`,
      ...(await measureRequests(bin, env, [demoFile, file], 'POST', createJoining, WRITES_A_ROUND, WRITE_ROUNDS)),
    });
  }
  console.error(`sandbox store: transactional sends on loopsctl sandbox, demo state and ${LARGE_OUTBOX.toLocaleString('en')} sends…`);
  writes.push({
    name: `transactional send, an outbox of ${LARGE_OUTBOX.toLocaleString('en')}`,
    ...(await measureRequests(bin, env, [demoFile, outboxFile], 'POST', sendReceipt, WRITES_A_ROUND, WRITE_ROUNDS)),
  });
  const start = { demo: [] as number[], large: [] as number[] };
  for (let round = 0; round < START_ROUNDS; round += 1)
    for (const [file, times] of [
      [demoFile, start.demo],
      [journeyFiles.at(-1)!, start.large],
    ] as const) {
      const started = performance.now();
      const server = await startProcess(process.execPath, [bin, 'sandbox', '--port', '0', '--state', file, '--rate-limit', 'off'], env, 'line');
      times.push(performance.now() - started);
      await server.stop();
    }
  return { writes, start };
}

/** The demo team's state with `count` journeys more, each waiting in its welcome series until long after the bench (its contacts are not kept: a journey is read by what it holds). */
function journeyState(demo: Demo, configDir: string, count: number): string {
  const setting = structuredClone(demo.journeys) as {
    journeys: Record<string, unknown>;
    waiting: { until: string; journeyId: string; order: number }[];
    waitOrder: number;
  };
  const workflow = (demo.workflows as { id: string; name: string; nodes: { id: string; typeName: string }[] }[]).find(
    (each) => each.name === 'Welcome series',
  )!;
  const timer = workflow.nodes.find((node) => node.typeName === 'TimerAction')!;
  const until = '2100-01-01T00:00:00.000Z';
  for (let index = 0; index < count; index += 1) {
    const id = `jbench${String(index).padStart(19, '0')}`;
    const at = new Date(Date.UTC(2024, 10, 1) + index * 1_000).toISOString();
    setting.journeys[id] = {
      id,
      workflowId: workflow.id,
      workflowName: workflow.name,
      contactId: `cbench${String(index).padStart(19, '0')}`,
      email: `person${index}@example.com`,
      status: 'waiting',
      nodeId: timer.id,
      waitUntil: until,
      startedAt: at,
      endedAt: null,
      eventName: null,
      eventProperties: {},
      downstreamFilters: [],
      steps: [
        { nodeId: timer.id, typeName: 'TimerAction', at, outcome: 'placed', why: 'placed at this node by the bench' },
        { nodeId: timer.id, typeName: 'TimerAction', at, outcome: 'waiting', why: `waits until ${until}`, until },
      ],
    };
    setting.waitOrder += 1;
    // In the order they end (all at once) and began: a heap.
    setting.waiting.push({ until, journeyId: id, order: setting.waitOrder });
  }
  mkdirSync(configDir, { recursive: true, mode: 0o700 });
  const file = join(configDir, 'sandbox-state.db');
  writeState(file, { ...demo, journeys: setting });
  return file;
}

/** The demo team's state with `count` transactional sends in its outbox. */
function outboxState(demo: Demo, configDir: string, count: number): string {
  const outbox = Array.from({ length: count }, (_, index) => ({
    kind: 'transactional',
    at: new Date(Date.UTC(2024, 10, 1) + index * 1_000).toISOString(),
    idempotencyKey: null,
    to: `person${index}@example.com`,
    transactionalId: seedId('transactional/Order receipt'),
    name: 'Order receipt',
    addToAudience: false,
    dataVariables: { orderNumber: index },
    missingVariables: [],
    unknownVariables: [],
    attachments: [],
  }));
  mkdirSync(configDir, { recursive: true, mode: 0o700 });
  const file = join(configDir, 'sandbox-state.db');
  writeState(file, { ...demo, outbox });
  return file;
}

/** The demo team's state, as a first `--sandbox` command makes it. */
async function demoState(bin: string, configDir: string, env: Record<string, string>): Promise<Demo> {
  await run({ label: 'first run', args: [bin, '--sandbox', 'workflow', 'list'], env: { LOOPSCTL_CONFIG_DIR: configDir } }, env);
  return { ...readState(join(configDir, 'sandbox-state.db'))! } as Demo;
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
  return measureRequests(bin, env, stateFiles, 'GET', () => ({ path: '/v1/api-key', body: undefined }), GETS_A_ROUND, GET_ROUNDS, GET_WARM_UP);
}

/** Requests to a server for each state (a copy of each file), both running, round after round in turn: the server's cost a request. */
async function measureRequests(
  bin: string,
  env: Record<string, string>,
  stateFiles: string[],
  method: 'GET' | 'POST',
  write: Write,
  perRound: number,
  rounds: number,
  warmUp = 10,
): Promise<{ demo: number[]; large: number[]; unit: 'CPU' | 'wall' }> {
  // Each server writes a copy of its state, so that every measure starts from the same one.
  const copies = stateFiles.map((stateFile, index) => {
    const copy = join(dirname(stateFile), `measured-${index}-${Math.random().toString(36).slice(2)}.db`);
    copyFileSync(stateFile, copy);
    return copy;
  });
  const servers = await Promise.all(
    copies.map((stateFile) =>
      startProcess(process.execPath, [bin, 'sandbox', '--port', '0', '--state', stateFile, '--rate-limit', 'off', '--no-webhooks'], env, 'line'),
    ),
  );
  try {
    const agents = servers.map(() => new Agent({ keepAlive: true, maxSockets: 1 }));
    const sent = servers.map(() => 0);
    const one = async (index: number) => {
      const { path, body } = write(sent[index]!);
      sent[index]! += 1;
      const status = await send(servers[index]!.url, method, path, agents[index]!, body);
      if (status !== 200) throw new Error(`loopsctl sandbox answered ${method} ${path} with ${status}`);
    };
    for (const index of servers.keys()) for (let warm = 0; warm < warmUp; warm += 1) await one(index);
    const perRequest = servers.map(() => [] as number[]);
    const unit = cpuMs(servers[0]!.pid) === undefined ? 'wall' : 'CPU';
    for (let round = 0; round < rounds; round += 1) {
      for (const [index, server] of servers.entries()) {
        const cpuBefore = cpuMs(server.pid);
        const started = performance.now();
        for (let request = 0; request < perRound; request += 1) await one(index);
        const spent = unit === 'CPU' ? cpuMs(server.pid)! - cpuBefore! : performance.now() - started;
        perRequest[index]!.push(spent / perRound);
      }
    }
    for (const agent of agents) agent.destroy();
    return { demo: perRequest[0]!, large: perRequest[1]!, unit };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    for (const copy of copies) for (const leftover of ['', '-wal', '-shm', '.lock']) rmSync(`${copy}${leftover}`, { force: true });
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
