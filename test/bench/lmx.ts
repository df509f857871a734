/**
 * LMX checked in-process: the parser and the validator over 100 KB of a realistic email, and over
 * 100 KB built to be a worst case (a problem every few bytes), each timed as the median of many runs;
 * and the same realistic 100 KB parsed and rendered to HTML, as `content render` and the preview do.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { checkLmx, parseLmx } from '../../src/lmx/index.js';
import { renderLmx } from '../../src/lmx/render/index.js';
import { median } from './measure.js';

const TARGET_BYTES = 100 * 1024;
const ROUNDS = 60;
const WARMUP_ROUNDS = 20;

const BLOCK = `<H2 align="center">Hello, {contact.firstName}</H2>
<Paragraph fontSize="16" lineHeight="150">What is new: <Strong>exports</Strong>, <Em>sharing</Em> &amp; <Link href="https://acme.example/changelog">more</Link>.<Br />Thanks.</Paragraph>
<UnorderedList><ListItem>Faster <Code>csv</Code> exports</ListItem><ListItem>Shared workspaces</ListItem></UnorderedList>
<Button href="https://acme.example/account/{contact.userId}" align="center" bgColor="#000000" textColor="#ffffff" borderRadius="12">Open your account</Button>
<Columns gap="24" widths="40,60"><ColumnItem><H3>Docs</H3></ColumnItem><ColumnItem><Image src="https://cdn.acme.example/logo.png" alt="Acme" width="180" /></ColumnItem></Columns>
<Icons align="center" color="#000000"><Icon name="twitter" href="https://x.com/acme" /><Icon name="github" href="https://github.com/acme" /></Icons>
`;

/** The same text repeated up to just under the size. */
function sized(unit: string, prefix = '', suffix = ''): string {
  const count = Math.floor((TARGET_BYTES - prefix.length - suffix.length) / unit.length);
  return prefix + unit.repeat(count) + suffix;
}

/** The median time of a job, after warming it up, and the last count it gave. */
function timed(job: () => number): { ms: number; count: number } {
  let count = 0;
  // Compiled code, as a long-running check (an editor, the preview server) has it.
  for (let round = 0; round < WARMUP_ROUNDS; round += 1) job();
  const samples: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = performance.now();
    count = job();
    samples.push(performance.now() - started);
  }
  return { ms: median(samples), count };
}

/** The realistic 100 KB email `content check` reads, as a campaign. */
function realisticEmail(): string {
  return sized(BLOCK, '<Style themeId="st_acme" />\n');
}

/** Set in a process started only to time its first check: its code has never run before. */
const COLD_RUN = 'LOOPSCTL_BENCH_COLD_LMX';

/**
 * The check's first run in a fresh process (a one-shot `content check`), against the same check
 * warmed up in that process: [median cold ms, median warm ms, median of each process's ratio].
 */
export function measureLmxCold(processes = 9): [number, number, number] {
  const runs = Array.from({ length: processes }, () => {
    // This module bundled into the benchmark's file: run it again, to do only the cold check.
    const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url)], { env: { ...process.env, [COLD_RUN]: '1' }, encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`the cold LMX run failed: ${child.stderr}`);
    return JSON.parse(child.stdout) as { cold: number; warm: number };
  });
  return [median(runs.map((run) => run.cold)), median(runs.map((run) => run.warm)), median(runs.map((run) => run.cold / run.warm))];
}

/** In the process measureLmxCold starts: times the first check, then the warm one, and exits. */
export function runColdLmxIfAsked(): void {
  if (process.env[COLD_RUN] === undefined) return;
  const source = realisticEmail();
  const started = performance.now();
  checkLmx(source, { kind: 'campaign' });
  const cold = performance.now() - started;
  const { ms: warm } = timeCheck(source);
  process.stdout.write(JSON.stringify({ cold, warm }));
  process.exit(0);
}

function timeCheck(source: string): { ms: number; problems: number } {
  const { ms, count } = timed(() => checkLmx(source, { kind: 'campaign' }).problems.length);
  return { ms, problems: count };
}

/** 100 KB of a realistic email parsed and rendered: [milliseconds, characters of HTML]. */
export function measureLmxRender(): [number, number] {
  const source = realisticEmail();
  const values = { contact: { firstName: 'Ada', userId: 'usr_1' } };
  const { ms, count } = timed(() => renderLmx(parseLmx(source).document, { values }).html.length);
  return [ms, count];
}

/** [name, milliseconds, problems found] for each input. */
export function measureLmxCheck(): [string, number, number][] {
  const inputs: [string, string][] = [
    ['a realistic email', realisticEmail()],
    ['a problem every few bytes', sized('a & b <Bold>{x}</Bold> ', '<Paragraph>', '</Paragraph>')],
  ];
  return inputs.map(([name, source]) => {
    const { ms, problems } = timeCheck(source);
    return [name, ms, problems];
  });
}

/** One tag of 1.3 MB, 130,000 attributes, parsed: [milliseconds, attributes]; once quadratic in them (32 s). */
export function measureAttributeHeavyTag(): [number, number] {
  const count = 130_000;
  const source = `<Paragraph ${Array.from({ length: count }, (_, index) => `a${index}="x"`).join(' ')}>hi</Paragraph>`;
  const samples: number[] = [];
  for (let round = 0; round < 5; round += 1) {
    const started = performance.now();
    parseLmx(source);
    samples.push(performance.now() - started);
  }
  return [median(samples), count];
}
