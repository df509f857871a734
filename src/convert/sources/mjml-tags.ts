/**
 * MJML's tags read as MJML reads them: with htmlparser2, as MJML's own reader (mjml-parser-xml)
 * does, so white space or a line break before a tag's `>` (as Prettier lays MJML out), CRLF and
 * comments anywhere read as MJML reads them; the content of `<mj-text>`, `<mj-button>`,
 * `<mj-table>`, `<mj-raw>`… kept as the HTML up to its closing tag. A file MJML's validation would
 * refuse (an element MJML does not have, or one where MJML does not take it: its rules validTag
 * and validChildren), whose tag is never closed, or that nests its elements past the depth any
 * email has, is refused, naming the place.
 */
import { Parser } from 'htmlparser2';
import { LocalFileError } from '../../base/errors.js';
import { LineIndex } from '../../lmx/index.js';
import { type Findings, MAX_SOURCE_DEPTH, nestedTooDeep, type Place } from '../model.js';

/** An MJML tag as read: its attributes, children, and for an ending tag the HTML it holds. */
export interface MjmlTag {
  name: string;
  attrs: Record<string, string>;
  children: MjmlTag[];
  /** The content of an ending tag (mj-text…), and where it starts. */
  content?: { html: string; at: Place };
  at: Place;
  /** Attributes written more than once with different values, each value in order: MJML's reader takes the first. */
  twice?: { name: string; values: string[] }[];
}

/** The attributes of a tag written more than once with different values (`align="left" align="right"`). */
function givenTwice(given: readonly [string, string][]): MjmlTag['twice'] {
  const values = new Map<string, string[]>();
  for (const [name, value] of given) values.set(name, [...(values.get(name) ?? []), value]);
  const twice = [...values].filter(([, all]) => new Set(all).size > 1).map(([name, all]) => ({ name, values: all }));
  return twice.length === 0 ? undefined : twice;
}

/** Text between MJML's elements (`#text`): MJML shows none of it, but a template language's logic there chooses elements. */
export const TEXT = '#text';

/** Tags whose content MJML keeps as HTML. */
const ENDING_TAGS = new Set([
  'mj-text',
  'mj-button',
  'mj-table',
  'mj-raw',
  'mj-navbar-link',
  'mj-accordion-title',
  'mj-accordion-text',
  'mj-social-element',
  'mj-style',
  'mj-title',
  'mj-preview',
  'mj-carousel-image',
]);

/** The elements of MJML 4. */
const KNOWN = new Set([
  ...ENDING_TAGS,
  'mjml',
  'mj-head',
  'mj-body',
  'mj-attributes',
  'mj-all',
  'mj-class',
  'mj-breakpoint',
  'mj-font',
  'mj-html-attributes',
  'mj-html-attribute',
  'mj-selector',
  'mj-include',
  'mj-wrapper',
  'mj-section',
  'mj-group',
  'mj-column',
  'mj-image',
  'mj-divider',
  'mj-spacer',
  'mj-social',
  'mj-navbar',
  'mj-hero',
  'mj-accordion',
  'mj-accordion-element',
  'mj-carousel',
]);

/** The MJML's tags, read as MJML's own reader (mjml-parser-xml, built on htmlparser2) reads them, and checked as MJML checks them. */
export function parseMjmlTags(source: string, file: string): MjmlTag[] {
  const lines = new LineIndex(source);
  const place = (offset: number): Place => {
    const { line, column } = lines.at(offset);
    return { file, line, column };
  };
  const root: MjmlTag = { name: '#root', attrs: {}, children: [], at: place(0) };
  const open: MjmlTag[] = [root];
  // Inside an ending tag (mj-text…), everything up to its own closing tag is its HTML, as MJML keeps it.
  let ending: { tag: MjmlTag; start: number; nested: number; depth: number } | undefined;
  let problem: LocalFileError | undefined;
  // The first problem ends the reading: nothing after it is parsed (htmlparser2's work grows with the elements it holds open).
  const stop = (error: LocalFileError) => {
    problem = error;
    parser.pause();
  };
  let justOpened: MjmlTag | undefined;
  let atEnd = false;
  // Every attribute as written: htmlparser2 keeps the first of two of one name, and says nothing of the second.
  let given: [string, string][] = [];
  const parser = new Parser(
    {
      onopentagname() {
        given = [];
      },
      onattribute(name, value) {
        given.push([name, value]);
      },
      onopentag(name, attrs) {
        if (problem !== undefined) return;
        if (ending !== undefined) {
          if (name === ending.tag.name) ending.nested += 1;
          // The HTML inside counts too: the parser keeps its elements open as MJML's (htmlparser2 closes each it opens, void ones at once).
          ending.depth += 1;
          if (open.length + ending.depth > MAX_SOURCE_DEPTH) stop(nestedTooDeep(place(parser.startIndex)));
          return;
        }
        if (!KNOWN.has(name)) {
          stop(notAnElement(name, place(parser.startIndex)));
          return;
        }
        const made: MjmlTag = { name, attrs, children: [], at: place(parser.startIndex) };
        const twice = givenTwice(given);
        if (twice !== undefined) made.twice = twice;
        // Bounded as it is read: whatever walks the tags after (includes, validation, the mapper) meets no hostile depth.
        if (open.length > MAX_SOURCE_DEPTH) {
          stop(nestedTooDeep(made.at));
          return;
        }
        open.at(-1)!.children.push(made);
        open.push(made);
        justOpened = made;
        if (ENDING_TAGS.has(name)) ending = { tag: made, start: parser.endIndex + 1, nested: 0, depth: 0 };
      },
      onclosetag(name, implied) {
        if (problem !== undefined) return;
        const opened = justOpened;
        justOpened = undefined;
        if (ending !== undefined) {
          if (name !== ending.tag.name || ending.nested > 0) ending.depth -= 1;
          if (name !== ending.tag.name) return;
          if (ending.nested > 0) {
            ending.nested -= 1;
            return;
          }
        }
        const current = open.at(-1)!;
        if (current.name !== name) return;
        // A tag closed by its own `/>`, or by its closing tag; one closed only because its parent or the file ended was never closed.
        const selfClosed = implied && opened === current && source[parser.endIndex - 1] === '/';
        if (implied && !selfClosed) {
          const end = atEnd ? 'the file ends' : `the closing tag at ${place(parser.startIndex).line}:${place(parser.startIndex).column} closes its parent`;
          stop(refused(current.at, `<${name}> is never closed (${end})`, 'MJML reads all that follows as inside it: close it where it ends'));
          return;
        }
        if (ending !== undefined && !selfClosed) ending.tag.content = { html: source.slice(ending.start, parser.startIndex), at: place(ending.start) };
        ending = undefined;
        open.pop();
      },
      ontext(value) {
        if (problem !== undefined || ending !== undefined || value.trim() === '') return;
        justOpened = undefined;
        open
          .at(-1)!
          .children.push({ name: '#text', attrs: {}, children: [], at: place(parser.startIndex), content: { html: value, at: place(parser.startIndex) } });
      },
    },
    { recognizeSelfClosing: true, lowerCaseAttributeNames: false, decodeEntities: true },
  );
  parser.write(source);
  atEnd = true;
  parser.end();
  if (problem !== undefined) throw problem;
  return root.children;
}

