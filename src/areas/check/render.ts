/**
 * A check's report: on a terminal or in a log, the problems grouped by record, each with what to
 * do, and a summary line (at most 80 columns, so a CI log reads as well as a terminal); with
 * `--format github`, GitHub's workflow commands, which annotate the pull request; with `--format
 * slack`, a Slack message (slack.ts).
 */
import { sanitize } from '../../base/sanitize.js';
import { countOf } from '../../render/numbers.js';
import type { Output } from '../../render/output.js';
import { styleFor } from '../../render/style.js';
import { wrapLines } from '../../render/wrap.js';
import type { Problem, Severity } from './records.js';
import { bySeverity, slackMessage } from './slack.js';

/** What one check found, and what it read. */
export interface Report {
  problems: Problem[];
  /** The email messages the content and rendered rules checked. */
  emailsChecked: number;
  /** Records of any kind read. */
  recordsRead: number;
  /** Problems of the `not-checked` rule: what could not be read. */
  incomplete: boolean;
}

const MAX_WIDTH = 80;
const LABEL: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'note' };
const LABEL_WIDTH = 9;

function heading(problem: Problem): string {
  const id = problem.id === '' ? '' : ` (${problem.id})`;
  return `${problem.kind} "${sanitize(problem.name)}"${id}`;
}

/** The report's last line: what was found, and what was read. */
export function summary(report: Report): string {
  const count = (severity: Severity) => report.problems.filter((problem) => problem.severity === severity).length;
  const found = [countOf(count('error'), 'error'), countOf(count('warning'), 'warning'), countOf(count('info'), 'note')].join(', ');
  const read = `${countOf(report.recordsRead, 'record')} read, ${countOf(report.emailsChecked, 'email')} checked`;
  if (report.incomplete) return `Incomplete: some records could not be read (see not-checked). ${found}; ${read}.`;
  if (report.problems.length === 0) return `No problems: ${read}.`;
  return `${found}; ${read}.`;
}

/**
 * The report for a terminal or a log: the problems grouped by record, each followed by what to do.
 * A fix is said once for the findings that share it: under a record, after the last of them
 * ("fix, for the 3 above"), and in a later record, which has the same fix, by a line pointing back
 * to it (11 links of an account that time out get the four lines of their fix once).
 */
export function renderReport(out: Output, report: Report): string {
  const style = styleFor(out);
  const width = Math.min(out.columns, MAX_WIDTH);
  const paint: Record<Severity, (text: string) => string> = { error: style.red, warning: style.yellow, info: style.dim };
  const indent = ' '.repeat(2 + LABEL_WIDTH);
  const wrapped = (text: string) => wrapLines(sanitize(text), Math.max(width - indent.length, 20));
  const lines: string[] = [];
  /** Each fix said in full, and the rule of the findings it was said for. */
  const said = new Map<string, string>();
  for (const [group, problems] of byRecord(report.problems.filter((found) => found.severity !== 'info'))) {
    if (lines.length > 0) lines.push('');
    lines.push(...wrapLines(style.bold(group), width));
    const url = problems[0]!.url;
    if (url !== undefined) lines.push(`  ${style.dim(url)}`);
    for (const [fix, sharing] of byFix(problems)) {
      for (const problem of sharing) {
        const at = problem.file === undefined ? '' : `${problem.file}:${problem.line}:${problem.column}: `;
        // An accessibility finding says its impact beside its rule: `[low-contrast, serious]`.
        const [first = '', ...rest] = wrapped(`${at}${problem.message} [${problem.rule}${problem.impact === undefined ? '' : `, ${problem.impact}`}]`);
        lines.push(`  ${paint[problem.severity](LABEL[problem.severity].padEnd(LABEL_WIDTH))}${first}`, ...rest.map((line) => indent + line));
      }
      const earlier = said.get(fix);
      const which = sharing.length === 1 ? 'fix' : `fix, for the ${sharing.length} above`;
      const text = earlier === undefined ? `${which}: ${fix}` : `${which}: as said above for ${earlier}`;
      lines.push(...wrapped(text).map((line) => indent + style.dim(line)));
      if (earlier === undefined) said.set(fix, sharing[0]!.rule);
    }
  }
  const notes = notesByRule(report.problems);
  if (notes.length > 0) {
    if (lines.length > 0) lines.push('');
    lines.push(style.bold('Notes'));
    for (const [rule, found] of notes) {
      const [first = '', ...rest] = wrapped(`${found[0]!.message} (${found.length}): ${found.map((problem) => sanitize(problem.name)).join(', ')} [${rule}]`);
      lines.push(`  ${paint.info(LABEL.info.padEnd(LABEL_WIDTH))}${first}`, ...rest.map((line) => indent + line));
    }
  }
  if (lines.length > 0) lines.push('');
  lines.push(...wrapLines(summary(report), width));
  return `${lines.join('\n')}\n`;
}

/** The problems by record, in the order the records first come. */
function byRecord(problems: readonly Problem[]): Map<string, Problem[]> {
  const groups = new Map<string, Problem[]>();
  for (const problem of problems) {
    const group = groups.get(heading(problem));
    if (group === undefined) groups.set(heading(problem), [problem]);
    else group.push(problem);
  }
  return groups;
}

/** A record's problems by their fix, in the order the fixes first come. */
function byFix(problems: readonly Problem[]): Map<string, Problem[]> {
  const groups = new Map<string, Problem[]>();
  for (const problem of problems) {
    const group = groups.get(problem.fix);
    if (group === undefined) groups.set(problem.fix, [problem]);
    else group.push(problem);
  }
  return groups;
}

/** Notes, which ask nothing of anyone (an unused theme), told in a line per rule rather than a group per record. */
function notesByRule(problems: Problem[]): [string, Problem[]][] {
  const byRule = new Map<string, Problem[]>();
  for (const problem of problems) if (problem.severity === 'info') byRule.set(problem.rule, [...(byRule.get(problem.rule) ?? []), problem]);
  return [...byRule];
}

/** A value in a workflow command: `%`, line breaks (and in a property `:` and `,`) escaped as GitHub reads them. */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

const COMMAND: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'notice' };

/** One annotation per problem: at its line for the code rules, on the run for the others. */
export function renderGithub(report: Report): string {
  const lines = report.problems.map((problem) => {
    const where = problem.file === undefined ? '' : `file=${escapeProperty(problem.file)},line=${problem.line},col=${problem.column},`;
    const title = `title=${escapeProperty(`${problem.rule}: ${problem.kind} ${problem.name}`)}`;
    return `::${COMMAND[problem.severity]} ${where}${title}::${escapeData(`${problem.message}. Fix: ${problem.fix}`)}`;
  });
  return `${[...lines, summary(report)].join('\n')}\n`;
}

/** The whole report as a Slack message, in Block Kit's JSON. */
export function renderSlack(report: Report): string {
  return `${JSON.stringify(slackMessage('loopsctl check', bySeverity(report.problems), summary(report)), null, 2)}\n`;
}
