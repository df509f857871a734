/**
 * The template tags of other languages read in a text: Handlebars, Liquid, Jinja and Django (`{{x}}`,
 * `{{ customer.x }}`, `{% if %}`), Mailchimp's merge tags (`*|FNAME|*`), Campaign Monitor's and the
 * other providers' tags, and Loops' own editor syntax; each variable named in LMX by
 * variable-names.ts. Logic (conditionals, loops, filters, helpers) has no LMX form: its tags are
 * listed, and the text around them kept.
 */
import type { ConvertKind, Findings, Place } from './model.js';
import { mapVariable, type Namespace } from './variable-names.js';

/** A piece of inline content: text, or an LMX variable (`data.resetLink`). */
export type Piece = { text: string } | { variable: string };

/** What a link to a page Loops gives every email itself is told: nothing to do. */
export const LOOPS_ADDS_THE_PAGES = 'Loops adds the unsubscribe link (and the preferences page) to every email itself: nothing to do';

/**
 * The tags other providers fill with a page of their own that Loops gives every email itself (the
 * unsubscribe link, the preferences page), as each documents them: Postmark's unsubscribe placeholder
 * (`{{{ pm:unsubscribe }}}`), SendGrid's unsubscribe group tags (`<%asm_global_unsubscribe_raw_url%>`,
 * `<%asm_preferences_raw_url%>`), Mailgun's unsubscribe variables (`%unsubscribe_url%`,
 * `%tag_unsubscribe_url%`, `%mailing_list_unsubscribe_url%`) and Dittofeed's Liquid tags
 * (`{% unsubscribe_link %}`, `{% unsubscribe_url %}`).
 */
export const PROVIDER_PAGE = String.raw`\{\{\{\s*pm:unsubscribe\b[^}]*\}\}\}|\{%-?\s*unsubscribe_(?:url|link)\s*-?%\}|<%\s*asm_(?:global_unsubscribe|group_unsubscribe|preferences)(?:_raw)?_url\s*%>|%(?:tag_|mailing_list_)?unsubscribe_url%`;

/**
 * Template tags in text: `{{…}}` and `{{{…}}}`, `{%…%}`, `{#…#}`, Mailchimp's `*|…|*`,
 * Campaign Monitor's personalisation tags (`[firstname,fallback=there]`, `[email]`: a custom
 * field's only where it gives a fallback, as a word in brackets is more often text), and a name in
 * one pair of braces as Loops' own editor and MJML write a variable (`{resetLink}`,
 * `{DATA_VARIABLE:resetLink}`, LMX's `{contact.firstName}`, with another syntax's fallback after
 * it): what LMX would read as a variable, and refuse unless its namespace is the email's; and
 * the providers' own pages (PROVIDER_PAGE).
 */
export const TEMPLATE_TAG = new RegExp(
  String.raw`\[\[([A-Za-z][\w]*)\]\]|\{\{\{([\s\S]*?)\}\}\}|\{\{([\s\S]*?)\}\}|\{%-?([\s\S]*?)-?%\}|\{#([\s\S]*?)#\}|\*\|([^|*]*?)\|\*|\[((?:firstname|lastname|fullname|email)(?=[,\]])|[A-Za-z][\w]*(?=,\s*fallback=))(?:,\s*fallback=([^\]]*))?\]|\{(DATA_VARIABLE:[\w-]+|[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*)\}|\{\s*((?:contact|event|data)\.[\w-]+)\s*(?:(?:\?\?|\|\||[|:,])\s*([^{}<]*?)\s*)?\}|(${PROVIDER_PAGE})`,
  'gi',
);

/**
 * What LMX reads as a variable that no tag above is: a brace, a run of no spaces and a brace
 * (`{x:y}`, `{price/2}`), which it refuses as one with no namespace or a name it does not know.
 */
