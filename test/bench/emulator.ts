/**
 * `npm run bench -- emulator`: the emulator an app's test suite starts (`startSandbox()` from the
 * built `loopsctl/sandbox`) against a bare node:http server that answers the same JSON
 * (emulator/http-server.mjs): its start, as whole processes that answer one request and as the time
 * of `await startSandbox()` against `createServer().listen()`; the latency of sequential requests
 * (a contact found, an event sent, a transactional email sent) and the throughput of concurrent
 * ones, the client in this process and each server in its own; and what a contact create costs as
 * the contacts grow to 100,000, in this process through the emulator's request handler.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sandboxCaller } from './journeys.js';
import { type Command, median, run } from './measure.js';

export interface EmulatorFigures {
  /** Whole processes, one request each: wall times by round. */
  processMs: { sandbox: number[]; bare: number[] };
  /** `await startSandbox()` and `createServer().listen()` in those processes, by round. */
  startMs: { sandbox: number[]; bare: number[] };
  /** Each request's median, by request, then all requests' medians together. */
  latencyMs: { sandbox: number; bare: number; byRequest: { name: string; sandbox: number; bare: number }[] };
  /** Requests a second with CONCURRENCY in flight. */
  throughput: { sandbox: number; bare: number };
  /** The median create of the second thousand (the first at full speed) and of the last thousand of `contacts`. */
  creates: { firstMs: number; lastMs: number; contacts: number };
}

const PROCESS_ROUNDS = 30;
/** Sequential rounds of every request, after WARM_UP rounds not counted. */
const LATENCY_ROUNDS = 1_000;
const WARM_UP = 200;
const CONCURRENCY = 16;
const THROUGHPUT_REQUESTS = 6_000;
const CREATES = 100_000;

interface BenchRequest {
  name: string;
  method: string;
  path: string;
  body?: unknown;
}

const REQUESTS: BenchRequest[] = [
  { name: 'GET contacts/find', method: 'GET', path: '/v1/contacts/find?email=ada%40example.com' },
  {
    name: 'POST events/send',
    method: 'POST',
    path: '/v1/events/send',
    body: { email: 'ada@example.com', eventName: 'signup', eventProperties: { plan: 'pro' } },
  },
  {
    name: 'POST transactional',
    method: 'POST',
    path: '/v1/transactional',
    body: { transactionalId: 'welcome', email: 'ada@example.com', dataVariables: { name: 'Ada' } },
  },
];

export async function measureEmulator(root: string, scratch: string, env: Record<string, string>): Promise<EmulatorFigures> {
  const dir = join(root, 'test/bench/emulator');
  const sandboxScript = join(dir, 'sandbox-server.mjs');
  const bareScript = join(dir, 'http-server.mjs');
  const answersFile = join(scratch, 'emulator-answers.json');
  // The bare server answers what the emulator answered: recorded from one, before any timing.
  const recorder = await startServer('sandbox', [sandboxScript, root, 'serve'], env);
  const recorded: Record<string, { status: number; body: unknown }> = {};
  try {
    for (const sent of REQUESTS) {
      const { status, text } = await send(recorder, sent, new Agent());
      if (status !== 200) throw new Error(`the sandbox answered ${sent.name} with ${status}: ${text}`);
      recorded[`${sent.method} ${sent.path}`] = { status, body: JSON.parse(text) };
    }
  } finally {
    await recorder.stop();
  }
  writeFileSync(answersFile, JSON.stringify(recorded));

  console.error(`emulator: ${PROCESS_ROUNDS} starts of each, one request…`);
  const sandboxOne: Command = { label: 'sandbox', args: [sandboxScript, root, 'one'] };
  const bareOne: Command = { label: 'node:http', args: [bareScript, answersFile, 'one'] };
  const startMs = { sandbox: [] as number[], bare: [] as number[] };
  const processMs = { sandbox: [] as number[], bare: [] as number[] };
  for (let round = 0; round < PROCESS_ROUNDS; round += 1) {
    const pairs = [[sandboxOne, 'sandbox'] as const, [bareOne, 'bare'] as const];
    for (const [command, key] of round % 2 === 0 ? pairs : pairs.reverse()) {
      const result = await run(command, env);
      processMs[key].push(result.ms);
      startMs[key].push((JSON.parse(result.stdout) as { startMs: number }).startMs);
    }
  }

  console.error(`emulator: ${LATENCY_ROUNDS} sequential rounds of ${REQUESTS.length} requests, then ${THROUGHPUT_REQUESTS} with ${CONCURRENCY} in flight…`);
  const sandbox = await startServer('sandbox', [sandboxScript, root, 'serve'], env);
  const bare = await startServer('node:http', [bareScript, answersFile, 'serve'], env);
  try {
    const latencyMs = await latencies([sandbox, bare]);
    const throughput = { sandbox: 0, bare: 0 };
    // Twice each, alternating; the better of each server's two runs.
    for (const server of [sandbox, bare, sandbox, bare]) {
      const perSecond = await throughputOf(server);
      const key = server === sandbox ? 'sandbox' : 'bare';
      throughput[key] = Math.max(throughput[key], perSecond);
    }
    console.error(`emulator: ${CREATES.toLocaleString('en')} contacts created, in this process…`);
    return { processMs, startMs, latencyMs, throughput, creates: await measureCreates(CREATES) };
  } finally {
    await Promise.all([sandbox.stop(), bare.stop()]);
  }
}

