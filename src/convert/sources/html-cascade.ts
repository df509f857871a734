/**
 * An HTML email's stylesheet applied to its elements as a browser applies it, so that convert reads
 * each element as a recipient sees it: its rules for every screen (Postmark's, Mailchimp's and
 * Customer.io's templates keep their classes' styles in a `<style>`, as does Foundation's hero
 * band) give each element its style, and its `max-width` media queries its style on a phone
 * (`narrow`, which the layout model reads) and the cells they make full width (`display: block`,
 * or an inline-block or table 100% wide), which stand one under another there: Foundation for
 * Emails stacks its columns so (`th.small-12 { display: inline-block !important; width: 100%
 * !important }` up to 596 px), as do Cerberus' `.stack-column` and many hand-written templates.
 * Declarations weigh as CSS's cascade weighs them: importance, then the `style` attribute over a
 * rule, then specificity, then order. css-select matches the selectors, as its standard defines them.
 */
import { selectAll } from 'css-select';
import { countOf } from '../../render/numbers.js';
import { type Findings, FULL_WIDTH_UP_TO, type NarrowStyle, type Place, type SourceElement, type SourceNode, type Style, textContent } from '../model.js';
import { type Declared, declarationsOf, givesBack, styleAt } from '../styles.js';
import { DESKTOP_WIDTH, readStylesheet, type StyleRule } from './html-rules.js';

/** The parents of every element below `root`, which css-select asks for. */
function parentsOf(root: SourceElement): Map<SourceElement, SourceElement> {
  const parents = new Map<SourceElement, SourceElement>();
  const pending = [root];
  while (pending.length > 0) {
    const node = pending.pop()!;
    for (const child of node.children)
      if (child.type === 'element') {
        parents.set(child, node);
        pending.push(child);
      }
  }
  return parents;
}

const isElement = (node: SourceNode): node is SourceElement => node.type === 'element';

/** css-select's view of the mapper's tree. */
function adapterFor(parents: Map<SourceElement, SourceElement>) {
  const findAll = (test: (element: SourceElement) => boolean, nodes: SourceNode[]): SourceElement[] =>
    nodes.filter(isElement).flatMap((node) => [...(test(node) ? [node] : []), ...findAll(test, node.children)]);
  return {
    isTag: isElement,
    existsOne: (test: (element: SourceElement) => boolean, nodes: SourceNode[]) => findAll(test, nodes).length > 0,
    getAttributeValue: (element: SourceElement, name: string) => element.attrs[name],
    getChildren: (node: SourceNode) => (node.type === 'element' ? node.children : []),
    getName: (element: SourceElement) => element.name,
    getParent: (element: SourceElement) => parents.get(element) ?? null,
    getSiblings: (node: SourceNode) => {
      const parent = node.type === 'element' ? parents.get(node) : undefined;
      return parent === undefined ? [node] : parent.children;
    },
    getText: textContent,
    hasAttrib: (element: SourceElement, name: string) => element.attrs[name] !== undefined,
    removeSubsets: (nodes: SourceNode[]) =>
      nodes.filter((node) => node.type !== 'element' || !nodes.some((other) => other !== node && other.type === 'element' && contains(other, node))),
    findAll,
    findOne: (test: (element: SourceElement) => boolean, nodes: SourceNode[]) => findAll(test, nodes)[0] ?? null,
  };
}

const contains = (outer: SourceElement, node: SourceNode): boolean =>
  outer.children.some((child) => child === node || (child.type === 'element' && contains(child, node)));

/** The longhands a shorthand sets, which a later or weightier shorthand overrides: convert's readers take a longhand over its shorthand. */
const LONGHANDS: Readonly<Record<string, RegExp>> = {
  padding: /^padding-/,
  margin: /^margin-/,
  background: /^background-/,
  border: /^border-(?!.*radius)/,
  'border-top': /^border-top-/,
  'border-right': /^border-right-/,
  'border-bottom': /^border-bottom-/,
  'border-left': /^border-left-/,
  'border-width': /^border-(top|right|bottom|left)-width$/,
  'border-style': /^border-(top|right|bottom|left)-style$/,
  'border-color': /^border-(top|right|bottom|left)-color$/,
  'border-radius': /^border-.*-radius$/,
  font: /^(font-|line-height$)/,
};

/** Sets a declaration on a style being built in the cascade's order, a shorthand clearing the longhands it overrides. */
function declare(style: Style, { property, value }: Declared): void {
  const longhands = LONGHANDS[property];
  if (longhands !== undefined) for (const written of Object.keys(style)) if (longhands.test(written)) delete style[written];
  if (givesBack(value)) delete style[property];
  else style[property] = value;
}

/** A declaration of a rule that matched an element, with what weighs it and the stylesheet it is of. */
interface Matched extends Declared {
  specificity: number;
  order: number;
  upTo?: number;
  from?: number;
  sheet: number;
}

