/**
 * The tags of LMX as its published specification describes them: what each may contain, where it
 * may stand and which attributes it takes, with their types, ranges and enums. The parser reads
 * the content types from here (raw text keeps its braces), the validator everything else, and a
 * renderer may read the same table to know what a tag means.
 */

import { THEME_STYLES } from '../platform/themes/style-names.js';
import type { LmxKind } from './kinds.js';

/** inline: text, variables, inline tags and <Br />; text: text and variables; raw: literal text; none: elements only. */
export type LmxContentType = 'inline' | 'text' | 'raw' | 'none';

export type LmxAttributeType =
  | { type: 'color' }
  /** A number written as a string; min and max are inclusive. */
  | { type: 'number'; min?: number; max?: number; unit?: string }
  | { type: 'enum'; values: readonly string[] }
  | { type: 'boolean' }
  | { type: 'url' }
  | { type: 'string' }
  /** Comma-separated percentages, one per <ColumnItem>. */
  | { type: 'widths' }
  /** A <Style /> value: a colour, a number or a name, as the theme style of that name takes. */
  | { type: 'style'; of: 'colour' | 'number' | 'text' };

export type LmxAttributeSpec = LmxAttributeType & {
  required?: boolean;
  /** The value may hold variables ({contact.x}, {event.x}, {data.x}). */
  variables?: boolean;
};

/** Where a tag may stand. */
export type LmxPlacement =
  /** At the top level and in block containers (<Section>, <ColumnItem>, <Component>). */
  | 'block'
  /** In inline content: headings, paragraphs, quotes, list items and inline tags. */
  | 'inline'
  /** Top level only. */
  | 'top'
  /** Only in the parent tags named by `parents`. */
  | 'child';

export interface LmxTagSpec {
  name: string;
  content: LmxContentType;
  placement: LmxPlacement;
  /** For placement 'child': the tags it may stand in. */
  parents?: readonly string[];
  /** The element children it takes; for block containers, every block tag but `excludes`. */
  children: readonly string[];
  /** Tags that may not stand anywhere inside this one (sections in sections, columns in columns). */
  excludes?: readonly string[];
  /** How many element children it needs, and takes at most. */
  minChildren?: number;
  maxChildren?: number;
  /** Written `<Tag ... />`: it never has content. */
  selfClosing: boolean;
  attributes: Readonly<Record<string, LmxAttributeSpec>>;
}

export type LmxNamespace = 'contact' | 'event' | 'data';
export const LMX_NAMESPACES: readonly LmxNamespace[] = ['contact', 'event', 'data'];

export { LMX_KINDS, type LmxKind } from './kinds.js';

/**
 * The variables each kind may use. A component may be embedded in an email of any kind, so its own
 * LMX may use any namespace; the email that embeds it is what decides (the specification is silent).
 */
export const NAMESPACES_OF_KIND: Readonly<Record<LmxKind, readonly LmxNamespace[]>> = {
  transactional: ['data'],
  campaign: ['contact'],
  workflow: ['contact', 'event'],
  component: ['contact', 'event', 'data'],
};

/**
 * The schemes a link (a button's, a text link's, a section's, an icon's, an image's href) may use:
 * the web's, email, and phone links, which are common in email and which the specification does
 * not forbid. The check, the renderer and the sandbox's Guardian all read this one list.
 */
export const LINK_SCHEMES: ReadonlySet<string> = new Set(['http', 'https', 'mailto', 'tel', 'sms']);
/** An image loads over HTTP only. */
export const IMAGE_SCHEMES: ReadonlySet<string> = new Set(['http', 'https']);

/** A URL's scheme in lowercase (`https`, `tel`), or undefined when it does not start with one. */
export function schemeOf(url: string): string | undefined {
  return /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url)?.[1]?.toLowerCase();
}

/** The largest LMX body the email-message API takes (bytes of UTF-8); larger ones are refused with 413. */
export const LMX_MAX_BYTES = 100 * 1024;

const ALIGN = { type: 'enum', values: ['left', 'center', 'right'] } as const;
const COLOR = { type: 'color' } as const;
const BOOLEAN = { type: 'boolean' } as const;
const URL = { type: 'url' } as const;
const DYNAMIC_URL = { type: 'url', variables: true } as const;
const number = (min?: number, max?: number, unit?: string): LmxAttributeSpec => ({ type: 'number', min, max, unit });

const BLOCK_STYLE: Record<string, LmxAttributeSpec> = {
  blockColor: COLOR,
  blockBorderRadius: number(0, 999),
  paddingTop: number(0, undefined, 'pixels'),
  paddingRight: number(0, undefined, 'pixels'),
  paddingBottom: number(0, undefined, 'pixels'),
  paddingLeft: number(0, undefined, 'pixels'),
};

