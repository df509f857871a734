/**
 * `npm run bench -- stack`: why loopsctl replaced three packages of the stack it started from, in
 * figures anyone can reproduce (docs/dependencies.md quotes them). One request through undici
 * against node:http; a 10,000-row table from cli-table3 against loopsctl's own renderer, in time
 * and in width on an 80-column terminal; conf's write through a symlink planted at its path
 * against loopsctl's store. undici stays for proxies, where it does a job no code of ours does.
 */

import { join } from 'node:path';
import { Writable } from 'node:stream';
import Table from 'cli-table3';
import { Output } from '../../src/render/output.js';
import { renderTable } from '../../src/render/table.js';
import { displayWidth } from '../../src/render/width.js';
import { type Command, interleaved, median, run } from './measure.js';

export interface StackFigure {
  name: string;
  measured: string;
  detail: string;
}

const ROWS = 10_000;
const TABLE_ROUNDS = 3;
const REQUEST_ROUNDS = 25;

export async function measureStack(benchDir: string, bin: string, url: string, env: Record<string, string>): Promise<StackFigure[]> {
  const figures: StackFigure[] = [];
  const ms = (value: number) => `${Math.round(value)} ms`;

  console.error('stack: one request through undici and through node:http…');
  const target = `${url}/v1/dedicated-sending-ips`;
  const commands: Command[] = [
    { label: 'node:http', args: [join(benchDir, 'floor/http-one.cjs'), target] },
    { label: 'undici', args: [join(benchDir, 'floor/undici-one.cjs'), target] },
  ];
  const request = await interleaved(commands, REQUEST_ROUNDS, env);
  const [http, undici] = [request.get('node:http')!, request.get('undici')!];
  figures.push({
    name: 'one request: undici − node:http',
    measured: `${Math.round(undici - http)} ms`,
    detail: `median of ${REQUEST_ROUNDS} runs each: undici ${ms(undici)}, node:http ${ms(http)}`,
  });

  console.error(`stack: a ${ROWS.toLocaleString('en')}-row table with cli-table3 and with loopsctl's renderer…`);
  const rows = (count: number) =>
    Array.from({ length: count }, (_, index) => [
      `cm${String(index).padStart(23, '0')}`,
      `Transactional email number ${index} with a long and descriptive name`,
      '2026-01-02T03:04:05.000Z',
    ]);
  const headers = ['ID', 'NAME', 'UPDATED'];
  const timed = (render: (data: string[][]) => string, count: number) => {
    const data = rows(count);
    const times: number[] = [];
    let text = '';
    for (let round = 0; round < TABLE_ROUNDS; round += 1) {
      const started = performance.now();
      text = render(data);
      times.push(performance.now() - started);
    }
    return { ms: median(times), width: Math.max(...text.split('\n').map((line) => displayWidth(line))) };
  };
  const cliTable3 = (data: string[][]) => {
    const table = new Table({ head: headers, style: { head: [], border: [] } });
    table.push(...data);
    return table.toString();
  };
  const terminal = Object.assign(new Writable({ write: (_chunk, _encoding, done) => done() }), { isTTY: true, columns: 80 });
  const ours = (data: string[][]) =>
    renderTable(
      new Output({ json: false, color: false, stdout: terminal, env: {}, columns: 80 }),
      headers.map((header) => ({ header, truncate: header === 'NAME' })),
      data,
    );
  for (const [name, render] of [
    ['cli-table3', cliTable3],
    ['loopsctl', ours],
  ] as const) {
    const quarter = timed(render, ROWS / 4);
    const full = timed(render, ROWS);
    figures.push({
      name: `${ROWS.toLocaleString('en')}-row table: ${name}`,
      measured: ms(full.ms),
      detail: `${(full.ms / quarter.ms).toFixed(1)}x the time of ${(ROWS / 4).toLocaleString('en')} rows (4x is linear); widest line ${full.width} columns on an 80-column terminal`,
    });
  }

  console.error('stack: a config write through a planted symlink, with conf and with loopsctl…');
  const { stdout } = await run({ label: 'conf-symlink', args: [join(benchDir, 'floor/conf-symlink.mjs'), bin] }, env);
  const outcome = JSON.parse(stdout) as { conf: string; loopsctl: string };
  figures.push({ name: 'config.json planted as a symlink: conf', measured: outcome.conf, detail: 'new Conf({ atomic: true, configFileMode: 0o600 }).set(…)' });
  figures.push({ name: 'config.json planted as a symlink: loopsctl', measured: outcome.loopsctl, detail: 'loopsctl auth login --insecure-storage' });
  return figures;
}
