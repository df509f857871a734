/**
 * MJML's attributes as the CSS convert's mapper reads, and the defaults MJML's elements have where
 * the email sets nothing: what mjml-source.ts gives each element it reads.
 */
import { element, type Place, type SourceNode, type Style } from '../model.js';
import { parseStyle } from '../styles.js';

/**
 * The defaults MJML's elements have where the email sets nothing (each component's
 * defaultAttributes, MJML 4 and 5): where content stands (its padding, its alignment) and a
 * button's and a divider's look. Text keeps the theme's font, size and colour.
 */
export const MJML_DEFAULTS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'mj-body': { width: '600px' },
  'mj-section': { padding: '20px 0' },
  'mj-wrapper': { padding: '20px 0' },
  'mj-text': { align: 'left', padding: '10px 25px' },
  'mj-button': {
    align: 'center',
    padding: '10px 25px',
    'inner-padding': '10px 25px',
    'background-color': '#414141',
    color: '#ffffff',
    'font-size': '13px',
    'border-radius': '3px',
  },
  'mj-image': { align: 'center', padding: '10px 25px' },
  'mj-divider': { align: 'center', padding: '10px 25px', 'border-width': '4px', 'border-style': 'solid', 'border-color': '#000000', width: '100%' },
  'mj-social': { align: 'center', padding: '10px 25px' },
  'mj-table': { align: 'left', padding: '10px 25px', width: '100%', cellpadding: '0', cellspacing: '0' },
  'mj-navbar': { align: 'center' },
  'mj-spacer': { height: '20px' },
};
/** A section's, wrapper's or hero's style: its `text-align` places its columns, not the text in them. */
export function boxStyle(style: Style): Style {
  const { 'text-align': _columns, ...rest } = style;
  return rest;
}

/** A column of a one-column section is only its content. */
export function unwrapColumn(node: SourceNode, align: string): SourceNode[] {
  if (node.type !== 'element' || node.name !== 'x-column') return [node];
  // A column narrower than its section stands where the section's text-align puts it (MJML centres it by default);
  // its width is a class of MJML's media query, so on a narrower screen it is as wide as the section.
  // Its css-class stays on the box that stands for it.
  const attrs: Record<string, string> = node.attrs.class === undefined ? {} : { class: node.attrs.class };
  if (node.attrs.width === '' || node.attrs.width === undefined) return [element('div', node.at, node.children, attrs, node.style)];
  const width: Style = { width: node.attrs.width, 'margin-left': align === 'left' ? '0' : 'auto', 'margin-right': align === 'right' ? '0' : 'auto' };
  return [element('div', node.at, node.children, { ...attrs, 'data-width-from': '480' }, { ...node.style, ...width })];
}

/** The elements that take MJML's border attributes (`border`, `border-top`…, each component's allowedAttributes): on any other, MJML draws none. */
const BORDERED = new Set(['mj-section', 'mj-wrapper', 'mj-column', 'mj-button', 'mj-image']);

/** MJML's attributes of an element as the CSS the mapper reads. */
export function styleOf(tag: string, attrs: Record<string, string>): Style {
  const style: Style = {};
  const map: Record<string, string> = {
    'background-color': 'background-color',
    'container-background-color': 'background-color',
    color: 'color',
    'font-size': 'font-size',
    'font-family': 'font-family',
    'font-weight': 'font-weight',
    'font-style': 'font-style',
    'line-height': 'line-height',
    'letter-spacing': 'letter-spacing',
    'text-decoration': 'text-decoration',
    align: 'text-align',
    'text-align': 'text-align',
    'border-radius': 'border-radius',
    border: 'border',
    'border-top': 'border-top',
    'border-right': 'border-right',
    'border-bottom': 'border-bottom',
    'border-left': 'border-left',
    padding: 'padding',
    'padding-top': 'padding-top',
    'padding-bottom': 'padding-bottom',
    'padding-left': 'padding-left',
    'padding-right': 'padding-right',
  };
  for (const [attribute, property] of Object.entries(map))
    if (attrs[attribute] !== undefined && attrs[attribute] !== '' && (BORDERED.has(tag) || !/^border(-(top|right|bottom|left))?$/.test(property)))
      style[property] = attrs[attribute]!;
  if (/^\d+$/.test(style['font-size'] ?? '')) style['font-size'] += 'px';
  for (const side of ['padding-top', 'padding-bottom']) if (/^\d+$/.test(style[side] ?? '')) style[side] += 'px';
  return { ...parseStyle(attrs.css ?? ''), ...style };
}

export const spacingOf = (style: Style): Style =>
  Object.fromEntries(Object.entries(style).filter(([property]) => property.startsWith('padding') || property === 'background-color'));

/** A column's style with its inner borders (drawn around its content, inside its padding) where it gives no outer one of that side. */
export function innerBorders(attrs: Record<string, string>, style: Style): Style {
  const inner = Object.entries(attrs)
    .filter(([name, value]) => /^inner-border(-(top|right|bottom|left))?$/.test(name) && value !== '')
    .map(([name, value]) => [name.slice('inner-'.length), value]);
  return { ...Object.fromEntries(inner), ...style };
}

/** The colours and font of an accordion's title or text: its padding and borders are the accordion's, which LMX writes out as plain blocks. */
export function accordionLook(style: Style): Style {
  return Object.fromEntries(Object.entries(style).filter(([property]) => ['color', 'background-color', 'font-family', 'font-size'].includes(property)));
}

/** An `<mj-table>`: its HTML as a table of content in a box of its padding, as wide as its column and with no spacing, as MJML compiles it. */
export function mjmlTable(at: Place, children: SourceNode[], attrs: Record<string, string>, style: Style): SourceNode {
  const { width, cellpadding, cellspacing } = attrs as Record<'width' | 'cellpadding' | 'cellspacing', string>;
  return element('div', at, [element('table', at, children, { 'data-content-table': '', width, cellpadding, cellspacing })], {}, style);
}
