/**
 * `metrics history --out history.html`: the history as one self-contained page. A chart a rate,
 * drawn as inline SVG, one point a period: a line joins only periods next to each other that both
 * have the rate, so a gap (or a refused period, or the first snapshot's) breaks the line and is
 * shaded, never bridged. Under the charts, the table the terminal shows, and the numbers `--json`
 * gives, in a data block the page does not run. The page loads nothing: its policy is
 * `default-src 'none'` with its own inline styles, and it has no script. A period the delivery
 * journal filled, before the first snapshot, is drawn apart: its own dashed line, hollow points.
 */
import { escapeHtml } from '../../lmx/render/index.js';
import { formatRate } from '../../render/numbers.js';
import { type PeriodRow, RATE_NAMES, RATED_FIELDS, type RatedField } from './periods.js';

/** A row of the page's table: the period, a cell a counter, and the note, as the terminal's table has them. */
export interface PageTable {
  headers: string[];
  rows: string[][];
}

const POLICY = "default-src 'none'; style-src 'unsafe-inline'";

const STYLE = `
*{box-sizing:border-box}
body{margin:0;padding:16px 20px;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2937;background:#f9fafb}
h1{font-size:22px;margin:0 0 4px}h2{font-size:16px;margin:16px 0 4px}
.muted{color:#6b7280;font-size:13px}
figure{margin:0 0 12px;background:#fff;border:1px solid #e5e7eb;padding:8px;max-width:760px}
svg{display:block;width:100%;height:auto}
svg .axis{stroke:#9ca3af;stroke-width:1}
svg text{font-size:11px;fill:#6b7280}
svg .gap{fill:#f3f4f6}svg .start{stroke:#6b7280;stroke-dasharray:3 3}svg .refused{fill:#fee2e2}
svg .line{fill:none;stroke:#2563eb;stroke-width:2}
svg .point{fill:#2563eb}
svg .line.journal{stroke:#9333ea;stroke-dasharray:5 3}svg .point.journal{fill:#fff;stroke:#9333ea;stroke-width:2}
.legend span{display:inline-block;width:12px;height:12px;margin:0 4px -1px 12px;border:1px solid #d1d5db}
table{border-collapse:collapse;background:#fff;font-size:13px}
th,td{padding:3px 10px;border-bottom:1px solid #e5e7eb;text-align:right;white-space:nowrap}
th:first-child,td:first-child,th:last-child,td:last-child{text-align:left}
td:last-child{white-space:normal;min-width:18em}
.periods{overflow-x:auto;max-width:100%}
`;

/** The chart's size in its own units; the page scales it to its width. */
const WIDTH = 720;
const HEIGHT = 180;
const LEFT = 56;
const RIGHT = 12;
const TOP = 12;
const BOTTOM = 28;

const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);