function notAnElement(name: string, at: Place): LocalFileError {
  return refused(at, `<${name}> is not an MJML element`, `MJML's validation refuses it (rule validTag: "Element ${name} doesn't exist or is not registered")`);
}

/** Each attribute written twice with different values, listed at its tag: drawn with the first, as MJML draws it. */
export function listGivenTwice(tags: readonly MjmlTag[], findings: Findings): void {
  for (const tag of tags) {
    for (const { name, values } of tag.twice ?? [])
      findings.add(
        tag.at,
        `<${tag.name}> ${name} given twice (${values.map((value) => `"${value}"`).join(', ')})`,
        'listed',
        `read as ${name}="${values[0]}", the first, as MJML reads it`,
        'keep one of them in the source, or check the block in the LMX',
      );
    listGivenTwice(tag.children, findings);
  }
}

/** A file MJML's own validation would refuse, at its place; `hint` names MJML's rule. */
function refused(at: Place, message: string, hint: string): LocalFileError {
  return new LocalFileError(`${at.file}:${at.line}:${at.column}: ${message}`, { hint: `${hint}; fix it, then convert again` });
}

/** What MJML's elements block of an email takes (each column's and hero's content). */
const CONTENT = ['mj-accordion', 'mj-button', 'mj-carousel', 'mj-divider', 'mj-image', 'mj-navbar', 'mj-raw', 'mj-social', 'mj-spacer', 'mj-table', 'mj-text'];
const BODY = ['mj-hero', 'mj-raw', 'mj-section', 'mj-wrapper'];

/** The children each MJML element takes, as MJML's validator checks them (an element not named takes none; `#partial` is a partial several emails include in their bodies). */
const CHILDREN: Record<string, readonly string[]> = {
  mjml: ['mj-body', 'mj-head', 'mj-raw'],
  'mj-head': ['mj-attributes', 'mj-breakpoint', 'mj-font', 'mj-html-attributes', 'mj-preview', 'mj-raw', 'mj-style', 'mj-title'],
  'mj-html-attributes': ['mj-selector'],
  'mj-selector': ['mj-html-attribute'],
  'mj-body': BODY,
  '#partial': BODY,
  'mj-wrapper': ['mj-hero', 'mj-raw', 'mj-section'],
  'mj-section': ['mj-column', 'mj-group', 'mj-raw'],
  'mj-group': ['mj-column', 'mj-raw'],
  'mj-column': CONTENT,
  'mj-hero': CONTENT,
  'mj-accordion': ['mj-accordion-element', 'mj-raw'],
  'mj-accordion-element': ['mj-accordion-text', 'mj-accordion-title', 'mj-raw'],
  'mj-carousel': ['mj-carousel-image'],
  'mj-navbar': ['mj-navbar-link', 'mj-raw'],
  'mj-social': ['mj-raw', 'mj-social-element'],
};

/**
 * Refuses an element where MJML's validator would, naming its place: read elsewhere, its content
 * would be lost in silence. Includes are expanded first; `<mj-attributes>` takes any element.
 */
export function checkNesting(tags: readonly MjmlTag[], parent: string): void {
  if (parent === 'mj-attributes') return;
  for (const tag of tags) {
    // A component made of a partial stands where its include stood; text between elements is not an element.
    if (tag.name === '#component' || tag.name === TEXT) continue;
    if (!(CHILDREN[parent] ?? []).includes(tag.name)) {
      const places = Object.keys(CHILDREN).filter((name) => !name.startsWith('#') && CHILDREN[name]!.includes(tag.name));
      const shown = parent === '#partial' ? 'a partial included in <mj-body>' : `<${parent}>`;
      throw refused(
        tag.at,
        `<${tag.name}> cannot stand in ${shown}`,
        `MJML's validation refuses it (rule validChildren: "${tag.name} cannot be used inside ${parent}, only inside: ${places.join(', ')}"): put it in ${places.map((name) => `<${name}>`).join(' or ')}`,
      );
    }
    checkNesting(tag.children, tag.name);
  }
}
