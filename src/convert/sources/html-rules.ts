/**
 * An HTML email's `<style>` read into the rules a browser applies to it as a recipient sees it: the
 * rules for every screen, those of its `max-width` media queries (a phone's) and of its `min-width`
 * ones that hold on a screen as wide as the email (a desktop's, not a phone's), each selector with
 * its specificity (Selectors Level 4), its declarations with their importance, in the order the
 * stylesheets give them. postcss reads the CSS and css-what each selector, as their standards
 * define them. What a recipient's client never draws from a message at rest (a pointer's hover and
 * focus, a pseudo-element's generated box) and the rules of other media (print, dark mode, screens
 * wider than the email) are counted, not read.
 */
import { parse as parseSelector, type Selector } from 'css-what';
import { type AtRule, type ChildNode, parse, type Rule } from 'postcss';
import type { Declared } from '../styles.js';

/** The widths, in pixels, a media query of a screen's width alone names (`only screen and (max-width: 596px)`), one for each query of a list; undefined for any other query. */
function widthsOf(query: string, bound: 'max' | 'min'): number[] | undefined {
  const widths: number[] = [];
  for (const part of query.split(',')) {
    const match = new RegExp(
      `^\\s*(?:(?:only\\s+)?(?:screen|all)\\s+and\\s+)?\\(\\s*${bound}-(?:device-)?width\\s*:\\s*(\\d+(?:\\.\\d+)?)(px|em|rem)?\\s*\\)\\s*$`,
      'i',
    ).exec(part);
    if (match === null) return undefined;
    widths.push(Number(match[1]) * (match[2] === undefined || match[2].toLowerCase() === 'px' ? 1 : 16));
  }
  return widths;
}

/** A media query of a screen's width alone (`only screen and (max-width: 596px)`), one or more of them: the widest it names, in pixels. */
export function maxWidthOf(query: string): number | undefined {
  const widths = widthsOf(query, 'max');
  return widths === undefined ? undefined : Math.max(...widths);
}

/** A media query of a screen's width from a size up (`(min-width: 480px)`), one or more of them: the narrowest screen it holds on, in pixels. */
export function minWidthOf(query: string): number | undefined {
  const widths = widthsOf(query, 'min');
  return widths === undefined ? undefined : Math.min(...widths);
}

/** The width an email is drawn at on a desktop (LMX's body, the layout model's wide screen): a `min-width` query up to it holds there. */
export const DESKTOP_WIDTH = 600;

/** One selector of a rule (a rule of several is an entry each, since each has its own specificity) and what the rule declares. */
export interface StyleRule {
  selector: string;
  /** Specificity as one number: ids by the million, classes, attributes and pseudo-classes by the thousand, elements by one. */
  specificity: number;
  declarations: Declared[];
  /** The widest screen its media query holds on; none for a rule of every screen. */
  upTo?: number;
  /** The narrowest screen its `min-width` media query holds on: a desktop's rule, which a phone narrower than that does not draw. */
  from?: number;
  sheet: number;
  /** Its place among every stylesheet's rules, which decides between rules of equal weight. */
  order: number;
}

/** A stylesheet's rules that convert applies, and how many of its rules it passes over (none of them drawn in a message at rest). */
export interface Stylesheet {
  rules: StyleRule[];
  passedOver: number;
}

/**
 * Pseudo-classes of a state a message at rest is never in: a rule of them draws nothing a recipient
 * sees on opening it; and `:has()`, which tests every element below each one, as a client that
 * cannot afford it would not.
 */
const NOT_READ: ReadonlySet<string> = new Set(['hover', 'focus', 'focus-within', 'focus-visible', 'active', 'visited', 'target', 'has']);

/** `:is()` and `:not()` weigh as their most specific argument; `:where()` as nothing. */
const WEIGHED_BY_ARGUMENT: ReadonlySet<string> = new Set(['is', 'not', 'matches', '-webkit-any', '-moz-any']);