/** The page: its heading, what history starts with, a chart a rate the periods have, the table, and the JSON. */
export function historyPage(title: string, json: unknown, rows: readonly PeriodRow[], said: string[], table: PageTable): string {
  const charts = RATED_FIELDS.filter((field) => rows.some((row) => rateOf(row, field) !== null)).map((field) =>
    chart(
      field,
      rows,
      table.rows.map((cells) => cells.at(-1)!),
    ),
  );
  const data = JSON.stringify(json).replace(/</g, '\\u003c');
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${POLICY}">`,
    '<meta name="viewport" content="width=device-width,initial-scale=1">',
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>`,
    `<h1>${escapeHtml(title)}</h1>`,
    ...said.map((line) => `<p class="said">${escapeHtml(line)}</p>`),
    '<p class="muted legend">Each point is a period; a line joins only periods next to each other.',
    '<span style="background:#f3f4f6"></span>no snapshot: a gap<span style="background:#fee2e2"></span>refused',
    rows.some((row) => row.status === 'journal')
      ? '<span style="border:2px dashed #9333ea"></span>from the delivery journal, before the first snapshot</p>'
      : '</p>',
    charts.length === 0 ? '<p class="muted">No period has a rate yet: a rate needs two snapshots with sends between them.</p>' : charts.join('\n'),
    '<h2>The periods</h2>',
    `<div class="periods"><table><thead><tr>${table.headers.map((header) => `<th>${escapeHtml(header)}</th>`).join('')}</tr></thead><tbody>`,
    ...table.rows.map((cells, index) => `<tr data-period="${dayOf(rows[index]!.start)}">${cells.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`),
    '</tbody></table></div>',
    `<script type="application/json" id="history-json">${data}</script>`,
    '</body></html>',
    '',
  ].join('\n');
}

function rateOf(row: PeriodRow, field: RatedField): number | null {
  return row.rates?.[field] ?? null;
}

/** One rate's chart: the periods across, the rate up from 0; gaps shaded (each saying its row's note), the line broken at each period without the rate. */
function chart(field: RatedField, rows: readonly PeriodRow[], notes: readonly string[]): string {
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const step = plotWidth / rows.length;
  const values = rows.map((row) => rateOf(row, field));
  const high = Math.max(...values.map((value) => value ?? 0));
  // Up to the highest rate, a little above it; a rate that is 0 throughout is drawn on a scale to 1%.
  const top = high === 0 ? 0.01 : Math.min(1, high * 1.1);
  const x = (index: number) => LEFT + (index + 0.5) * step;
  const y = (value: number) => TOP + plotHeight - (value / top) * plotHeight;
  const round = (value: number) => Math.round(value * 10) / 10;
  const parts: string[] = [];
  for (const [index, row] of rows.entries()) {
    // History starts here: a mark on the first snapshot's period, which has no number of its own.
    if (row.status === 'start')
      parts.push(
        `<line class="start" data-start="${dayOf(row.start)}" x1="${round(x(index))}" y1="${TOP}" x2="${round(x(index))}" y2="${TOP + plotHeight}"/><text x="${round(x(index)) + 4}" y="${TOP + 10}">first snapshot</text>`,
      );
    if (row.status !== 'gap' && row.status !== 'refused') continue;
    parts.push(
      `<rect class="${row.status}" data-${row.status}="${dayOf(row.start)}" x="${round(LEFT + index * step)}" y="${TOP}" width="${round(step)}" height="${plotHeight}"><title>${escapeHtml(`${dayOf(row.start)}: ${notes[index]}`)}</title></rect>`,
    );
  }
  // Runs of periods next to each other that have the rate, from the same source: a line each.
  let run: number[] = [];
  const lines: string[] = [];
  const endRun = () => {
    if (run.length > 1) {
      const path = run.map((index, at) => `${at === 0 ? 'M' : 'L'}${round(x(index))} ${round(y(values[index]!))}`).join(' ');
      lines.push(`<path class="line ${sourceOf(rows[run[0]!]!)}" data-run="${dayOf(rows[run[0]!]!.start)}..${dayOf(rows[run.at(-1)!]!.start)}" d="${path}"/>`);
    }
    run = [];
  };
  for (const [index, value] of values.entries()) {
    if (value === null || (run.length > 0 && sourceOf(rows[run[0]!]!) !== sourceOf(rows[index]!))) endRun();
    if (value !== null) run.push(index);
  }
  endRun();
  const points = values.flatMap((value, index) => {
    if (value === null) return [];
    const row = rows[index]!;
    const counted = row.counts?.[field] ?? 0;
    const sends = row.counts?.sends ?? 0;
    const from = row.status === 'journal' ? ', from the delivery journal' : '';
    return [
      `<circle class="point ${sourceOf(row)}" data-period="${dayOf(row.start)}" data-rate="${value}" cx="${round(x(index))}" cy="${round(y(value))}" r="3"><title>${escapeHtml(`${dayOf(row.start)}: ${formatRate(counted, sends)} (${counted} of ${sends} sends${from})`)}</title></circle>`,
    ];
  });
  const labels = axisLabels(rows.length).map(
    (index) => `<text x="${round(x(index))}" y="${HEIGHT - 8}" text-anchor="middle">${dayOf(rows[index]!.start)}</text>`,
  );
  const name = RATE_NAMES[field];
  return [
    `<figure data-chart="${field}"><figcaption><strong>${escapeHtml(name)}</strong></figcaption>`,
    `<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${escapeHtml(`${name} a period`)}">`,
    ...parts,
    `<line class="axis" x1="${LEFT}" y1="${TOP + plotHeight}" x2="${WIDTH - RIGHT}" y2="${TOP + plotHeight}"/>`,
    `<line class="axis" x1="${LEFT}" y1="${TOP}" x2="${LEFT}" y2="${TOP + plotHeight}"/>`,
    `<text x="${LEFT - 6}" y="${TOP + plotHeight + 4}" text-anchor="end">0%</text>`,
    `<text x="${LEFT - 6}" y="${TOP + 4}" text-anchor="end">${formatRate(top, 1)}</text>`,
    ...labels,
    ...lines,
    ...points,
    '</svg></figure>',
  ].join('\n');
}

/** Where a period's numbers come from: the snapshots, or the delivery journal before the first of them. */
function sourceOf(row: PeriodRow): 'journal' | 'snapshots' {
  return row.status === 'journal' ? 'journal' : 'snapshots';
}

/** The periods whose start is written under the axis: the first, the last, and about six between. */
function axisLabels(count: number): number[] {
  const every = Math.max(1, Math.ceil(count / 7));
  const shown = Array.from({ length: count }, (_, index) => index).filter((index) => index % every === 0);
  if (shown.at(-1) !== count - 1 && count - 1 - shown.at(-1)! < every / 2) shown.pop();
  if (count > 0 && shown.at(-1) !== count - 1) shown.push(count - 1);
  return shown;
}
