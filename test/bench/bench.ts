/**
 * `npm run bench`: loopsctl measured against what Node itself needs for the same job, on a local
 * server. Every figure is a ratio of medians over interleaved runs, printed next to its goal.
 * Run through run.mjs, which passes the repository root as the first argument; further arguments
 * pick parts (startup, request, listing, memory, metrics), all of them by default.
 */
import { availableParallelism, tmpdir } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { interleaved, peakRss, run, type Command } from './measure.js';
import { startBenchServer, type RequestSpan } from './server.js';

const [root, ...picked] = process.argv.slice(2);
if (root === undefined) throw new Error('usage: bench.mjs <repository root> [startup|request|listing|memory|metrics]...');
const runs = (part: string) => picked.length === 0 || picked.includes(part);
const benchDir = join(root, 'test/bench');
const bin = join(root, 'bin/loopsctl.js');

const STARTUP_ROUNDS = 25;
const REQUEST_ROUNDS = 25;
const LISTING_ROUNDS = 15;
const MEMORY_ROUNDS = 5;
const METRICS_ROUNDS = 3;
const LARGE = 10_000;
const SMALL = 50;
const METRICS_IDS = 50;
const METRICS_LATENCY_MS = 50;
/** The pacing rule: at most 10 requests per second. */
const REQUESTS_PER_SECOND = 10;
const MAX_IN_FLIGHT = 4;

interface Figure {
  name: string;
  value: number;
  /** How the goal reads in the table: "≤ 1.3x". */
  goal: string;
  /** PASS or FAIL against the goal; info for a figure shown for context only. */
  result: 'PASS' | 'FAIL' | 'info';
  /** What the figure is made of, in words. */
  detail: string;
  unit: string;
}

const figures: Figure[] = [];
const ms = (value: number) => `${Math.round(value)} ms`;
const mb = (value: number) => `${(value / 1024 / 1024).toFixed(1)} MB`;

function ratio(name: string, goal: number, candidate: [string, number], floor: [string, number], format = ms): void {
  const value = candidate[1] / floor[1];
  const detail = `${candidate[0]} ${format(candidate[1])} / ${floor[0]} ${format(floor[1])}`;
  figures.push({ name, value, goal: `≤ ${goal}x`, result: value <= goal ? 'PASS' : 'FAIL', detail, unit: 'x' });
  console.error(`  ${name}: ${value.toFixed(2)}x`);
}

const configDir = mkdtempSync(join(tmpdir(), 'loopsctl-bench-config-'));
const server = await startBenchServer();
const env: Record<string, string> = {
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
  LOOPS_API_KEY: 'bench-key-not-a-real-one',
  LOOPSCTL_CONFIG_DIR: configDir,
};
const cli = (label: string, args: string[], baseUrl = server.url): Command => ({ label, args: [bin, ...args], env: { LOOPS_BASE_URL: baseUrl } });
const listing = (items: number, format: '--json' | '--jsonl') => cli(`loopsctl ${format}`, ['transactional', 'list', '--per-page', '50', format], `${server.url}/items/${items}`);

try {
  console.error(`Node ${process.version}, ${availableParallelism()} cores; loopsctl at ${bin}`);

  if (runs('startup')) await measureStartup();
  if (runs('request')) await measureRequest();
  if (runs('listing')) await measureListing();
  if (runs('memory')) await measureMemory();
  if (runs('metrics')) await measureMetrics();
} finally {
  await server.close();
  rmSync(configDir, { recursive: true, force: true });
}

async function measureStartup(): Promise<void> {
  console.error('start-up…');
  const node = { label: 'node -e 0', args: ['-e', '0'] };
  const startup = await interleaved([node, cli('--version', ['--version']), cli('--help', ['--help'])], STARTUP_ROUNDS, env);
  ratio('--version vs node -e 0', 1.3, ['--version', startup.get('--version')!], ['node', startup.get('node -e 0')!]);
  ratio('--help vs node -e 0', 1.5, ['--help', startup.get('--help')!], ['node', startup.get('node -e 0')!]);
}

async function measureRequest(): Promise<void> {
  console.error('one request…');
  const fetchOne = { label: 'fetch', args: [join(benchDir, 'floor/fetch-one.mjs'), `${server.url}/v1/dedicated-sending-ips`] };
  const ips = await interleaved([fetchOne, cli('ips', ['ips', 'list', '--json'])], REQUEST_ROUNDS, env);
  ratio('ips list --json vs fetch', 1.25, ['loopsctl', ips.get('ips')!], ['fetch', ips.get('fetch')!]);
}

