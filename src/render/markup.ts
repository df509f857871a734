/**
 * Text put into another's markup: GitHub Flavored Markdown (a pull request comment, a CI step
 * summary) and Slack's mrkdwn (a Block Kit message). The names, paths and messages these views
 * show come from an account and its files, so each is passed through here to read as itself:
 * never a link, an image, a mention, HTML or formatting, and always on one line. Every Markdown
 * and Slack view of loopsctl writes its text with these.
 */
import { sanitize } from '../base/sanitize.js';

/**
 * Markdown text (a paragraph, a heading, a table's cell): every ASCII punctuation character
 * backslash-escaped, which CommonMark allows of each and reads as the character itself, so that
 * `[a](b)` and `![a](b)` are no link and no image, `<img>` no HTML, `*a*` no emphasis, `|` no
 * cell's end, and an address (`https\://`, `www\.`) no link GitHub makes of it. An `@` or a `#` is
 * followed by a zero-width space: GitHub links mentions (`@team`) and references (`#12`) in the text
 * it has rendered, where an escape is gone. Control characters and line breaks are escaped
 * (sanitize), so the text stays on its line.
 */
export function escapeMarkdown(text: string): string {
  return sanitize(text)
    .replace(/[!-/:-@[-`{-~]/g, (character) => `\\${character}`)
    .replace(/[@#]/g, (character) => `${character}\u200b`);
}

/**
 * An inline code span holding the text as it is (a path, a file name): fenced by more backticks
 * than any run of them in it, with the space CommonMark strips where it starts or ends with one.
 * In a table's cell, its pipes escaped, as GitHub's tables read `\|` even inside code.
 */
export function markdownCode(text: string, inTable = false): string {
  const shown = inTable ? sanitize(text).replace(/\|/g, '\\|') : sanitize(text);
  if (shown === '') return '';
  const longest = Math.max(0, ...[...shown.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = shown.startsWith('`') || shown.endsWith('`') || (shown.startsWith(' ') && shown.endsWith(' ') && shown.trim() !== '') ? ' ' : '';
  return `${fence}${pad}${shown}${pad}${fence}`;
}

/** A fenced code block: a fence longer than any run of backticks in the text, so nothing in it can close the block. */
export function fenced(text: string, language: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${text.endsWith('\n') ? text : `${text}\n`}${fence}`;
}

/**
 * Text in Slack's mrkdwn: `&`, `<` and `>` are its control characters, written as the entities
 * Slack's formatting reference asks for (a name such as `<!channel>` would otherwise ping a whole
 * channel, or `<https://x|y>` draw a link). Slack has no escape for its `*`, `_`, `~` and `` ` ``:
 * they may still format, never link or mention. Control characters and line breaks are escaped.
 */
export function escapeMrkdwn(text: string): string {
  return sanitize(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * A Block Kit text object in mrkdwn, verbatim: Slack then neither turns an address it finds into
 * a link nor parses `@channel` or a channel's name as a mention ("When set to false (as is
 * default) URLs will be auto-converted into links, conversation names will be link-ified, and
 * certain mentions will be automatically parsed"), so only what loopsctl writes as `<…>` links.
 */
export function mrkdwn(text: string): MrkdwnText {
  return { type: 'mrkdwn', text, verbatim: true };
}

/** Slack's limits (https://api.slack.com/reference/block-kit/blocks): 50 blocks a message, 3,000 characters a section's text, 150 a header's. */
export const MAX_BLOCKS = 50;
export const MAX_SECTION_TEXT = 3000;
export const MAX_HEADER_TEXT = 150;

export type MrkdwnText = { type: 'mrkdwn'; text: string; verbatim: true };
export type Text = { type: 'plain_text'; text: string } | MrkdwnText;
export type Block = { type: 'header'; text: Text } | { type: 'section'; text: Text } | { type: 'context'; elements: Text[] };

export interface SlackMessage {
  /** What a notification shows where blocks are not drawn. */
  text: string;
  blocks: Block[];
}

/** A section of mrkdwn text. */
export function section(text: string): Block {
  return { type: 'section', text: mrkdwn(text) };
}
