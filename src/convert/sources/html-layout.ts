/**
 * What HTML email writes with tables and tricks, read for what it shows: hybrid ("ghost") columns
 * (inline-block boxes side by side, Outlook's table around them in conditional comments), a
 * button whose class sits on the cell or table around its link, and a row of linked icons (social
 * networks) as icons. Each is rewritten in the tree as the mapper's own element (`x-columns`,
 * `x-button`, `x-social`), so the mapper knows each meaning once.
 */
import { KNOWN_ICON_NAMES } from '../../lmx/index.js';
import { element, type SourceElement, type SourceNode, type Style } from '../model.js';
import { backgroundOf, drawnBorders, pixels, verticalSpace } from '../styles.js';

const elements = (nodes: readonly SourceNode[]) => nodes.filter((node): node is SourceElement => node.type === 'element');
const blank = (node: SourceNode) => node.type === 'text' && /^[\s\u00a0\u200c|•·]*$/.test(node.text);

/** A box of a hybrid layout: a block element set inline-block, so that boxes sit side by side. */
function isHybridBox(node: SourceNode): node is SourceElement {
  return node.type === 'element' && ['div', 'table', 'section', 'td'].includes(node.name) && /inline-block/i.test(node.style.display ?? '');
}

/** Runs of two or more hybrid boxes among an element's children as one `x-columns` each. */
function hybridColumns(children: SourceNode[]): SourceNode[] {
  const result: SourceNode[] = [];
  let run: SourceElement[] = [];
  let pending: SourceNode[] = [];
  const flush = () => {
    if (run.length >= 2) {
      const widths = run.map((box) => pixels(box.style['max-width'] ?? box.attrs.width ?? box.style.width));
      const total = widths.every((width) => width !== undefined) ? widths.reduce((sum, width) => sum! + width!, 0)! : 0;
      const columns = run.map((box, index) =>
        element('x-column', box.at, [box], total > 0 ? { width: `${Math.round((widths[index]! / total) * 1000) / 10}%` } : {}, {
          ...(box.style['vertical-align'] === undefined ? {} : { 'vertical-align': box.style['vertical-align'] }),
        }),
      );
      for (const column of columns) column.attrs['vertical-align'] = column.style['vertical-align'] ?? '';
      // Boxes of a width side by side wrap, one under the other, where their row is narrower than they are together.
      result.push(element('x-columns', run[0]!.at, columns, total > 0 ? { 'data-stack-below': String(total) } : {}));
    } else result.push(...run);
    result.push(...pending);
    run = [];
    pending = [];
  };
  for (const child of children) {
    if (isHybridBox(child)) {
      run.push(child);
      continue;
    }
    if (run.length > 0 && blank(child)) continue;
    flush();
    result.push(child);
  }
  flush();
  return result;
}

/** The links below a node, and whether anything else shows there (text outside them, an image outside them). */
function linksIn(node: SourceNode, links: SourceElement[]): boolean {
  if (node.type === 'variable') return true;
  if (node.type === 'text') return !blank(node);
  if (node.name === 'a' && node.attrs.href !== undefined) {
    links.push(node);
    return false;
  }
  if (node.name === 'img') return true;
  return node.children.map((child) => linksIn(child, links)).some(Boolean);
}

const BUTTON_CLASS = /(^|[\s_-])(btn|button|cta)([\s_-]|$)/i;

/** The first style along the way from a box down to its link that sets a property. */
function along(path: SourceElement[], read: (node: SourceElement) => string | undefined): string | undefined {
  for (const node of [...path].reverse()) {
    const value = read(node);
    if (value !== undefined && value !== '') return value;
  }
  return undefined;
}

/** The elements from `from` down to `to`, both included; undefined when `to` is not below `from`. */
function pathTo(from: SourceElement, to: SourceElement): SourceElement[] | undefined {
  if (from === to) return [from];
  for (const child of elements(from.children)) {
    const below = pathTo(child, to);
    if (below !== undefined) return [from, ...below];
  }
  return undefined;
}

/**
 * A cell of a table that shrinks to what it holds, coloured, around a link drawn as a padded box: a
 * button whose face is the cell (Auth.js's sign-in link, a "bulletproof" button), not a band across
 * the body.
 */
function isColouredCell(node: SourceElement, inShrunkTable: boolean): boolean {
  return (node.name === 'td' || node.name === 'th') && inShrunkTable && backgroundOf(node.style, node.attrs) !== undefined;
}

const isPaddedBox = (link: SourceElement) => /^(inline-)?block$/i.test(link.style.display?.trim() ?? '') && link.style.padding !== undefined;