async function measureListing(): Promise<void> {
  console.error(`listing ${LARGE} items…`);
  const fetchPages = { label: 'fetch loop', args: [join(benchDir, 'floor/fetch-pages.mjs'), `${server.url}/items/${LARGE}/v1/transactional-emails`] };
  await checkListings(fetchPages);
  const lists = await interleaved([fetchPages, listing(LARGE, '--json'), listing(LARGE, '--jsonl')], LISTING_ROUNDS, env);
  for (const format of ['--json', '--jsonl']) {
    ratio(`list ${LARGE} ${format} vs fetch loop`, 1.3, ['loopsctl', lists.get(`loopsctl ${format}`)!], ['fetch loop', lists.get('fetch loop')!]);
  }
}

async function measureMemory(): Promise<void> {
  console.error('peak memory…');
  for (const format of ['--json', '--jsonl'] as const) {
    const large = await peakRss(listing(LARGE, format), MEMORY_ROUNDS, env, benchDir);
    const small = await peakRss(listing(SMALL, format), MEMORY_ROUNDS, env, benchDir);
    ratio(`peak RSS ${format}, ${LARGE} vs ${SMALL} items`, 1.5, [`${LARGE}`, large], [`${SMALL}`, small], mb);
  }
}

/** Both listings must print every item once, or their times mean nothing. */
async function checkListings(floor: Command): Promise<void> {
  const floorItems = (await run(floor, env)).stdout.trim().split('\n').flatMap((line) => JSON.parse(line) as unknown[]);
  const json = JSON.parse((await run(listing(LARGE, '--json'), env)).stdout) as unknown[];
  const jsonl = (await run(listing(LARGE, '--jsonl'), env)).stdout.trim().split('\n').map((line) => JSON.parse(line) as unknown);
  for (const [label, items] of [['fetch loop', floorItems], ['--json', json], ['--jsonl', jsonl]] as const) {
    if (items.length !== LARGE) throw new Error(`${label} printed ${items.length} items instead of ${LARGE}`);
  }
}

/** The most requests that were in flight at one moment. */
function peakInFlight(spans: RequestSpan[]): number {
  const events = spans.flatMap((span) => [[span.start, 1] as const, [span.end, -1] as const]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let current = 0;
  let peak = 0;
  for (const [, change] of events) peak = Math.max(peak, (current += change));
  return peak;
}

async function measureMetrics(): Promise<void> {
  console.error(`metrics of ${METRICS_IDS} ids at ${METRICS_LATENCY_MS} ms latency…`);
  const ids = Array.from({ length: METRICS_IDS }, (_, index) => `cm${String(index).padStart(23, '0')}`);
  const command = cli('metrics', ['transactional', 'metrics', ...ids, '--json'], `${server.url}/latency/${METRICS_LATENCY_MS}`);
  const times: number[] = [];
  let peak = 0;
  let rate = 0;
  for (let round = 0; round < METRICS_ROUNDS; round += 1) {
    server.resetSpans();
    times.push((await run(command, env)).ms);
    const spans = server.metricsSpans;
    if (spans.length !== METRICS_IDS) throw new Error(`expected ${METRICS_IDS} metrics requests, the server saw ${spans.length}`);
    peak = Math.max(peak, peakInFlight(spans));
    const first = Math.min(...spans.map((span) => span.start));
    const last = Math.max(...spans.map((span) => span.start));
    rate = Math.max(rate, ((METRICS_IDS - 1) / (last - first)) * 1000);
  }
  times.sort((a, b) => a - b);
  const elapsed = times[Math.floor(times.length / 2)]!;
  // The pacing lets request n start (n - 1) / rate seconds after the first; the last then takes the latency.
  const floor = ((METRICS_IDS - 1) / REQUESTS_PER_SECOND) * 1000 + METRICS_LATENCY_MS;
  ratio(`metrics x${METRICS_IDS} vs pacing floor`, 1.5, ['loopsctl', elapsed], ['floor', floor]);
  figures.push({
    name: 'metrics: most requests in flight',
    value: peak,
    goal: `2-${MAX_IN_FLIGHT}`,
    result: peak > 1 && peak <= MAX_IN_FLIGHT ? 'PASS' : 'FAIL',
    detail: 'requests overlap, at most 4 at a time',
    unit: '',
  });
  figures.push({
    name: 'metrics: request rate',
    value: rate,
    goal: `≤ ${REQUESTS_PER_SECOND}/s`,
    result: 'info',
    detail: 'starts per second from the first request to the last, for context: the pacing keeps it at or below 10',
    unit: '/s',
  });
}

const width = Math.max(...figures.map((figure) => figure.name.length));
console.log(`\n${'figure'.padEnd(width)}  measured  goal      result`);
for (const figure of figures) {
  const measured = `${figure.value.toFixed(figure.unit === 'x' ? 2 : 0)}${figure.unit}`;
  console.log(`${figure.name.padEnd(width)}  ${measured.padEnd(8)}  ${figure.goal.padEnd(8)}  ${figure.result.padEnd(6)}  ${figure.detail}`);
}
process.exitCode = figures.some((figure) => figure.result === 'FAIL') ? 1 : 0;
