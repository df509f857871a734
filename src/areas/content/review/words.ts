/**
 * A review in words: the line each reported email gets in a terminal, a pull request comment
 * (`--format markdown`) and a Slack message (`--format slack`), and the sentence said when no
 * email changes. The HTML page (page.ts) shows the same emails with their pictures.
 */

import { impactCounts } from '../../../lmx/qa/finding.js';
import {
  type Block,
  escapeMarkdown,
  escapeMrkdwn,
  MAX_BLOCKS,
  MAX_SECTION_TEXT,
  markdownCode,
  mrkdwn,
  type SlackMessage,
  section,
} from '../../../render/markup.js';
import { countOf } from '../../../render/numbers.js';
import type { Aspect, Finding, Review, ReviewedEmail } from './compare.js';

export const NO_CHANGE = 'No email changes as recipients see it.';

/** GitHub refuses a comment longer than this (its API's "body is too long (maximum is 65536 characters)"). */
export const MAX_COMMENT_CHARS = 65_536;

const ASPECT_WORDS: Record<Aspect, string> = {
  body: 'body',
  subject: 'subject',
  previewText: 'preview text',
  from: 'sender',
  plainText: 'plain text',
  dataVariables: 'variables',
  node: 'sending node',
};

/** The kinds of block change, in the order their counts are said. */
const BLOCK_CHANGES = ['changed', 'added', 'removed', 'moved'] as const;

/** The blocks of a body that changed, counted by how: `1 block added, 2 changed`. */
export function blockCounts(blocks: readonly { change: string }[]): string {
  const parts = BLOCK_CHANGES.map((change) => ({ change, count: blocks.filter((block) => block.change === change).length })).filter((part) => part.count > 0);
  return parts.map((part, index) => (index === 0 ? `${countOf(part.count, 'block')} ${part.change}` : `${part.count} ${part.change}`)).join(', ');
}

/** One block that changed, in words: how (`changed`, `changed and moved`) and which (`component cmp2 ("Acme Inc · 2 Market Square")`). */
export function blockWords(block: { change: string; tag: string; componentId?: string; moved?: true; text: string }): { how: string; which: string } {
  const what = block.tag === 'Component' ? `component ${block.componentId ?? ''}`.trimEnd() : block.tag.toLowerCase();
  return { how: `${block.change}${block.moved === true ? ' and moved' : ''}`, which: `${what}${block.text === '' ? '' : ` ("${block.text}")`}` };
}

/** What changed in an email, in words: `body (1 block added, 1 changed), subject`. */
export function whatChanged(email: { change: string; changed: readonly string[]; blocks?: readonly { change: string }[] }): string {
  if (email.change !== 'changed') return email.change === 'added' ? 'new email' : 'removed';
  return email.changed
    .filter((aspect) => aspect !== 'plainText' || !email.changed.includes('body'))
    .map((aspect) =>
      aspect === 'body' && email.blocks !== undefined && email.blocks.length > 0
        ? `body (${blockCounts(email.blocks)})`
        : (ASPECT_WORDS[aspect as Aspect] ?? aspect),
    )
    .join(', ');
}

/** What changed and, when the change brings findings of `content check` (a vague link, a spam total…), their rules: `body (1 block); new findings: vague-link-text`. */
function changedAndFound(email: ReviewedEmail): string {
  const rules = [...new Set(email.findings.appeared.map((finding) => finding.rule))];
  return rules.length === 0 ? whatChanged(email) : `${whatChanged(email)}; new findings: ${rules.join(', ')}`;
}

/** The one-line summary: how many emails change, of how many. */
export function summaryOf(review: { emails: readonly { change: string }[]; unchanged: number }): string {
  if (review.emails.length === 0) return `${NO_CHANGE} (${countOf(review.unchanged, 'email')} drawn the same on both sides.)`;
  const by = (change: ReviewedEmail['change']) => review.emails.filter((email) => email.change === change).length;
  const parts = [
    by('changed') > 0 ? `${by('changed')} changed` : '',
    by('added') > 0 ? `${by('added')} added` : '',
    by('removed') > 0 ? `${by('removed')} removed` : '',
  ].filter(Boolean);
  const one = review.emails.length === 1;
  return `${countOf(review.emails.length, 'email')} ${one ? 'changes' : 'change'} as recipients see ${one ? 'it' : 'them'} (${parts.join(', ')}); ${review.unchanged} unchanged.`;
}