const TEXT_BLOCK: Record<string, LmxAttributeSpec> = { fontSize: number(12, 64), lineHeight: number(100, 300, 'percent'), align: ALIGN, ...BLOCK_STYLE };
/** A list item takes the text block attributes but align, which its list sets. */
const LIST_ITEM = Object.fromEntries(Object.entries(TEXT_BLOCK).filter(([name]) => name !== 'align'));
const TEXT_COLOR: Record<string, LmxAttributeSpec> = { textColor: COLOR };

export const INLINE_TAGS = ['Strong', 'Em', 'Underline', 'Strike', 'Code', 'Text', 'Link'] as const;
/** What inline content may hold besides text and variables. */
const INLINE_CHILDREN = [...INLINE_TAGS, 'Br'];

export const BLOCK_TAGS = [
  'H1',
  'H2',
  'H3',
  'Paragraph',
  'Quote',
  'CodeBlock',
  'Button',
  'Image',
  'Divider',
  'OrderedList',
  'UnorderedList',
  'Columns',
  'Component',
  'Icons',
  'Section',
] as const;

/**
 * What <Style /> takes: a theme's id and the theme styles (the Theme record's fields), each with the
 * kind of its value. The specification's table leaves out the button text's format, but the
 * platform's own export of an email writes it (buttonTextFormat="0"), so it is taken.
 */
const STYLE_ATTRIBUTES: Record<string, 'colour' | 'number' | 'text'> = { themeId: 'text', ...THEME_STYLES };

const block = (name: string, content: LmxContentType, attributes: Record<string, LmxAttributeSpec>, more: Partial<LmxTagSpec> = {}): LmxTagSpec => ({
  name,
  content,
  placement: 'block',
  children: content === 'inline' ? INLINE_CHILDREN : [],
  selfClosing: false,
  attributes,
  ...more,
});

const inline = (name: string, attributes: Record<string, LmxAttributeSpec>): LmxTagSpec => ({
  name,
  content: 'inline',
  placement: 'inline',
  children: INLINE_CHILDREN,
  selfClosing: false,
  attributes,
});

/** Block tags a container holds: all of them but those it excludes. */
const blocksBut = (...excluded: string[]) => BLOCK_TAGS.filter((tag) => !excluded.includes(tag));

const SPECS: LmxTagSpec[] = [
  block('H1', 'inline', TEXT_BLOCK),
  block('H2', 'inline', TEXT_BLOCK),
  block('H3', 'inline', TEXT_BLOCK),
  block('Paragraph', 'inline', TEXT_BLOCK),
  block('Quote', 'inline', TEXT_BLOCK),
  block('CodeBlock', 'raw', { fontSize: number(12, 64), lineHeight: number(100, 300, 'percent'), ...BLOCK_STYLE }),
  block('Button', 'text', {
    href: DYNAMIC_URL,
    bgColor: COLOR,
    textColor: COLOR,
    borderColor: COLOR,
    borderRadius: number(0, 999),
    borderWidth: number(0, 16),
    innerXPadding: number(0, 100),
    innerYPadding: number(0, 100),
    fontSize: number(6, 64),
    align: ALIGN,
    notrack: BOOLEAN,
    ...BLOCK_STYLE,
  }),
  block(
    'Image',
    'none',
    {
      src: { type: 'url', required: true },
      alt: { type: 'string', variables: true },
      href: DYNAMIC_URL,
      width: number(12, 600, 'pixels'),
      align: ALIGN,
      borderRadius: number(0, 999),
      borderWidth: number(0, 16),
      borderColor: COLOR,
      dynamicSrc: DYNAMIC_URL,
      notrack: BOOLEAN,
      ...BLOCK_STYLE,
    },
    { selfClosing: true },
  ),
  block(
    'Divider',
    'none',
    { align: ALIGN, width: number(10, 100, 'percent'), borderWidth: number(1, 16), color: COLOR, ...BLOCK_STYLE },
    { selfClosing: true },
  ),
  block('OrderedList', 'none', { start: number(), align: ALIGN }, { children: ['ListItem'], minChildren: 1 }),
  block('UnorderedList', 'none', { align: ALIGN }, { children: ['ListItem'], minChildren: 1 }),
  {
    name: 'ListItem',
    content: 'inline',
    placement: 'child',
    parents: ['OrderedList', 'UnorderedList'],
    children: INLINE_CHILDREN,
    selfClosing: false,
    attributes: LIST_ITEM,
  },
  block(
    'Columns',
    'none',
    {
      gap: number(12, 150, 'pixels'),
      widths: { type: 'widths' },
      verticalAlignment: { type: 'enum', values: ['top', 'middle', 'bottom'] },
      stackOnMobile: BOOLEAN,
      reverseOnMobile: BOOLEAN,
      ...BLOCK_STYLE,
    },
    { children: ['ColumnItem'], minChildren: 2, maxChildren: 4, excludes: ['Columns'] },
  ),
  { name: 'ColumnItem', content: 'none', placement: 'child', parents: ['Columns'], children: blocksBut('Columns'), selfClosing: false, attributes: {} },
  block(
    'Component',
    'none',
    { componentId: { type: 'string', required: true }, ...BLOCK_STYLE },
    { children: blocksBut('Component'), excludes: ['Component'] },
  ),
  block('Section', 'none', { href: DYNAMIC_URL, notrack: BOOLEAN, ...BLOCK_STYLE }, { children: blocksBut('Section'), excludes: ['Section'] }),
  block(
    'Icons',
    'none',
    {
      align: ALIGN,
      gap: number(4, 200, 'pixels'),
      size: number(18, 48, 'pixels'),
      color: { type: 'enum', values: ['#000000', '#808080', '#ffffff'] },
      ...BLOCK_STYLE,
    },
    { children: ['Icon'], minChildren: 1, maxChildren: 100 },
  ),
  {
    name: 'Icon',
    content: 'none',
    placement: 'child',
    parents: ['Icons'],
    children: [],
    selfClosing: true,
    attributes: { name: { type: 'string', required: true }, href: URL, notrack: BOOLEAN },
  },
  {
    name: 'Style',
    content: 'none',
    placement: 'top',
    children: [],
    selfClosing: true,
    attributes: Object.fromEntries(Object.entries(STYLE_ATTRIBUTES).map(([name, of]) => [name, { type: 'style', of }])),
  },
  { name: 'Br', content: 'none', placement: 'inline', children: [], selfClosing: true, attributes: {} },
  inline('Strong', TEXT_COLOR),
  inline('Em', TEXT_COLOR),
  inline('Underline', TEXT_COLOR),
  inline('Strike', TEXT_COLOR),
  inline('Code', TEXT_COLOR),
  inline('Text', TEXT_COLOR),
  { ...inline('Link', { href: { type: 'url', required: true, variables: true }, notrack: BOOLEAN }), excludes: ['Link'] },
];