const VARIABLE_LIKE = /\{(?=[A-Za-z_][^\s{}<>&"']*\})/g;
/** Whether a text holds a template tag. */
export function holdsTemplateTag(value: string): boolean {
  TEMPLATE_TAG.lastIndex = 0;
  const found = TEMPLATE_TAG.test(value);
  TEMPLATE_TAG.lastIndex = 0;
  return found;
}
const PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\[\d+\])*$/;
/**
 * A helper whose call is a variable with a default: SendGrid's `{{insert name "default=Customer"}}`
 * (its dynamic templates' helper for a value that may be missing) and handlebars-helpers'
 * `{{default title "No title"}}`.
 */
const DEFAULT_HELPER = /^(?:insert\s+([A-Za-z_$][\w$.]*)(?:\s+"default=([^"]*)")?|default\s+([A-Za-z_$][\w$.]*)\s+(["'])(.*)\4)$/;

/** What a block of a template language does to the text it holds: LMX has no loops and no conditions. */
export type BlockKind = 'loop' | 'condition' | 'context' | 'section' | 'inverted' | 'block';

/** A tag that opens a block, stands between its branches, or closes it: `{{#each items}}`, `{{else}}`, `{% endfor %}`, `*|END:IF|*`. */
export interface BlockTag {
  role: 'open' | 'branch' | 'close';
  kind: BlockKind;
  /** The block's name as its closing tag names it: `each`, `if`, `for`, a Mustache section's `items`. */
  name: string;
  /** What the opening tag takes: `order.shippingAddress`, `item in items`. */
  argument: string;
}

const LOOPS = new Set(['each', 'for', 'tablerow']);
const CONDITIONS = new Set(['if', 'unless', 'case']);

/** A `{{…}}` or `{{{…}}}` tag's expression; Handlebars' white space control (`{{~#if x~}}`) changes nothing here. */
export function tagExpression(match: RegExpMatchArray): string {
  const [, , triple, double] = match;
  return (triple ?? double ?? '').trim().replace(/^~|~$/g, '').trim();
}

/** The block a tag opens, divides or closes, or undefined for any other tag. */
export function blockTagOf(match: RegExpMatchArray): BlockTag | undefined {
  const [, , , , statement, , merge] = match;
  if (merge !== undefined) {
    const name = merge.trim();
    const open = /^(IF|IFNOT|INTERESTED):(.*)$/i.exec(name);
    if (open !== null)
      return { role: 'open', kind: 'condition', name: open[1]!.toUpperCase() === 'INTERESTED' ? 'INTERESTED' : 'IF', argument: open[2]!.trim() };
    if (/^(ELSE:?|ELSEIF:.*)$/i.test(name)) return { role: 'branch', kind: 'condition', name: 'IF', argument: '' };
    const close = /^END:(IF|INTERESTED)$/i.exec(name);
    return close === null ? undefined : { role: 'close', kind: 'condition', name: close[1]!.toUpperCase(), argument: '' };
  }
  if (statement !== undefined) {
    const [word = '', ...rest] = statement.trim().split(/\s+/);
    const argument = rest.join(' ');
    if (/^(else|elif|elsif|when)$/.test(word)) return { role: 'branch', kind: 'condition', name: '', argument };
    if (/^end\w+$/.test(word)) return { role: 'close', kind: 'block', name: word.slice(3), argument: '' };
    if (LOOPS.has(word)) return { role: 'open', kind: 'loop', name: word, argument };
    if (CONDITIONS.has(word)) return { role: 'open', kind: 'condition', name: word, argument };
    return /^(with|block|macro)$/.test(word) ? { role: 'open', kind: 'block', name: word, argument } : undefined;
  }
  const expression = tagExpression(match);
  if (expression === '^' || /^else\b/.test(expression)) return { role: 'branch', kind: 'condition', name: '', argument: expression.slice(4).trim() };
  const tag = /^([#^/])\s*([A-Za-z_$][\w$.-]*)\s*([\s\S]*)$/.exec(expression);
  if (tag === null) return undefined;
  const [, sign, name, argument = ''] = tag as unknown as [string, string, string, string];
  if (sign === '/') return { role: 'close', kind: 'block', name, argument: '' };
  if (sign === '^') return { role: 'open', kind: 'inverted', name, argument: '' };
  const kind: BlockKind = LOOPS.has(name) ? 'loop' : CONDITIONS.has(name) ? 'condition' : name === 'with' ? 'context' : argument === '' ? 'section' : 'block';
  return { role: 'open', kind, name, argument: argument.trim() };
}

/**
 * What convert did with a block, as listed at its opening tag: its tags dropped, its text kept once
 * (every branch of a condition). `words` and `branches` where the whole block was read.
 */
export function blockListing(
  block: BlockTag,
  read?: { words: number; variables: number; elements: number; branches: number; closed: boolean; path?: string },
): { done: string; todo: string } {
  // Tags with nothing between them stood where HTML keeps no text (between a table's rows): a browser, and so convert, reads them before the table.
  if (read?.closed && read.words + read.variables + read.elements === 0)
    return {
      done: `the ${block.kind === 'loop' ? 'loop' : 'block'} dropped: its tags stood where HTML keeps no text (between a table's rows), so what it enclosed is not known; the rows around it are kept once`,
      todo: 'check the rows in the LMX against the template: send what repeats or varies as one data variable the app builds',
    };
  const count = (number: number, noun: string) => `${number} ${noun}${number === 1 ? '' : 's'}`;
  const words = read === undefined ? '' : ` (${count(read.words, 'word')}${read.variables === 0 ? '' : `, ${count(read.variables, 'variable')}`})`;
  const unclosed = read === undefined || read.closed ? '' : '; it is never closed, so it was read to the end of the email';
  const choice = 'move the choice to the sender: send the text as a data variable, or send one email per case';
  const todo = {
    loop: 'send the repeated part as one data variable the app builds, or make it a component',
    condition: choice,
    context: 'send each value under the name the LMX gives it',
    section: 'send the text as a data variable the app builds (one per case), or send one email per case',
    inverted: choice,
    block: 'compute what the block makes in the app and send it as a data variable',
  }[block.kind];
  const branches = read?.branches ?? 0;
  const done = {
    loop: `the loop dropped: its body${words} kept once, as written, for however many items are sent${branches > 1 ? ', and the text for an empty list after it' : ''}`,
    condition:
      branches > 1
        ? `the condition dropped: all ${branches} branches${words} kept, one after another`
        : `the condition dropped: its text${words} kept, shown whether or not the condition holds`,
    context: `the block dropped: its text${words} kept, each variable in it named by its full path${read?.path === undefined ? '' : ` (${read.path}.…)`}`,
    section: `the section dropped: its text${words} kept once, where Mustache shows it once per item, or not at all for an empty value`,
    inverted: `the inverted section dropped: its text${words} kept, though it shows only where "${block.name}" is empty or false`,
    block: `the block "${block.name}" dropped: its text${words} kept once, as written`,
  }[block.kind];
  return { done: done + unclosed, todo };
}

/** The logic of a template language in a text: each condition's, loop's or context block's opening tag, and each partial, at its place. */
export function templateLogic(value: string, at: Place): { at: Place; tag: string; kind: 'condition' | 'loop' | 'context' | 'partial' }[] {
  const found: { at: Place; tag: string; kind: 'condition' | 'loop' | 'context' | 'partial' }[] = [];
  for (const match of value.matchAll(TEMPLATE_TAG)) {
    const [whole, , triple, double, statement] = match;
    const block = blockTagOf(match);
    const kind =
      block !== undefined
        ? block.role !== 'open'
          ? undefined
          : block.kind === 'loop' || block.kind === 'context'
            ? block.kind
            : 'condition'
        : /^>|^(include|render)\b/.test((triple ?? double ?? statement ?? '').trim())
          ? 'partial'
          : undefined;
    if (kind !== undefined) found.push({ at: placeAt(at, value, match.index), tag: whole, kind });
  }
  return found;
}

/** Words as a reader counts them: letters and digits, template tags left out (the fidelity line counts so). */
export const readerWords = (value: string) =>
  value
    .replace(TEMPLATE_TAG, ' ')
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu) ?? [];

/** A place as a key: `file:line:column`. */
export const placeKey = (at: Place) => `${at.file}:${at.line}:${at.column}`;

/** The place of an offset in a text that starts at `at`. */
export function placeAt(at: Place, text: string, offset: number): Place {
  const before = text.slice(0, offset);
  const lines = before.split('\n');
  return lines.length === 1 ? { ...at, column: at.column + offset } : { file: at.file, line: at.line + lines.length - 1, column: lines.at(-1)!.length + 1 };
}

/**
 * A text of the source split into text and LMX variables. Each tag that is not a plain variable
 * is listed: logic dropped with its text kept, a filter dropped (a default becomes the message's
 * fallback), anything else kept as written.
 */
export function templatePieces(value: string, at: Place, kind: ConvertKind, findings: Findings): Piece[] {
  const pieces: Piece[] = [];
  // Whether the text so far ends where tags were dropped: a comma or stop after them takes no space before it.
  let dropped = false;
  const text = (from: number, to: number) => {
    let written = unreadAsVariable(value, from, to, at, findings);
    if (dropped && /^\s*[,.;:!?)]/.test(written)) {
      // "Copyright © *|CURRENT_YEAR|* *|LIST:COMPANY|*, All rights reserved." is "Copyright ©, All rights reserved."
      while (pieces.length > 0 && 'text' in pieces.at(-1)! && (pieces.at(-1) as { text: string }).text.trim() === '') pieces.pop();
      const before = pieces.at(-1);
      if (before !== undefined && 'text' in before) before.text = before.text.trimEnd();
      written = written.trimStart();
    }
    pieces.push({ text: written });
    dropped = false;
  };
  let last = 0;
  for (const match of value.matchAll(TEMPLATE_TAG)) {
    if (match.index > last) text(last, match.index);
    last = match.index + match[0].length;
    const place = placeAt(at, value, match.index);
    const piece = tagPiece(match, place, kind, findings);
    dropped = piece === undefined;
    if (piece !== undefined) pieces.push(piece);
    // Two branches both kept read as two sentences, not one word: "Paid.{{else}}Due." is "Paid. Due."
    else if (blockTagOf(match)?.role === 'branch' && /\S$/.test(value.slice(0, match.index)) && /^\S/.test(value.slice(last))) pieces.push({ text: ' ' });
  }
  if (last < value.length) text(last, value.length);
  return pieces;
}

/**
 * Text that LMX would read as a variable and refuse (`{x:y}`), kept as the text it is: a space
 * after its opening brace, which LMX shows as written. Listed, as the text changed.
 */
function unreadAsVariable(value: string, from: number, to: number, at: Place, findings: Findings): string {
  const text = value.slice(from, to);
  if (!text.includes('{')) return text;
  return text.replace(VARIABLE_LIKE, (brace, offset: number) => {
    const written = /^\{[^}]*\}/.exec(text.slice(offset))![0];
    findings.add(
      placeAt(at, value, from + offset),
      written,
      'approximated',
      `written with a space after its opening brace: LMX reads a name in braces as a variable, and ${written} is none`,
      'write the text another way, or make it a variable the email is sent with',
    );
    return `${brace} `;
  });
}

/** A name in one pair of braces (`{resetLink}`, `{DATA_VARIABLE:x}`, `{contact.firstName | there}`) made the email's variable. */
function bracedVariable(whole: string, name: string, fallback: string | undefined, at: Place, kind: ConvertKind, findings: Findings): Piece {
  // `{DATA_VARIABLE:x}`, the one prefix the specification names, is a transactional email's data variable.
  const prefixed = name.split(':')[1];
  const path = prefixed === undefined ? name.split('.') : ['data', prefixed];
  const variable = mapVariable(findings, path, whole, kind, at);
  const text = fallback?.replace(/^(["'])(.*)\1$/, '$2');
  if (text !== undefined && text !== '') noteFallback(variable, text, whole, at, findings);
  return { variable };
}

function tagPiece(match: RegExpMatchArray, at: Place, kind: ConvertKind, findings: Findings): Piece | undefined {
  const [whole, placeholder, triple, double, statement, comment, merge, field, fallback, braced, loose, looseFallback, providerPage] = match;
  if (braced !== undefined || loose !== undefined) return bracedVariable(whole, (braced ?? loose)!, looseFallback, at, kind, findings);
  // Postmark's placeholder is written in three braces and Dittofeed's as a statement, read as such before the providers' pages are.
  if (providerPage !== undefined || /^\s*pm:unsubscribe\b/i.test(triple ?? '') || /^-?\s*unsubscribe_(?:url|link)\s*-?$/.test(statement ?? '')) {
    findings.add(at, whole, 'dropped', 'the tag dropped', LOOPS_ADDS_THE_PAGES);
    return undefined;
  }
  if (field !== undefined) {
    const variable = mapVariable(findings, [field], whole, kind, at, true);
    if (fallback !== undefined && fallback.trim() !== '') noteFallback(variable, fallback.trim(), whole, at, findings);
    return { variable };
  }
  if (placeholder !== undefined) {
    findings.add(
      at,
      whole,
      'kept as text',
      'the placeholder left as written',
      'a placeholder another provider fills when it sends (Mailjet’s [[…]]): write the text out, or send it as a variable',
    );
    return { text: whole };
  }
  const block = blockTagOf(match);
  if (block !== undefined) {
    // A block in the email's text is listed whole, with what it held (src/convert/template-blocks.ts); elsewhere (an address, a subject) here.
    if (block.role === 'open' && !findings.listedBlocks.has(placeKey(at))) {
      const { done, todo } = blockListing(block);
      findings.add(at, whole, 'flattened', done, todo);
    }
    return undefined;
  }
  if (merge !== undefined) return mergeTag(whole, merge.trim(), at, kind, findings);
  if (comment !== undefined) return undefined;
  const expression = (triple ?? double ?? statement ?? '').trim();
  if (expression.startsWith('!')) return undefined;
  if (expression.startsWith('>')) {
    findings.add(at, whole, 'kept as text', 'the partial left as written', 'make the partial a component and embed it with <Component>');
    return { text: whole };
  }
  if (statement !== undefined) {
    findings.add(at, whole, 'dropped', 'the statement dropped', 'LMX has no statements: compute the value in the app and send it as a variable');
    return undefined;
  }
  const helped = DEFAULT_HELPER.exec(expression);
  if (helped !== null) {
    const [, insertPath, insertDefault, defaultPath, , defaultValue] = helped;
    const variable = mapVariable(findings, (insertPath ?? defaultPath)!.split('.'), whole, kind, at);
    const value = insertDefault ?? defaultValue;
    if (value !== undefined && value !== '') noteFallback(variable, value, whole, at, findings);
    return { variable };
  }
  const [head, ...filters] = expression.split('|').map((part) => part.trim());
  // A variable inside a block that sets its context (`{{#with}}`) has its full path from there.
  const scoped = findings.scopedPaths.get(placeKey(at));
  const fullPath = scoped?.tag === whole ? scoped.path : undefined;
  if (fullPath === undefined && !PATH.test(head ?? '')) {
    findings.add(at, whole, 'kept as text', 'the expression left as written', 'compute the value in the app and send it as one variable');
    return { text: whole };
  }
  const path = fullPath ?? head!.replace(/\[\d+\]/g, '').split('.');
  const variable = mapVariable(findings, path, whole, kind, at);
  for (const filter of filters) {
    // Liquid's `default: "there"`, and a quoted default alone (`{{ first_name | "there" }}`).
    const fallback = /^(?:default\s*:?\s*)?(["'])(.*)\1$/.exec(filter);
    if (fallback !== null) noteFallback(variable, fallback[2]!, whole, at, findings);
    else {
      findings.add(
        at,
        whole,
        'dropped',
        `the filter "${filter}" dropped: {${variable}} shows the value as sent`,
        'apply the filter in the app before sending the value',
      );
    }
  }
  return { variable };
}

/** A template's default for a variable, made the message's fallback for it, and listed. */
function noteFallback(variable: string, value: string, whole: string, at: Place, findings: Findings): void {
  const [namespace, name] = variable.split('.') as [Namespace, string];
  findings.fallbacks[namespace][name] = value;
  findings.add(
    at,
    whole,
    'approximated',
    `the default "${value}" became the message's fallback for {${variable}}`,
    namespace === 'data' ? 'mark the data variable optional in the editor, or always send it' : 'check the fallback in the message fields',
  );
}

/** Mailchimp's merge tags: `*|FNAME|*` is a contact property; `*|IF:…|*` and friends are logic; the rest (`*|UNSUB|*`) are the platform's own. */
function mergeTag(whole: string, name: string, at: Place, kind: ConvertKind, findings: Findings): Piece | undefined {
  if (/^(UNSUB|UPDATE_PROFILE|ARCHIVE|LIST:|MC:|MC_PREVIEW_TEXT|REWARDS|HTML:|ABOUT_LIST|FORWARD|CURRENT_YEAR|DATE:)/i.test(name)) {
    findings.add(
      at,
      whole,
      'dropped',
      'the merge tag dropped',
      /^(MC:|MC_PREVIEW_TEXT|CURRENT_YEAR|DATE:)/i.test(name)
        ? 'Loops fills no such value: write it out (the subject or preview text in the fields file, or --subject), or send it as a variable'
        : 'Loops adds the unsubscribe link and the postal address to every email itself: nothing to do',
    );
    return undefined;
  }
  if (!/^[A-Za-z][\w]*$/.test(name)) {
    findings.add(at, whole, 'kept as text', 'the merge tag left as written', 'write the value out, or send it as a variable');
    return { text: whole };
  }
  return { variable: mapVariable(findings, [name], whole, kind, at, true) };
}