/** A selector's specificity; undefined for one a message at rest never matches, or that names a pseudo-element. */
function specificityOf(tokens: readonly Selector[]): number | undefined {
  let weight = 0;
  for (const token of tokens) {
    if (token.type === 'pseudo-element') return undefined;
    if (token.type === 'tag') weight += 1;
    else if (token.type === 'attribute')
      // css-what marks `#id` and `.class`, which a document in quirks mode matches ignoring case, from `[id=…]` and `[class~=…]`.
      weight += token.name === 'id' && token.action === 'equals' && token.ignoreCase === 'quirks' ? 1_000_000 : 1_000;
    else if (token.type === 'pseudo') {
      if (NOT_READ.has(token.name)) return undefined;
      if (token.name === 'where') continue;
      if (WEIGHED_BY_ARGUMENT.has(token.name) && Array.isArray(token.data)) {
        const weights = token.data.map(specificityOf);
        if (weights.some((each) => each === undefined)) return undefined;
        weight += Math.max(0, ...(weights as number[]));
      } else weight += 1_000;
    }
  }
  return weight;
}

/** A rule's selectors as entries, each with its specificity; undefined for those a message at rest never matches or a reader cannot parse. */
function selectorsOf(rule: Rule): { selector: string; specificity: number | undefined }[] {
  let parsed: Selector[][];
  try {
    parsed = parseSelector(rule.selector);
  } catch {
    return [{ selector: rule.selector, specificity: undefined }];
  }
  return rule.selectors.map((selector, index) => ({ selector, specificity: parsed[index] === undefined ? undefined : specificityOf(parsed[index]) }));
}

/**
 * The rules a stylesheet gives in dark mode (`@media (prefers-color-scheme: dark)`), as a
 * stylesheet of their own: laid after the others, they are what a client in dark mode draws with.
 * Empty when it has none, or cannot be read.
 */
export function darkModeRules(css: string): string {
  let root: ReturnType<typeof parse>;
  try {
    root = parse(css);
  } catch {
    return '';
  }
  const dark: string[] = [];
  root.walkAtRules(/^media$/i, (media) => {
    if (/prefers-color-scheme\s*:\s*dark/i.test(media.params)) dark.push(...(media.nodes ?? []).map((node) => node.toString()));
  });
  return dark.join('\n');
}

/** One stylesheet's rules, numbered from `first`. A stylesheet a browser would read only in part gives none: its `<style>` stays listed as dropped. */
export function readStylesheet(css: string, sheet: number, first: number): Stylesheet {
  let root: ReturnType<typeof parse>;
  try {
    root = parse(css);
  } catch {
    return { rules: [], passedOver: 0 };
  }
  const read: Stylesheet = { rules: [], passedOver: 0 };
  const take = (node: ChildNode, upTo: number | undefined, from: number | undefined) => {
    if (node.type === 'atrule') {
      const media = node as AtRule;
      const outermost = media.name.toLowerCase() === 'media' && upTo === undefined && from === undefined;
      const width = outermost ? maxWidthOf(media.params) : undefined;
      const wider = outermost ? minWidthOf(media.params) : undefined;
      if (width !== undefined) media.each((child) => take(child, width, undefined));
      // A desktop's rule (the twin of a phone's `.mobile-only { display: none }`): a recipient at the email's width draws it.
      else if (wider !== undefined && wider <= DESKTOP_WIDTH) media.each((child) => take(child, undefined, wider));
      // Other at-rules: fonts, which the theme names, and the rules of other media, which a phone and a wide screen at rest do not draw.
      else if (media.nodes !== undefined) media.walkRules(() => void (read.passedOver += 1));
      return;
    }
    if (node.type !== 'rule') return;
    const declarations: Declared[] = [];
    node.each((child) => {
      if (child.type === 'decl') declarations.push({ property: child.prop.toLowerCase(), value: child.value.trim(), important: child.important === true });
    });
    for (const { selector, specificity } of selectorsOf(node)) {
      if (specificity === undefined) read.passedOver += 1;
      else read.rules.push({ selector, specificity, declarations, upTo, ...(from === undefined ? {} : { from }), sheet, order: first + read.rules.length });
    }
  };
  root.each((node) => take(node, undefined, undefined));
  return read;
}