/** Every LMX tag by name. */
export const LMX_TAGS: ReadonlyMap<string, LmxTagSpec> = new Map(SPECS.map((spec) => [spec.name, spec]));

/** What the top level may hold. */
export const TOP_LEVEL_TAGS: readonly string[] = [...BLOCK_TAGS, 'Style'];

/**
 * Font Awesome names of the icons an icon row usually shows. The platform knows all of Font
 * Awesome; a name outside this list is checked for its form only and reported as a warning.
 */
export const KNOWN_ICON_NAMES: ReadonlySet<string> = new Set([
  'twitter',
  'x-twitter',
  'square-x-twitter',
  'facebook',
  'facebook-f',
  'square-facebook',
  'instagram',
  'square-instagram',
  'linkedin',
  'linkedin-in',
  'youtube',
  'square-youtube',
  'github',
  'square-github',
  'gitlab',
  'discord',
  'slack',
  'tiktok',
  'pinterest',
  'pinterest-p',
  'reddit',
  'reddit-alien',
  'whatsapp',
  'telegram',
  'snapchat',
  'twitch',
  'medium',
  'dribbble',
  'behance',
  'figma',
  'mastodon',
  'threads',
  'bluesky',
  'spotify',
  'soundcloud',
  'apple',
  'app-store',
  'app-store-ios',
  'google-play',
  'android',
  'google',
  'product-hunt',
  'stack-overflow',
  'dev',
  'hacker-news',
  'patreon',
  'vimeo',
  'vimeo-v',
  'tumblr',
  'wordpress',
  'npm',
  'docker',
  'producthunt',
  'yelp',
  'etsy',
  'shopify',
  'meetup',
  'vk',
  'weixin',
  'line',
  'skype',
  'envelope',
  'envelope-open',
  'link',
  'phone',
  'globe',
  'rss',
  'calendar',
  'location-dot',
  'map-marker',
  'map-pin',
  'house',
  'home',
  'comment',
  'comments',
  'message',
  'heart',
  'star',
  'user',
  'users',
  'circle-info',
  'question',
  'circle-question',
  'book',
  'blog',
  'newspaper',
  'podcast',
  'microphone',
  'video',
  'camera',
  'cart-shopping',
  'bag-shopping',
  'gift',
  'ticket',
  'briefcase',
  'code',
  'terminal',
  'arrow-right',
  'download',
]);