/** A cell or table whose class says button, or a coloured cell a table shrinks to, around one link and nothing else: the link as a button, with the colours of the boxes around it. */
function buttonBox(node: SourceElement, inShrunkTable: boolean): SourceElement | undefined {
  if (!['table', 'td', 'th', 'div', 'span', 'p'].includes(node.name)) return undefined;
  const classed = BUTTON_CLASS.test(node.attrs.class ?? '');
  if (!classed && !isColouredCell(node, inShrunkTable)) return undefined;
  const links: SourceElement[] = [];
  if (linksIn(node, links) || links.length !== 1) return undefined;
  const link = links[0]!;
  if (elements(link.children).some((child) => child.name === 'img')) return undefined;
  if (!classed && !isPaddedBox(link)) return undefined;
  const path = pathTo(node, link)!;
  const style: Style = { ...link.style };
  // A link drawn as a block is as wide as its cell, and the cell as its table: a table of no width
  // shrinks to what it holds (Cerberus's centred button), so such a button is no full-width one.
  const table = path.findLast((box) => box.name === 'table');
  if (style.display?.trim() === 'block' && (table === undefined ? inShrunkTable : !hasWidth(table))) delete style.display;
  const background = along(path, (box) => backgroundOf(box.style, box.attrs));
  if (background !== undefined) style['background-color'] = background;
  for (const property of ['color', 'border-radius', 'font-size', 'font-weight']) {
    const value = along(path, (box) => box.style[property]);
    if (value !== undefined) style[property] = value;
  }
  // The button's face: the boxes with a background that hold the link.
  let face = path.findLastIndex((box) => backgroundOf(box.style, box.attrs) !== undefined);
  while (face > 0 && backgroundOf(path[face - 1]!.style, path[face - 1]!.attrs) !== undefined) face -= 1;
  // The padding that makes the button's size: the link's own, or that of a cell of its face around it; a cell's
  // outside the face is space around the button (Mailgen's Salted: `padding: 25px 0 0 0` above its link).
  const padding = link.style.padding ?? along(path.slice(Math.max(0, face), -1), (box) => box.style.padding);
  if (padding !== undefined) style['x-inner-padding'] = padding;
  // That padding is inside the button: none of it is space around it. The cells outside the face stand around it: their space above and below is its.
  for (const side of ['padding', 'padding-top', 'padding-bottom']) delete style[side];
  const around = path.slice(0, Math.max(0, face)).map((box) => verticalSpace(box.style));
  for (const [side, space] of [
    ['padding-top', around.reduce((sum, box) => sum + box.top, 0)],
    ['padding-bottom', around.reduce((sum, box) => sum + box.bottom, 0)],
  ] as const)
    if (space > 0) style[side] = `${space}px`;
  // The button sits where the boxes around its face put it: a table by its `align`, and each box by its alignment where it
  // is wider than what it holds; in a table that shrinks to the button (Foundation's), only what stands around the table
  // places it (a <center>).
  const outside = path.slice(0, Math.max(0, face));
  const align = along(outside, (box) => {
    const table = box.name === 'table' ? box : outside.slice(0, outside.indexOf(box)).findLast((outer) => outer.name === 'table');
    const shrunk = table === undefined ? inShrunkTable : !hasWidth(table);
    const own = shrunk ? undefined : (box.attrs.align ?? box.style['text-align']);
    return box.name === 'table' ? (box.attrs.align ?? own) : own;
  });
  const button = element('x-button', node.at, link.children, { href: link.attrs.href!, ...(align === undefined ? {} : { align }) }, style);
  // The link's style on a phone is the button's (Lee Munroe's `.btn a { width: 100% }` up to 620 px).
  if (link.narrow !== undefined) button.narrow = link.narrow;
  return button;
}

/** Names of networks as written in addresses, alt text and image names, and the icon LMX draws for each. */
const NETWORKS: [RegExp, string][] = [
  [/facebook|fb\.com/i, 'facebook'],
  [/(^|[^a-z])(twitter|x\.com)/i, 'x-twitter'],
  [/instagram/i, 'instagram'],
  [/linkedin/i, 'linkedin'],
  [/youtube|youtu\.be/i, 'youtube'],
  [/tiktok/i, 'tiktok'],
  [/pinterest/i, 'pinterest'],
  [/github/i, 'github'],
  [/discord/i, 'discord'],
  [/whatsapp/i, 'whatsapp'],
  [/telegram|t\.me/i, 'telegram'],
  [/medium\.com/i, 'medium'],
  [/dribbble/i, 'dribbble'],
  [/behance/i, 'behance'],
  [/vimeo/i, 'vimeo'],
  [/tumblr/i, 'tumblr'],
  [/snapchat/i, 'snapchat'],
  [/twitch/i, 'twitch'],
  [/threads\.net/i, 'threads'],
  [/bsky|bluesky/i, 'bluesky'],
  [/spotify/i, 'spotify'],
  [/reddit/i, 'reddit'],
  [/^mailto:/i, 'envelope'],
];

