/**
 * A check's report as a Slack message in Block Kit (`check --format slack`, and what `--notify`
 * posts): a header, then a section per severity with its findings. Slack refuses a message past
 * its limits (render/markup.ts), so a long severity continues in further sections, and what does
 * not fit in 50 blocks is cut and counted in the last one.
 */
import { sanitize } from '../../base/sanitize.js';
import { type Block, escapeMrkdwn, MAX_BLOCKS, MAX_HEADER_TEXT, MAX_SECTION_TEXT, mrkdwn, type SlackMessage, section } from '../../render/markup.js';
import { countOf } from '../../render/numbers.js';
import type { Problem, Severity } from './records.js';

/** A group of findings under one title: a severity's, or those resolved since the last run. */
export interface SlackGroup {
  title: string;
  problems: readonly Problem[];
}

/** Text cut to a length, ending in an ellipsis when cut. */
function clip(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}

const TITLE: Record<Severity, string> = { error: 'Errors', warning: 'Warnings', info: 'Notes' };

/** The severities' groups of a report, the ones with findings, errors first. */
export function bySeverity(problems: readonly Problem[]): SlackGroup[] {
  return (['error', 'warning', 'info'] as const)
    .map((severity) => ({ title: TITLE[severity], problems: problems.filter((problem) => problem.severity === severity) }))
    .filter((group) => group.problems.length > 0);
}

function line(problem: Problem): string {
  const name = `"${escapeMrkdwn(problem.name)}"`;
  // A link's address is the app's, never text read from the account, so it is only escaped.
  const record = problem.url === undefined ? name : `<${escapeMrkdwn(problem.url)}|${name}>`;
  const at = problem.file === undefined ? '' : ` ${escapeMrkdwn(problem.file)}:${problem.line}:`;
  return clip(`• ${problem.kind} ${record}${at} ${escapeMrkdwn(problem.message)} \`${problem.rule}\``, MAX_SECTION_TEXT - 100);
}

/** A group's sections: its title, then its findings, each section under Slack's length. */
function sections(group: SlackGroup): { block: Block; shown: number }[] {
  const out: { block: Block; shown: number }[] = [];
  let text = `*${group.title} (${group.problems.length})*`;
  let shown = 0;
  for (const problem of group.problems) {
    const next = line(problem);
    if (text.length + 1 + next.length > MAX_SECTION_TEXT) {
      out.push({ block: section(text), shown });
      text = next;
      shown = 1;
    } else {
      text = `${text}\n${next}`;
      shown += 1;
    }
  }
  out.push({ block: section(text), shown });
  return out;
}

/** The message: the header, each group's sections while they fit, and a last line saying what was cut. */
export function slackMessage(heading: string, groups: readonly SlackGroup[], summary: string): SlackMessage {
  const blocks: Block[] = [
    { type: 'header', text: { type: 'plain_text', text: clip(sanitize(heading), MAX_HEADER_TEXT) } },
    section(clip(escapeMrkdwn(summary), MAX_SECTION_TEXT)),
  ];
  const total = groups.reduce((sum, group) => sum + group.problems.length, 0);
  let shown = 0;
  // One block is kept for the line that says what was cut.
  const all = groups.flatMap(sections);
  for (const [index, part] of all.entries()) {
    const room = index === all.length - 1 ? MAX_BLOCKS : MAX_BLOCKS - 1;
    if (blocks.length >= room) break;
    blocks.push(part.block);
    shown += part.shown;
  }
  if (shown < total) {
    const cut = `${countOf(total - shown, 'more finding')} not shown: Slack takes ${MAX_BLOCKS} blocks a message. Run \`loopsctl check\` for all of them.`;
    blocks.push({ type: 'context', elements: [mrkdwn(cut)] });
  }
  return { text: clip(escapeMrkdwn(heading), MAX_SECTION_TEXT), blocks };
}