interface RunningServer {
  label: string;
  url: string;
  apiKey: string;
  stop(): Promise<void>;
}

/** A server script started in its own process, serving until its stdin ends. */
async function startServer(label: string, args: string[], env: Record<string, string>): Promise<RunningServer> {
  const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      if (text.includes('\n')) resolve(text.split('\n')[0]!);
    });
    child.once('exit', (code) => reject(new Error(`${label} ended (exit ${code}) before it served`)));
  });
  const { url, apiKey } = JSON.parse(line) as { url: string; apiKey: string };
  return {
    label,
    url,
    apiKey,
    stop: async () => {
      child.stdin.end();
      await exited;
    },
  };
}

function send(server: RunningServer, sent: BenchRequest, agent: Agent): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const body = sent.body === undefined ? undefined : JSON.stringify(sent.body);
    request(
      `${server.url}${sent.path}`,
      { method: sent.method, agent, headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      },
    )
      .on('error', reject)
      .end(body);
  });
}

/** Every request in turn, to one server then the other, one connection each kept alive: the median of each request's times. */
async function latencies(servers: [RunningServer, RunningServer]): Promise<EmulatorFigures['latencyMs']> {
  const agents = servers.map(() => new Agent({ keepAlive: true, maxSockets: 1 }));
  const times = servers.map(() => REQUESTS.map(() => [] as number[]));
  for (let round = 0; round < WARM_UP + LATENCY_ROUNDS; round += 1) {
    for (const [index, server] of servers.entries()) {
      for (const [which, sent] of REQUESTS.entries()) {
        const started = performance.now();
        const { status } = await send(server, sent, agents[index]!);
        const elapsed = performance.now() - started;
        if (status !== 200) throw new Error(`${server.label} answered ${sent.name} with ${status}`);
        if (round >= WARM_UP) times[index]![which]!.push(elapsed);
      }
    }
  }
  for (const agent of agents) agent.destroy();
  const [sandbox, bare] = times.map((byRequest) => byRequest.map(median));
  return {
    sandbox: median(times[0]!.flat()),
    bare: median(times[1]!.flat()),
    byRequest: REQUESTS.map(({ name }, index) => ({ name, sandbox: sandbox![index]!, bare: bare![index]! })),
  };
}

/** Requests a second: THROUGHPUT_REQUESTS of the three kinds in turn, CONCURRENCY at a time. */
async function throughputOf(server: RunningServer): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < THROUGHPUT_REQUESTS) {
        const sent = REQUESTS[next % REQUESTS.length]!;
        next += 1;
        const { status } = await send(server, sent, agent);
        if (status !== 200) throw new Error(`${server.label} answered ${sent.name} with ${status}`);
      }
    }),
  );
  const perSecond = THROUGHPUT_REQUESTS / ((performance.now() - started) / 1_000);
  agent.destroy();
  return perSecond;
}

/** Contacts created one after the other through the emulator's handler: the median create of the second thousand and of the last. */
async function measureCreates(contacts: number): Promise<EmulatorFigures['creates']> {
  const call = await sandboxCaller('empty');
  const times: number[] = [];
  for (let index = 0; index < contacts; index += 1) {
    const started = performance.now();
    call('POST', '/v1/contacts/create', { email: `person${index}@example.com`, userId: `user-${index}`, firstName: 'Ada' });
    times.push(performance.now() - started);
  }
  // The first thousand run while V8 still compiles the create's code: the second thousand is the
  // first at full speed. Medians: a mean takes in the garbage collector's pauses, which grow with
  // the heap, not with what a create does (the last thousand's mean moved from 0.6x to 1.6x the second's).
  return { firstMs: median(times.slice(1_000, 2_000)), lastMs: median(times.slice(-1_000)), contacts };
}