/** The elements a selector matches; undefined for one passed over. */
function matching(selector: string, body: SourceElement, options: { adapter: ReturnType<typeof adapterFor> }): SourceElement[] | undefined {
  try {
    return selectAll<SourceNode, SourceElement>(selector, [body], options);
  } catch {
    // A selector css-select does not know (a browser's own pseudo-class): the rule is not read.
    return undefined;
  }
}

/**
 * CSS's cascade for one element: presentational attributes (`<font color>`) under every rule, then
 * rules that are not important, the `style` attribute, important rules and the `style` attribute's
 * important declarations; within each, specificity, then order. Rules of media queries that do not
 * hold at `width` are left out.
 */
function weighed(element: SourceElement, inline: readonly Declared[], matched: readonly Matched[], width: number | undefined): Declared[] {
  const written = new Set(inline.map((declaration) => declaration.property));
  const hints = Object.entries(element.style)
    .filter(([property]) => !written.has(property))
    .map(([property, value]) => ({ property, value, important: false, level: 0, specificity: 0, order: 0 }));
  return [
    ...hints,
    ...matched
      .filter((declaration) => declaration.upTo === undefined || (width !== undefined && declaration.upTo >= width))
      .filter((declaration) => declaration.from === undefined || (width ?? DESKTOP_WIDTH) >= declaration.from)
      .map((declaration) => ({ ...declaration, level: declaration.important ? 3 : 1 })),
    ...inline.map((declaration, order) => ({ ...declaration, level: declaration.important ? 4 : 2, specificity: 0, order })),
  ].sort((a, b) => a.level - b.level || a.specificity - b.specificity || a.order - b.order);
}

/** An element's style by the cascade, at a screen's width (none: a wide screen's). */
function cascade(element: SourceElement, inline: readonly Declared[], matched: readonly Matched[], width: number | undefined): Style {
  const style: Style = {};
  for (const declaration of weighed(element, inline, matched, width)) declare(style, declaration);
  return style;
}

/**
 * A link whose colour the cascade gives back (`a { color: inherit !important }`, as Covalent's
 * stylesheet writes it) takes its text's colour, the nearest one above it, or a browser's default
 * black where none is (an MJML button's link, whose page sets no colour): the mapper would draw a
 * link with no colour of its own in the theme's link colour.
 */
function inheritLinkColours(parents: Map<SourceElement, SourceElement>, matched: Map<SourceElement, Matched[]>, ownStyle: OwnStyle): void {
  for (const link of parents.keys()) {
    if (link.name !== 'a') continue;
    const colour = weighed(link, ownStyle(link), matched.get(link) ?? [], undefined).findLast((declaration) => declaration.property === 'color');
    if (colour === undefined || !givesBack(colour.value)) continue;
    let above = parents.get(link);
    while (above !== undefined && above.style.color === undefined) above = parents.get(above);
    link.style.color = above?.style.color ?? '#000000';
  }
}

/** What a screen up to `upTo` changes of the style an element has on a wide one. */
function narrowFrom(wide: Style, narrow: Style, upTo: number): NarrowStyle | undefined {
  const set = Object.fromEntries(Object.entries(narrow).filter(([property, value]) => wide[property] !== value));
  const unset = Object.keys(wide).filter((property) => narrow[property] === undefined);
  return Object.keys(set).length === 0 && unset.length === 0 ? undefined : { upTo, set, unset };
}

/** The elements whose being full width stacks a row: a table's cells. */
const CELLS: ReadonlySet<string> = new Set(['td', 'th']);

/** Whether a box of this style fills the width it stands in: a block, or an inline-block or table 100% wide. */
function fullWidth(style: Style): boolean {
  const display = style.display?.trim().toLowerCase();
  const width = style.width?.trim().toLowerCase();
  if (display === 'block') return width === undefined || width === 'auto' || width === '100%';
  return (display === 'inline-block' || display === 'table') && width === '100%';
}

/** The declarations an element's own style makes, which weigh as a `style` attribute's. */
export type OwnStyle = (element: SourceElement) => Declared[];

/** An HTML element's own style: its `style` attribute (`<font color>` and other attributes weigh under every rule). */
const styleAttribute: OwnStyle = (element) => declarationsOf(element.attrs.style);

/**
 * The most rules (a rule of several selectors counts each) read from an email, and the most tests of
 * a selector against an element they may take: a template's stylesheet has a few hundred rules,
 * tested against a few thousand elements in well under a second; a page of 20,000 rules over as
 * many elements would take minutes, and 5,000 rules of `* { … }` over a few hundred elements would take gigabytes.
 */
export const MAX_STYLE_RULES = 5_000;
const MAX_SELECTOR_TESTS = 2_000_000;
/** The most declarations the rules read may give the elements they match, all told: `* { … }` repeated gives every element each. */
const MAX_MATCHED_DECLARATIONS = 200_000;

