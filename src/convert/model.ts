/**
 * What the readers of each source (MJML, React Email, HTML) hand the one mapper into LMX: a tree of
 * HTML-like elements with their places in the source, and the list of what could not be carried
 * that every step adds to. MJML's and React Email's own elements arrive under names of their own
 * (`x-button`, `x-columns`, `x-section`…), so the mapper knows each meaning once.
 */
import { LocalFileError } from '../base/errors.js';
import { EMAIL_WORDS, type EmailWord } from '../platform/record-kinds.js';

/**
 * Elements nested deeper than this are refused: no email nests so deep, and the readers and the
 * mapper walk the tree by recursion. Each reader refuses it while it parses, so that refusing a
 * hostile depth costs no more than reading the file.
 */
export const MAX_SOURCE_DEPTH = 256;

/** The refusal of markup nested past MAX_SOURCE_DEPTH, at the element that goes past it (or the file, where the place is not known). */
export function nestedTooDeep(at: Place | string): LocalFileError {
  const where = typeof at === 'string' ? at : `${at.file}:${at.line}:${at.column}`;
  return new LocalFileError(`${where}: elements nested more than ${MAX_SOURCE_DEPTH} deep`, {
    hint: 'no email nests its markup so deep: flatten it, then convert again',
  });
}

/** Where something stands in a source file, 1-based. */
export interface Place {
  file: string;
  line: number;
  column: number;
}

/** A CSS declaration list, by lower-case property. */
export type Style = Record<string, string>;

/**
 * The attribute the React reader marks an element with whose attributes it could not know, their
 * names (`src`): each computed when the app runs (a call, an environment variable), read as empty,
 * where an empty one written in a source (`src=""`) is no address at all.
 */
export const COMPUTED = 'data-computed';

/**
 * The attribute the HTML reader marks a cell with where its stylesheet's media queries make it full
 * width on a narrow screen: the widest such screen, in pixels. A row whose cells all say it stacks there.
 */
export const FULL_WIDTH_UP_TO = 'data-full-width-up-to';

/**
 * The attribute a reader marks an image with that its source shows one at a time, among others in
 * its place (a carousel's pictures, between arrows above a row of thumbnails): LMX draws each in a
 * place of its own, one under another, so none stands where the source shows it.
 */
export const SHOWN_IN_TURN = 'data-shown-in-turn';

/**
 * What a stylesheet's media queries change of an element's style on screens up to a width: the
 * declarations that hold there over its own (`set`), and its own longhands a shorthand of theirs
 * overrides (`unset`).
 */
export interface NarrowStyle {
  upTo: number;
  set: Style;
  unset: string[];
}

export interface SourceElement {
  type: 'element';
  /** An HTML element's name, or one of the mapper's own (`x-button`, `x-columns`, `x-column`, `x-section`, `x-social`, `x-spacer`, `x-component`, `x-file-start`). */
  name: string;
  attrs: Record<string, string>;
  style: Style;
  children: SourceNode[];
  at: Place;
  /** Its style on narrow screens, where an HTML stylesheet's media queries change it, widest first. */
  narrow?: NarrowStyle[];
}

export interface SourceText {
  type: 'text';
  text: string;
  at: Place;
}

/** A value the sending app fills, named by its path in the source (`user.firstName`, a React prop). */
export interface SourceVariable {
  type: 'variable';
  path: string[];
  /** As the source writes it: `{{ user.firstName }}`, `{firstName}`. */
  source: string;
  at: Place;
}

export type SourceNode = SourceElement | SourceText | SourceVariable;

/** What was done with something that could not be carried as it was. */
export type Outcome = 'dropped' | 'flattened' | 'approximated' | 'kept as text' | 'listed' | 'not carried';

export interface Remediation {
  file: string;
  line: number;
  column: number;
  /** What the source had: `a table used for content`, `{{#if}}`. */
  construct: string;
  outcome: Outcome;
  /** What was done instead, said plainly. */
  done: string;
  /** What the person does about it. */
  todo: string;
  /** The other places the entry holds for, where one stands for several (`the colours of <H2> and 2 more blocks`). */
  also?: Place[];
}

/** One measure: how many the source shows, and how many of them the LMX holds. */
export interface Measure {
  source: number;
  kept: number;
}

