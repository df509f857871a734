/**
 * `metrics experiments [workflow]`: each experiment node of the account's workflows (or of one),
 * its variants' email counters (the first send-email node on each variant's path) judged as
 * verdicts.ts says. An experiment with fewer than two variants that send an email is said, with
 * no verdict.
 */
import { type ApiClient, everyItem } from '../../api/client.js';
import { UsageError } from '../../base/errors.js';
import { type Handler, handler } from '../../core/capabilities.js';
import type { EmailMetrics } from '../../platform/email-metrics.js';
import type { Workflow } from '../../platform/workflows/schemas.js';
import { formatCount, formatRate } from '../../render/numbers.js';
import type { Output } from '../../render/output.js';
import { renderTable } from '../../render/table.js';
import { wrapText } from '../../render/wrap.js';
import { getWorkflow, nodeMetrics, workflows } from '../workflows/client.js';
import { RATE_NAMES } from './periods.js';
import { type Judgement, judge, variantWeights } from './verdicts.js';

type Nodes = Record<string, { typeName: string; nextNodeIds?: readonly string[] } & Record<string, unknown>>;

/** A variant of an experiment, with the email it sends first, if any. */
interface Variant {
  node: string;
  control: boolean;
  weight: number;
  email: { node: string; subject: string } | null;
  metrics?: EmailMetrics;
}

export interface ExperimentReport {
  workflow: { id: string; name: string };
  experiment: string;
  samplingRate: number;
  variants: Variant[];
  /** Why there is no verdict, when there is none. */
  noVerdict?: string;
  judgement?: Judgement;
}

/** The first send-email node on the path from `start`, followed while it does not branch. */
function firstEmail(nodes: Nodes, start: string): { node: string; subject: string } | null {
  const seen = new Set<string>();
  let at: string | undefined = start;
  while (at !== undefined && !seen.has(at)) {
    seen.add(at);
    const node: Nodes[string] | undefined = nodes[at];
    if (node === undefined) return null;
    if (node.typeName === 'SendEmailAction' && typeof node.emailMessageId === 'string') return { node: at, subject: String(node.subject ?? '') };
    const next: readonly string[] = node.nextNodeIds ?? [];
    at = next.length === 1 ? next[0] : undefined;
  }
  return null;
}

/** The experiments of a workflow, their variants and the emails they send, before any counter is read. */
export function experimentsOf(workflow: Workflow): ExperimentReport[] {
  const nodes = workflow.nodes as unknown as Nodes;
  return Object.entries(nodes)
    .filter(([, node]) => node.typeName === 'ExperimentBranchNode')
    .map(([id, node]) => {
      const paths = (node.nextNodeIds ?? []).filter((next) => nodes[next]?.typeName === 'VariantNode');
      const controls = paths.map((next) => nodes[next]!.isControl === true);
      const samplingRate = typeof node.samplingRate === 'number' ? node.samplingRate : 0;
      const weights = variantWeights(samplingRate, controls);
      const variants = paths.map((next, i) => ({ node: next, control: controls[i]!, weight: weights[i]!, email: firstEmail(nodes, next) }));
      const sending = variants.filter((variant) => variant.email !== null).length;
      const report: ExperimentReport = { workflow: { id: workflow.id, name: workflow.name ?? workflow.id }, experiment: id, samplingRate, variants };
      if (variants.length < 2) report.noVerdict = `it has ${variants.length === 1 ? 'one variant' : 'no variant'}: nothing to compare`;
      else if (sending < 2)
        report.noVerdict = `${sending === 0 ? 'no variant sends' : 'only one variant sends'} an email: no email node to compare (a holdout sends nothing)`;
      return report;
    });
}

/** The workflows named (by id or name), or all of them. */
async function chosenWorkflows(api: ApiClient, wanted: string | undefined): Promise<Workflow[]> {
  const all = await everyItem(api, workflows);
  const chosen = wanted === undefined ? all : all.filter((summary) => summary.id === wanted || summary.name.toLowerCase() === wanted.toLowerCase());
  if (chosen.length === 0) throw new UsageError(`no workflow has the id or name ${JSON.stringify(wanted)}`, { hint: 'see `loopsctl workflow list`' });
  if (wanted !== undefined && chosen.length > 1)
    throw new UsageError(`${JSON.stringify(wanted)} names ${chosen.length} workflows: ${chosen.map((summary) => summary.id).join(', ')}`, {
      hint: 'name one by its id',
    });
  return Promise.all(chosen.map((summary) => getWorkflow(api, summary.id)));
}