function networkOf(link: SourceElement, image: SourceElement): string | undefined {
  for (const text of [link.attrs.href ?? '', image.attrs.alt ?? '', image.attrs.title ?? '', image.attrs.src ?? '']) {
    const found = NETWORKS.find(([pattern]) => pattern.test(text));
    if (found !== undefined && KNOWN_ICON_NAMES.has(found[1])) return found[1];
  }
  return undefined;
}

/** A row of two or more links that each hold one image and nothing else shows, every one a known network: `x-social`. */
function iconRow(node: SourceElement): SourceElement | undefined {
  if (!['table', 'tr', 'td', 'div', 'p', 'center'].includes(node.name)) return undefined;
  const links: SourceElement[] = [];
  if (linksIn(node, links) || links.length < 2) return undefined;
  const icons: SourceElement[] = [];
  for (const link of links) {
    const parts = link.children.filter((child) => !blank(child));
    const image = parts.length === 1 && parts[0]!.type === 'element' && parts[0]!.name === 'img' ? parts[0]! : undefined;
    const name = image === undefined ? undefined : networkOf(link, image);
    if (name === undefined) return undefined;
    // MJML's word for a network's link to the address itself, not to a share page.
    icons.push(element('x-social-link', link.at, [], { name: `${name}-noshare`, href: link.attrs.href! }));
  }
  const align =
    node.attrs.align ??
    node.style['text-align'] ??
    elements(node.children)
      .map((child) => child.attrs.align)
      .find(Boolean);
  return element('x-social', node.at, icons, { align: align ?? '' });
}

/**
 * A row or a cell made a button or a row of icons stays a row or a cell, holding it: a table's rows
 * and cells are what its reader looks for. Its colours and padding were the button's, and go with it.
 */
function keptInPlace(node: SourceElement, made: SourceElement): SourceElement {
  if (node.name !== 'td' && node.name !== 'th' && node.name !== 'tr') return made;
  const style = Object.fromEntries(Object.entries(node.style).filter(([property]) => !/^(background|padding|border)/.test(property)));
  const { bgcolor: _colour, ...attrs } = node.attrs;
  const cell = { ...node, name: node.name === 'tr' ? 'td' : node.name, attrs, style, children: [made] };
  return node.name === 'tr' ? { ...node, children: [cell] } : cell;
}

/**
 * A table of no width and no place of its own around one block image (linked or not) and nothing
 * else, none of its boxes coloured, bordered or padded: it shrinks to the image, which stands where
 * the table does (E-Com Plus's logo, centred by the cell around the table). The image (or its link)
 * in the table's place, so that it takes that cell's alignment.
 */
function imageTable(node: SourceElement): SourceElement | undefined {
  if (node.name !== 'table' || hasWidth(node) || node.attrs.align !== undefined) return undefined;
  const images: SourceElement[] = [];
  const links: SourceElement[] = [];
  const none = (value: string | undefined) => value === undefined || /^\s*0(px)?(\s+0(px)?)*\s*$/i.test(value);
  const plain = (box: SourceElement): boolean =>
    backgroundOf(box.style, box.attrs) === undefined &&
    drawnBorders(box.style).length === 0 &&
    Object.entries(box.style).every(([property, value]) => !property.startsWith('padding') || none(value)) &&
    none(box.attrs.cellpadding) &&
    none(box.attrs.cellspacing);
  const walk = (box: SourceElement): boolean => {
    if (box.name === 'img') return images.push(box) > 0;
    if (box.name === 'a') links.push(box);
    else if (!plain(box)) return false;
    return box.children.every((child) => (child.type === 'element' ? walk(child) : blank(child)));
  };
  if (!walk(node) || images.length !== 1 || links.length > 1 || !/^block$/i.test(images[0]!.style.display?.trim() ?? '')) return undefined;
  const link = links[0];
  return link === undefined || pathTo(link, images[0]!) !== undefined ? (link ?? images[0]) : undefined;
}

/** Whether a table is given a width (`width="100%"`, `style="width: 600px"`) rather than shrinking to what it holds. */
const hasWidth = (table: SourceElement) => (table.attrs.width ?? table.style.width ?? '').trim() !== '' && table.style.width?.trim() !== 'auto';

/**
 * The tree with hybrid columns, button boxes and icon rows made the mapper's elements, bottom-up;
 * `inShrunkTable`: whether the nearest table around `node` shrinks to what it holds.
 */
export function readLayout(node: SourceElement, inShrunkTable = false): SourceElement {
  const rewritten = iconRow(node) ?? buttonBox(node, inShrunkTable);
  if (rewritten !== undefined) return keptInPlace(node, rewritten);
  const image = imageTable(node);
  if (image !== undefined) return image;
  const shrunk = node.name === 'table' ? !hasWidth(node) : inShrunkTable;
  const children = node.children.map((child) => (child.type === 'element' ? readLayout(child, shrunk) : child));
  return { ...node, children: hybridColumns(children) };
}
