/**
 * What an HTML email's `<style>` says about a phone's screen, as a browser applies it: the rules of
 * its `max-width` media queries, each element's style on those screens (which the layout model
 * reads, so that the source is compared as a phone draws it), and the cells they make full width
 * (`display: block`, or an inline-block or table 100% wide), which stand one under another there:
 * Foundation for Emails stacks its columns so (`th.small-12 { display: inline-block !important;
 * width: 100% !important }` up to 596 px), as do Cerberus' `.stack-column` and many hand-written
 * templates. postcss reads the stylesheet and css-select matches its selectors, each as its
 * standard defines them; the rest of the CSS stays dropped, and listed.
 */
import { selectAll } from 'css-select';
import { parse, type AtRule, type Rule } from 'postcss';
import { FULL_WIDTH_UP_TO, textContent, type NarrowStyle, type SourceElement, type SourceNode, type Style } from './model.js';
import { styleAt } from './styles.js';

/** A media query of a screen's width alone (`only screen and (max-width: 596px)`), one or more of them: the widest it names, in pixels. */
export function maxWidthOf(query: string): number | undefined {
  let widest: number | undefined;
  for (const part of query.split(',')) {
    const match = /^\s*(?:(?:only\s+)?(?:screen|all)\s+and\s+)?\(\s*max-(?:device-)?width\s*:\s*(\d+(?:\.\d+)?)(px|em|rem)?\s*\)\s*$/i.exec(part);
    if (match === null) return undefined;
    const width = Number(match[1]) * (match[2] === undefined || match[2].toLowerCase() === 'px' ? 1 : 16);
    widest = Math.max(widest ?? 0, width);
  }
  return widest;
}

/** A declaration a media query's rule makes, with its importance. */
interface Declared {
  value: string;
  important: boolean;
}

/** The rules inside `max-width` media queries, each with the widest screen it applies to. */
function narrowRules(css: string, sheet: number): { upTo: number; rule: Rule; sheet: number }[] {
  let root: ReturnType<typeof parse>;
  try {
    root = parse(css);
  } catch {
    // A stylesheet a browser would read only in part: none of it is read, and the <style> stays listed as dropped.
    return [];
  }
  const rules: { upTo: number; rule: Rule; sheet: number }[] = [];
  root.walkAtRules('media', (media: AtRule) => {
    const upTo = maxWidthOf(media.params);
    if (upTo === undefined) return;
    media.each((child) => {
      if (child.type === 'rule') rules.push({ upTo, rule: child, sheet });
    });
  });
  return rules;
}

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

/** Whether an element's own style declares a property, itself or in its shorthand (`padding` for `padding-left`). */
function declares(style: Style, property: string): boolean {
  const shorthand = /^(padding|margin)-(top|right|bottom|left)$/.exec(property)?.[1];
  return style[property] !== undefined || (shorthand !== undefined && style[shorthand] !== undefined);
}

/** What rules of a media query change of an element's own style: theirs hold where important, or where its own says nothing. */
function narrowStyleOf(element: SourceElement, upTo: number, declared: Map<string, Declared>): NarrowStyle {
  const set: Style = {};
  const unset: string[] = [];
  for (const [property, { value, important }] of declared) {
    if (!important && declares(element.style, property)) continue;
    set[property] = value;
    if (property === 'padding' || property === 'margin')
      for (const side of ['top', 'right', 'bottom', 'left']) if (!declared.has(`${property}-${side}`)) unset.push(`${property}-${side}`);
  }
  return { upTo, set, unset };
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

/**
 * The most rules of media queries read from an email, and the most tests of a selector against an
 * element they may take: a template's stylesheet has a few hundred rules, tested against a few
 * thousand elements in well under a second; a page of 20,000 rules over as many elements would
 * take minutes.
 */
export const MAX_NARROW_RULES = 5_000;
const MAX_SELECTOR_TESTS = 2_000_000;

/** What was read of one stylesheet: the cells its rules made full width, and its rules left unread past the bounds. */
export interface NarrowRead {
  stacked: number;
  unread: number;
}

/**
 * Gives each element of `body` that the stylesheets' `max-width` media queries restyle its style on
 * those screens (`narrow`, which the layout model reads), and marks the cells they make full width
 * with FULL_WIDTH_UP_TO (the widest such screen); what was read of each stylesheet. Of the cascade,
 * importance and order are weighed, not selectors' specificity.
 */
export function readNarrowStyles(stylesheets: readonly string[], body: SourceElement): NarrowRead[] {
  const read = stylesheets.map(() => ({ stacked: 0, unread: 0 }));
  const parents = parentsOf(body);
  const options = { adapter: adapterFor(parents) };
  const elementCount = parents.size + 1;
  let tests = 0;
  const matched: { upTo: number; rule: Rule; sheet: number; elements: SourceElement[] }[] = [];
  for (const entry of stylesheets.flatMap(narrowRules)) {
    tests += entry.rule.selectors.length * elementCount;
    if (matched.length >= MAX_NARROW_RULES || tests > MAX_SELECTOR_TESTS) {
      read[entry.sheet]!.unread += 1;
      continue;
    }
    // `:has()` tests every element below each one: a rule of it is not read, as a client that cannot afford it would not.
    if (/:has\(/i.test(entry.rule.selector)) continue;
    try {
      matched.push({ ...entry, elements: selectAll<SourceNode, SourceElement>(entry.rule.selector, body, options) });
    } catch {
      // A selector css-select does not know (a browser's own pseudo-element): the rule is not read.
    }
  }
  // Each element's declarations at each media query's width: those of every rule whose query holds there, in order.
  const widths = [...new Set(matched.map((entry) => entry.upTo))].sort((a, b) => b - a);
  for (const width of widths) {
    const restyled = new Map<SourceElement, { declared: Map<string, Declared>; sheets: Set<number> }>();
    for (const { upTo, rule, sheet, elements } of matched) {
      if (upTo < width || elements.length === 0) continue;
      rule.walkDecls((declaration) => {
        const property = declaration.prop.toLowerCase();
        const important = declaration.important === true;
        for (const element of elements) {
          const entry = restyled.get(element) ?? { declared: new Map<string, Declared>(), sheets: new Set<number>() };
          // Later rules win, but never over an important one.
          if (entry.declared.get(property)?.important !== true || important) entry.declared.set(property, { value: declaration.value, important });
          entry.sheets.add(sheet);
          restyled.set(element, entry);
        }
      });
    }
    for (const [element, { declared, sheets }] of restyled) {
      element.narrow = [...(element.narrow ?? []), narrowStyleOf(element, width, declared)];
      if (!CELLS.has(element.name) || element.attrs[FULL_WIDTH_UP_TO] !== undefined || !fullWidth(styleAt(element, width))) continue;
      element.attrs[FULL_WIDTH_UP_TO] = String(width);
      for (const sheet of sheets) read[sheet]!.stacked += 1;
    }
  }
  return read;
}