export const experiments: Handler<[string | undefined], Record<string, never>> = handler(['out', 'client'], async (context, [wanted]) => {
  const api = await context.client();
  const reports = (await Promise.all((await chosenWorkflows(api, wanted)).map(experimentsOf))).flat();
  for (const report of reports) {
    if (report.noVerdict !== undefined) continue;
    const sending = report.variants.filter((variant) => variant.email !== null);
    await Promise.all(
      sending.map(async (variant) => {
        variant.metrics = await nodeMetrics(api, report.workflow.id, variant.email!.node);
      }),
    );
    if (sending.some((variant) => variant.metrics!.sends === 0)) report.noVerdict = 'a variant has sent nothing yet';
    else
      report.judgement = judge(sending.map((variant) => ({ node: variant.node, control: variant.control, weight: variant.weight, metrics: variant.metrics! })));
  }
  if (context.out.json) return await context.out.writeJson(reports);
  if (reports.length === 0)
    return await context.out.write(`no experiment in ${wanted === undefined ? 'any workflow' : `workflow ${JSON.stringify(wanted)}`}\n`);
  await context.out.write(reports.map((report) => renderExperiment(context.out, report)).join('\n'));
});

/** A variant's letter: A, B, C… in the experiment's order. */
const letter = (index: number) => String.fromCharCode(65 + index);

function renderExperiment(out: Output, report: ExperimentReport): string {
  // The sentences around the tables, wrapped at a terminal as the tables are fitted to it.
  const prose = (text: string) => `${out.tty ? wrapText(text, out.columns) : text}\n`;
  const title = prose(`workflow "${report.workflow.name}", experiment ${report.experiment} (${report.samplingRate}% sampled)`);
  const variants = renderTable(
    out,
    [
      { header: '' },
      { header: 'VARIANT' },
      { header: 'ROLE' },
      { header: 'WEIGHT', align: 'right' },
      { header: 'EMAIL', truncate: true },
      { header: 'SENDS', align: 'right' },
    ],
    report.variants.map((variant, i) => [
      letter(i),
      variant.node,
      variant.control ? 'control' : 'variant',
      `${(variant.weight * 100).toFixed(1)}%`,
      variant.email === null ? '-' : variant.email.subject || variant.email.node,
      variant.metrics === undefined ? '-' : formatCount(variant.metrics.sends),
    ]),
  );
  if (report.judgement === undefined) return `${title}${variants}${prose(`no verdict: ${report.noVerdict}`)}`;
  const { judgement } = report;
  const sending = report.variants.flatMap((variant, i) => (variant.metrics === undefined ? [] : [{ variant, name: letter(i) }]));
  const others = sending.flatMap((_, i) => (i === judgement.reference ? [] : [i]));
  const percent = (value: number) => `${value >= 0 ? '+' : ''}${(value * 100).toFixed(2)}%`;
  // With more than two variants, each cell lists every variant against the reference, in order.
  const each = (cell: (i: number) => string) => others.map(cell).join('; ');
  const rows = judgement.metrics.map((metric) => [
    RATE_NAMES[metric.metric],
    ...sending.map(({ variant }) => formatRate(variant.metrics![metric.metric], variant.metrics!.sends)),
    each((i) => (metric.lifts[i] === null ? '-' : percent(metric.lifts[i]!))),
    each((i) => `${percent(metric.intervals[i]!.low)} to ${percent(metric.intervals[i]!.high)}`),
    metric.pValue < 0.0001 ? '<0.0001' : metric.pValue.toFixed(4),
    metric.verdict,
  ]);
  const against = `${others.map((i) => sending[i]!.name).join(', ')} vs ${sending[judgement.reference]!.name}`;
  const metrics = renderTable(
    out,
    [
      { header: 'METRIC' },
      ...sending.map(({ name }) => ({ header: name, align: 'right' as const })),
      { header: `LIFT ${against}`, align: 'right' },
      { header: 'DIFFERENCE, 95% INTERVAL', drop: true, priority: -1 },
      { header: 'P-VALUE', align: 'right' },
      { header: 'VERDICT' },
    ],
    rows,
  );
  const test = sending.length === 2 ? 'two-proportion z-test' : `Pearson's chi-squared (${sending.length - 1} degrees of freedom)`;
  const ratio = judgement.sampleRatio;
  const srm = ratio.mismatch
    ? `sample ratio mismatch: the sends are not split as the weights say (p = ${ratio.pValue.toExponential(2)}): no verdict is to be trusted`
    : `sample ratio as weighted (p = ${ratio.pValue.toFixed(4)})`;
  return `${title}${variants}${metrics}${prose(`${test}; ${srm}`)}`;
}