/** What of an email's content its LMX holds. */
export interface Fidelity {
  words: Measure;
  links: Measure;
  images: Measure;
  /** Blocks that stand and align as in the source, at 600 and 375 px (src/convert/layout/layout-compare.ts). */
  layout: Measure;
  /** Blocks that stand at the side the source draws them at (left, centred, right, full width), at 600 px. */
  positions: Measure;
  /** Text blocks drawn in the source's colours (their text's and their background), images and buttons on theirs, and links in theirs (src/convert/contrast.ts). */
  colours: Measure;
}

/** A variable of a source as it became an LMX variable. */
export interface VariableMapping {
  source: string;
  lmx: string;
  /** Why that namespace: `a contact property`, `the transactional send's data`. */
  reason: string;
}

/** The target kinds `content convert` writes. */
export const CONVERT_KINDS = EMAIL_WORDS;
export type ConvertKind = EmailWord;

/** One record written: where from, where to, and what was found on the way. */
export interface Converted {
  source: string;
  /** `workflow-file`: the workflow.yaml a workflow email's directory needed. */
  kind: ConvertKind | 'component' | 'workflow-file';
  /** The record's directory under the tree, with `/`. */
  path: string;
  /** An email's subject as written in its fields file, when it has one. */
  subject?: string;
  files: string[];
  variables: VariableMapping[];
  remediation: Remediation[];
  /** An email's: what of its source's words, links and images the LMX holds (src/convert/fidelity.ts). */
  fidelity?: Fidelity;
}

/** One conversion's findings, which each reader and the mapper add to. */
export class Findings {
  readonly remediation: Remediation[] = [];
  readonly variables = new Map<string, VariableMapping>();
  /** Fallbacks a template language's default gave, by namespace then name: they go to the message's fields. */
  readonly fallbacks: Record<'contact' | 'event' | 'data', Record<string, string>> = { contact: {}, event: {}, data: {} };
  /**
   * How the source itself writes a value that reached the mapper in a template language's spelling
   * (a React attribute's `{trackingUrl}` read as `{{trackingUrl}}`): the variable report quotes the source.
   */
  readonly spellings = new Map<string, string>();
  /**
   * The full path a variable's tag names where a block around it set its context (`{{ fullName }}`
   * inside `{{#with order.shippingAddress}}`), by the tag's place (src/convert/template-blocks.ts).
   */
  readonly scopedPaths = new Map<string, { tag: string; path: string[] }>();
  /** The places of the blocks (`{{#each}}`, `{% if %}`) listed whole, with what they held: a tag there is not listed again. */
  readonly listedBlocks = new Set<string>();
  /** The literal defaults a source gives its values (a React prop's `minutes = 30`), by the value's path. */
  readonly defaults = new Map<string, { value: string; at: Place }>();
  /** Text a reader left out of the document by a rule that lists it (a JSX condition's branch not kept): counted as not kept. */
  readonly leftOut: { text: string; at: Place }[] = [];
  /** Text the LMX holds that read in the source (3:1 or more) and does not where LMX draws it, listed: its words are counted as not kept. */
  readonly unreadable: { text: string; at: Place }[] = [];

  add(at: Place, construct: string, outcome: Outcome, done: string, todo: string, also: readonly Place[] = []): void {
    this.remediation.push({
      file: at.file,
      line: at.line,
      column: at.column,
      construct,
      outcome,
      done,
      todo,
      ...(also.length === 0 ? {} : { also: also.map(({ file, line, column }) => ({ file, line, column })) }),
    });
  }
}

export function element(name: string, at: Place, children: SourceNode[] = [], attrs: Record<string, string> = {}, style: Style = {}): SourceElement {
  return { type: 'element', name, attrs, style, children, at };
}

export function text(value: string, at: Place): SourceText {
  return { type: 'text', text: value, at };
}

/** Text cut to a length for a listing, an ellipsis where it was cut. */
export function shorten(text: string, length = 60): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}

/** The text of a node and all below it, as written (a variable as its source). */
export function textContent(node: SourceNode): string {
  if (node.type === 'text') return node.text;
  if (node.type === 'variable') return node.source;
  return node.name === 'br' ? '\n' : node.children.map(textContent).join('');
}
