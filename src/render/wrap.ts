/**
 * Text wrapped to a width at word boundaries, for help text and long values on a terminal. Line
 * breaks already in the text are kept, and each line's continuation lines keep that line's
 * indentation, so an indented example or list item stays indented when it wraps. Spacing inside a
 * line is kept as written; only the spaces at a break are dropped. A word longer than a line (a
 * URL, an id) is never cut: it gets a line of its own, so it can still be copied whole.
 */
import { isPrintableAscii, paintedWidth } from './width.js';

/**
 * Help as written in the source, its prose lines joined: a line at the margin carries on the line
 * before it, unless that one is blank, indented, or ends with a colon (what follows is a list).
 * So prose wraps at the terminal's width instead of also breaking where the source's lines did,
 * which left a few words stranded on a line of their own, while indented lines (examples, lists,
 * tables of keys) keep their own lines.
 */
export function joinProseLines(text: string): string {
  const joined: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const previous = joined.at(-1);
    if (previous !== undefined && /^\S/.test(line) && /^\S/.test(previous) && !previous.endsWith(':')) joined[joined.length - 1] = `${previous} ${line}`;
    else joined.push(line);
  }
  return joined.join('\n');
}

/** The lines of `text` wrapped to `width` columns. */
export function wrapLines(text: string, width: number): string[] {
  const wrapped: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const indent = /^[ \t]*/.exec(line)![0];
    const chunks = line.slice(indent.length).match(/\s*\S+/g);
    if (chunks === null) {
      wrapped.push('');
      continue;
    }
    const room = Math.max(width - indent.length, 1);
    // Help is plain ASCII: its words are measured by their length, without a pattern each.
    const measure = isPrintableAscii(line) ? (word: string) => word.length : paintedWidth;
    let current = '';
    let used = 0;
    for (const chunk of chunks) {
      const word = chunk.trimStart();
      const wordWidth = measure(word);
      const spacing = chunk.length - word.length;
      if (current !== '' && used + spacing + wordWidth > room) {
        wrapped.push(indent + current);
        current = '';
      }
      // The spacing before a word is kept when the word stays on the line.
      if (current === '') {
        current = word;
        used = wordWidth;
      } else {
        current += chunk;
        used += spacing + wordWidth;
      }
    }
    wrapped.push(indent + current);
  }
  return wrapped;
}

/**
 * `text` wrapped to `width` columns. Its signature fits commander's Help.boxWrap, so help can be
 * wrapped to the terminal with `configureHelp({ helpWidth: columns, boxWrap: wrapText })`.
 */
export function wrapText(text: string, width: number): string {
  return wrapLines(text, width).join('\n');
}