/**
 * The accessibility findings a change brings, counted by impact (`Accessibility findings the change
 * brings: 0 critical, 1 serious, 2 moderate, 0 mild; it removes 1.`); undefined when it brings and
 * removes none.
 */
export function accessibilityOf(review: {
  emails: readonly { findings: { appeared: readonly Finding[]; disappeared: readonly Finding[] } }[];
}): string | undefined {
  const graded = (which: 'appeared' | 'disappeared') =>
    review.emails.flatMap((email) => email.findings[which].filter((finding) => finding.impact !== undefined));
  const brought = graded('appeared');
  const removed = graded('disappeared').length;
  if (brought.length === 0 && removed === 0) return undefined;
  return `Accessibility findings the change brings: ${impactCounts(brought)}${removed === 0 ? '' : `; it removes ${removed}`}.`;
}

/**
 * The review as a pull request comment or a step summary: a table of the emails, then where the
 * HTML page is. Rows that would take it past GitHub's limit are left out and counted.
 */
export function reviewMarkdown(review: Review, page: string | undefined): string {
  const accessibility = accessibilityOf(review);
  const head = [`### Email review`, '', escapeMarkdown(summaryOf(review)), '', ...(accessibility === undefined ? [] : [escapeMarkdown(accessibility), ''])];
  const tail = [
    '',
    page === undefined ? 'Run with `--out review.html` for the before and after of each email.' : `Before and after, at 600 and 375 px: ${markdownCode(page)}`,
    `Review digest: ${markdownCode(review.digest)}`,
    '',
  ];
  if (review.emails.length === 0) return [...head, ...tail].join('\n');
  const table = ['| Email | Kind | Change | What changed |', '| --- | --- | --- | --- |'];
  let length = [...head, ...table, ...tail].join('\n').length + 200;
  let shown = 0;
  for (const email of review.emails) {
    const row = `| ${escapeMarkdown(email.name)}<br>${markdownCode(email.path, true)} | ${email.kind} | ${email.change} | ${escapeMarkdown(changedAndFound(email))} |`;
    if (length + row.length + 1 > MAX_COMMENT_CHARS) break;
    table.push(row);
    length += row.length + 1;
    shown += 1;
  }
  const cut = review.emails.length - shown;
  const note = cut === 0 ? [] : ['', `${countOf(cut, 'more email')} left out: a comment holds ${MAX_COMMENT_CHARS} characters. The HTML page lists them all.`];
  return [...head, ...table, ...note, ...tail].join('\n');
}

/** The emails a Slack message names, one line each; the others are counted. */
const MAX_SLACK_EMAILS = 40;

/** The review as a Slack message in Block Kit, for the channel where the change is approved. */
export function reviewSlack(review: Review, page: string | undefined): SlackMessage {
  const blocks: Block[] = [{ type: 'header', text: { type: 'plain_text', text: 'Email review' } }, section(escapeMrkdwn(summaryOf(review)))];
  let text = '';
  let shown = 0;
  for (const email of review.emails) {
    // A channel gets a summary: the first emails, the rest counted and left to the page.
    if (shown === MAX_SLACK_EMAILS) break;
    const line = `• *${escapeMrkdwn(email.name)}* (${email.kind}, ${email.change}): ${escapeMrkdwn(changedAndFound(email))}`;
    if (text.length + line.length + 1 > MAX_SECTION_TEXT) {
      if (blocks.length >= MAX_BLOCKS - 3) break;
      blocks.push(section(text));
      text = '';
    }
    text = text === '' ? line : `${text}\n${line}`;
    shown += 1;
  }
  if (text !== '') blocks.push(section(text));
  const notes = [
    ...(shown < review.emails.length ? [`${countOf(review.emails.length - shown, 'more email')} not shown here.`] : []),
    ...(page === undefined ? [] : [`Before and after: ${escapeMrkdwn(page)}`]),
    `Review digest: \`${review.digest}\``,
  ];
  blocks.push({ type: 'context', elements: [mrkdwn(notes.join('\n'))] });
  return { text: escapeMrkdwn(summaryOf(review)), blocks };
}