/** What was read of one stylesheet: the elements its rules style, the cells its media queries made full width, its rules passed over and those left unread past the bounds. */
export interface SheetRead {
  styled: number;
  stacked: number;
  passedOver: number;
  unread: number;
}

/**
 * Gives each element of `body` its style as the stylesheets and its own `style` attribute make it
 * on a wide screen, and on the screens of their `max-width` media queries (`narrow`, widest first);
 * marks the cells those make full width with FULL_WIDTH_UP_TO (the widest such screen). What was
 * read of each stylesheet.
 */
export function applyStylesheets(stylesheets: readonly string[], body: SourceElement, ownStyle: OwnStyle = styleAttribute): SheetRead[] {
  const read = stylesheets.map(() => ({ styled: 0, stacked: 0, passedOver: 0, unread: 0 }));
  const rules: StyleRule[] = [];
  for (const [sheet, css] of stylesheets.entries()) {
    const { rules: sheetRules, passedOver } = readStylesheet(css, sheet, rules.length);
    rules.push(...sheetRules);
    read[sheet]!.passedOver = passedOver;
  }
  const parents = parentsOf(body);
  const options = { adapter: adapterFor(parents) };
  const elementCount = parents.size + 1;
  let tests = 0;
  let taken = 0;
  let given = 0;
  const matched = new Map<SourceElement, Matched[]>();
  for (const rule of rules) {
    tests += elementCount;
    if (taken >= MAX_STYLE_RULES || tests > MAX_SELECTOR_TESTS || given > MAX_MATCHED_DECLARATIONS) {
      read[rule.sheet]!.unread += 1;
      continue;
    }
    taken += 1;
    const elements = matching(rule.selector, body, options);
    if (elements === undefined) read[rule.sheet]!.passedOver += 1;
    given += (elements?.length ?? 0) * rule.declarations.length;
    for (const element of elements ?? []) {
      const declarations = matched.get(element) ?? [];
      for (const declaration of rule.declarations)
        declarations.push({ ...declaration, specificity: rule.specificity, order: rule.order, upTo: rule.upTo, from: rule.from, sheet: rule.sheet });
      matched.set(element, declarations);
    }
  }
  for (const [element, declarations] of matched) {
    const inline = ownStyle(element);
    const wide = cascade(element, inline, declarations, undefined);
    // The screens where the style changes: those a phone's rule holds up to, and those just narrower than a desktop's rule holds from.
    const widths = [
      ...new Set(
        declarations.flatMap((declaration) => [
          ...(declaration.upTo === undefined ? [] : [declaration.upTo]),
          ...(declaration.from === undefined ? [] : [declaration.from - 1]),
        ]),
      ),
    ].sort((a, b) => b - a);
    const narrow = widths.flatMap((width) => narrowFrom(wide, cascade(element, inline, declarations, width), width) ?? []);
    element.style = wide;
    if (narrow.length > 0) element.narrow = narrow;
    const sheets = (onEveryScreen: boolean) =>
      new Set(declarations.filter((declaration) => (declaration.upTo === undefined) === onEveryScreen).map((declaration) => declaration.sheet));
    for (const sheet of sheets(true)) read[sheet]!.styled += 1;
    const stacksAt = CELLS.has(element.name) ? narrow.find((entry) => fullWidth(styleAt(element, entry.upTo))) : undefined;
    if (stacksAt === undefined) continue;
    element.attrs[FULL_WIDTH_UP_TO] = String(stacksAt.upTo);
    for (const sheet of sheets(false)) read[sheet]!.stacked += 1;
  }
  inheritLinkColours(parents, matched, ownStyle);
  return read;
}

/** A stylesheet listed at its place: what of it convert carried, and what it did not. */
export function listStylesheet(findings: Findings, at: Place, construct: string, { styled, stacked, passedOver, unread }: SheetRead): void {
  findings.add(
    at,
    construct,
    styled + stacked > 0 ? 'approximated' : 'dropped',
    [
      styled > 0 ? `its rules carried onto the ${countOf(styled, 'element')} they style, weighed as a browser weighs them` : '',
      stacked > 0 ? `its media queries’ columns that stack on a phone (${countOf(stacked, 'cell')}, read as Columns that stack)` : '',
      styled + stacked === 0 ? 'its rules dropped' : '',
      passedOver > 0
        ? `${countOf(passedOver, 'rule')} of it not carried (a pointer’s hover or focus, a pseudo-element, print or other media than a screen’s width)`
        : '',
      unread > 0
        ? `${countOf(unread, 'rule')} of it not read, past what convert reads of an email’s stylesheet (${MAX_STYLE_RULES} rules, fewer in an email of many elements)`
        : '',
      'the styles written on each element carried',
    ]
      .filter(Boolean)
      .join('; '),
    'LMX takes no CSS: what its blocks took of it is in their attributes; set the fonts and colours every block shares in the theme (<Style />); media queries have no equivalent (LMX emails fit mobile by themselves)',
  );
}
