/**
 * MJML's `<mj-style>` applied as MJML's compiled HTML draws it: its rules (inlined by MJML, or kept
 * in the head's `<style>`, which mail clients apply) reach the elements they match, weighed by the
 * cascade as an HTML email's stylesheet is (html-cascade.ts). An element's `css-class` is the class
 * of the box MJML draws for it, and MJML writes each element's attributes as its inline style: a
 * text's `css-class` is on the cell around the `<div>` that holds its text (the documented
 * `.red-text div { color: red !important }` reaches the text). A button is matched as the table MJML
 * compiles it into (`.cta-button a`, `.primary-button td` reach its link and its cell).
 */

import { element, type Findings, type Place, type SourceElement, type SourceNode, textContent } from '../model.js';
import { declarationsOf } from '../styles.js';
import { applyStylesheets, listStylesheet, type OwnStyle } from './html-cascade.js';
import { stylesheetsIn, withoutStylesheets } from './html-source.js';
import { spacingOf } from './mjml-styles.js';

/** MJML writes an element's attributes as the inline style of what it draws: they weigh as a `style` attribute's. */
const mjmlOwnStyle: OwnStyle = (node) =>
  node.attrs.style !== undefined
    ? declarationsOf(node.attrs.style)
    : Object.entries(node.style).map(([property, value]) => ({ property, value, important: false }));

/**
 * The `<mj-style>`s of the head and the `<style>`s of the body's HTML (an `<mj-raw>`'s, which MJML
 * writes into the page as they are) applied to the body read from MJML, each listed at its place.
 */
export function applyMjStyles(headStyles: readonly { css: string; at: Place }[], body: SourceElement, findings: Findings): void {
  const stylesheets = [
    ...headStyles.map((sheet) => ({ ...sheet, construct: 'custom CSS (<mj-style>)' })),
    ...stylesheetsIn(body).map((sheet) => ({ css: textContent(sheet), at: sheet.at, construct: 'custom CSS (<style>)' })),
  ];
  withoutStylesheets(body);
  if (stylesheets.length === 0) return;
  const backToButtons = asCompiledButtons(body);
  const read = applyStylesheets(
    stylesheets.map((sheet) => sheet.css),
    body,
    mjmlOwnStyle,
  );
  backToButtons();
  stylesheets.forEach((sheet, index) => {
    if (sheet.css.trim() !== '') listStylesheet(findings, sheet.at, sheet.construct, read[index]!);
  });
}

/** An element's `css-class` on the box MJML draws for it: a text's on a cell around the `<div>` of its text, which holds the text's own style. */
export function withCssClass(cssClass: string | undefined, tag: string, made: SourceNode[]): SourceNode[] {
  const [outer] = made;
  if (cssClass === undefined || cssClass.trim() === '' || outer?.type !== 'element') return made;
  if (tag !== 'mj-text') {
    outer.attrs.class = cssClass;
    return made;
  }
  const cell = spacingOf(outer.style);
  const text = Object.fromEntries(Object.entries(outer.style).filter(([property]) => cell[property] === undefined));
  return [element('div', outer.at, [element('div', outer.at, outer.children, {}, text)], { class: cssClass }, cell), ...made.slice(1)];
}

/** What MJML writes on a button's cell, besides the link inside it (`mjml-button`'s render: its `td`'s style). */
const BUTTON_CELL = ['background-color', 'border', 'border-radius'];

/**
 * Each button of `body` made the boxes MJML compiles it into, for selectors to match: a table whose
 * cell holds its background and corners, and in it the link, which holds its own style. Returns what
 * puts each button back, its style the link's as the cascade left it and its background the cell's
 * where the link's own went (`background-color: transparent`).
 */
function asCompiledButtons(body: SourceElement): () => void {
  const restores: (() => void)[] = [];
  const pending: SourceElement[] = [body];
  while (pending.length > 0) {
    const parent = pending.pop()!;
    parent.children.forEach((child, index) => {
      if (child.type !== 'element') return;
      if (child.name !== 'x-button') {
        pending.push(child);
        return;
      }
      const { at } = child;
      const link = element('a', at, child.children, { href: child.attrs.href ?? '' }, { ...child.style });
      const cell = element('td', at, [link], {}, Object.fromEntries(Object.entries(child.style).filter(([property]) => BUTTON_CELL.includes(property))));
      parent.children[index] = element('table', at, [element('tbody', at, [element('tr', at, [cell])])]);
      restores.push(() => {
        parent.children[index] = child;
        const background = /^(transparent|none|initial)$/i.test(link.style['background-color']?.trim() ?? '')
          ? cell.style['background-color']
          : link.style['background-color'];
        child.style = { ...link.style, ...(background === undefined ? {} : { 'background-color': background }) };
        if (link.narrow !== undefined) child.narrow = link.narrow;
      });
    });
  }
  return () => {
    for (const restore of restores) restore();
  };
}
