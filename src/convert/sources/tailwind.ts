/**
 * React Email's `<Tailwind>` turns the classes of the elements inside it into inline styles when
 * the email renders. Read without running it, the classes are resolved here as Tailwind's default
 * theme has them: colours (the palette, `white`, `black`, arbitrary `[#hex]`), spacing (a step is
 * 4 px), font sizes, weights and families, alignment, line heights, radii, widths, decoration and
 * case. A class this does not know (a variant such as `sm:` or `hover:`, a theme of the app's own)
 * is returned unresolved, for the list.
 */
import type { Findings, Place, Style } from '../model.js';

/** What a `<Tailwind config>` adds to the default theme, read from its literal (`theme.extend.colors`, `theme.extend.spacing`). */
export interface TailwindTheme {
  colors: Readonly<Record<string, unknown>>;
  spacing: Readonly<Record<string, unknown>>;
}

import { TAILWIND_PALETTE, TAILWIND_SHADES } from './tailwind-palette.js';

const SPACING: Record<string, string[]> = {
  p: ['padding'],
  px: ['padding-left', 'padding-right'],
  py: ['padding-top', 'padding-bottom'],
  pt: ['padding-top'],
  pr: ['padding-right'],
  pb: ['padding-bottom'],
  pl: ['padding-left'],
  m: ['margin'],
  mx: ['margin-left', 'margin-right'],
  my: ['margin-top', 'margin-bottom'],
  mt: ['margin-top'],
  mr: ['margin-right'],
  mb: ['margin-bottom'],
  ml: ['margin-left'],
  w: ['width'],
  'max-w': ['max-width'],
  h: ['height'],
};

const FONT_SIZES: Record<string, string> = {
  xs: '12px',
  sm: '14px',
  base: '16px',
  lg: '18px',
  xl: '20px',
  '2xl': '24px',
  '3xl': '30px',
  '4xl': '36px',
  '5xl': '48px',
  '6xl': '60px',
};

const WEIGHTS: Record<string, string> = {
  thin: '100',
  extralight: '200',
  light: '300',
  normal: '400',
  medium: '500',
  semibold: '600',
  bold: '700',
  extrabold: '800',
  black: '900',
};

const LEADING: Record<string, string> = { none: '1', tight: '1.25', snug: '1.375', normal: '1.5', relaxed: '1.625', loose: '2' };

const RADII: Record<string, string> = {
  none: '0px',
  xs: '2px',
  sm: '4px',
  '': '4px',
  md: '6px',
  lg: '8px',
  xl: '12px',
  '2xl': '16px',
  '3xl': '24px',
  full: '9999px',
};

/** Classes that set one declaration as they are. */
const FIXED: Record<string, Style> = {
  'text-left': { 'text-align': 'left' },
  'text-center': { 'text-align': 'center' },
  'text-right': { 'text-align': 'right' },
  uppercase: { 'text-transform': 'uppercase' },
  lowercase: { 'text-transform': 'lowercase' },
  capitalize: { 'text-transform': 'capitalize' },
  underline: { 'text-decoration': 'underline' },
  'line-through': { 'text-decoration': 'line-through' },
  'no-underline': { 'text-decoration': 'none' },
  italic: { 'font-style': 'italic' },
  'not-italic': { 'font-style': 'normal' },
  'font-sans': { 'font-family': 'ui-sans-serif, system-ui, sans-serif' },
  'font-serif': { 'font-family': 'ui-serif, Georgia, serif' },
  'font-mono': { 'font-family': 'ui-monospace, monospace' },
  hidden: { display: 'none' },
  block: { display: 'block' },
  'inline-block': { display: 'inline-block' },
  'w-full': { width: '100%' },
  'border-solid': { 'border-style': 'solid' },
  border: { 'border-width': '1px' },
};

/** A colour of the theme (`gray-600`, `white`, `[#0f172a]`, `blue-500/50` without its alpha), or undefined. */
function colourOf(name: string, theme: TailwindTheme | undefined): string | undefined {
  const own = theme?.colors[name];
  if (typeof own === 'string') return own;
  const arbitrary = /^\[(#[0-9a-fA-F]{3,8}|rgba?\([^\]]+\))\]$/.exec(name);
  if (arbitrary !== null) return arbitrary[1]!.replaceAll('_', ' ');
  if (name === 'white') return '#ffffff';
  if (name === 'black') return '#000000';
  if (name === 'transparent') return 'transparent';
  const shade = /^([a-z]+)-(\d+)$/.exec(name);
  if (shade === null) return undefined;
  const index = TAILWIND_SHADES.indexOf(Number(shade[2]) as (typeof TAILWIND_SHADES)[number]);
  const family = TAILWIND_PALETTE[shade[1]!];
  return family === undefined || index < 0 ? undefined : `#${family.split(' ')[index]}`;
}

/** A length of the theme: a spacing step (`4` is 16 px), `px`, `auto`, `full` or an arbitrary `[20px]`. */
function lengthOf(value: string, theme: TailwindTheme | undefined): string | undefined {
  const own = theme?.spacing[value];
  if (typeof own === 'string') return own;
  if (/^\d+(\.\d+)?$/.test(value)) return `${Number(value) * 4}px`;
  if (value === 'px') return '1px';
  if (value === 'auto') return 'auto';
  if (value === 'full') return '100%';
  const arbitrary = /^\[(-?\d+(?:\.\d+)?(?:px|rem|em|%)?)\]$/.exec(value);
  return arbitrary?.[1];
}

/** One class as the declarations it sets, or undefined for one not known. */
function classStyle(name: string, theme: TailwindTheme | undefined): Style | undefined {
  const fixed = FIXED[name];
  if (fixed !== undefined) return fixed;
  const negative = name.startsWith('-');
  const bare = negative ? name.slice(1) : name;
  const dash = bare.indexOf('-');
  if (dash < 0) return name === 'rounded' ? { 'border-radius': RADII['']! } : undefined;
  for (const prefix of ['max-w', ...Object.keys(SPACING)]) {
    if (!bare.startsWith(`${prefix}-`)) continue;
    const length = lengthOf(bare.slice(prefix.length + 1), theme);
    if (length === undefined) return undefined;
    const value = negative ? `-${length}` : length;
    return Object.fromEntries(SPACING[prefix]!.map((property) => [property, value]));
  }
  const [head, rest] = [bare.slice(0, dash), bare.slice(dash + 1)];
  switch (head) {
    case 'text': {
      if (FONT_SIZES[rest] !== undefined) return { 'font-size': FONT_SIZES[rest]! };
      const size = /^\[(\d+(?:\.\d+)?(?:px|rem|em))\]$/.exec(rest);
      if (size !== null) return { 'font-size': size[1]! };
      const colour = colourOf(rest, theme);
      return colour === undefined ? undefined : { color: colour };
    }
    case 'bg': {
      const colour = colourOf(rest, theme);
      return colour === undefined ? undefined : { 'background-color': colour };
    }
    case 'border': {
      const colour = colourOf(rest, theme);
      if (colour !== undefined) return { 'border-color': colour };
      const width = /^(\d+)$/.exec(rest) ?? /^\[(\d+)px\]$/.exec(rest);
      return width === null ? undefined : { 'border-width': `${width[1]}px` };
    }
    case 'font':
      return WEIGHTS[rest] === undefined ? undefined : { 'font-weight': WEIGHTS[rest]! };
    case 'leading': {
      const arbitrary = /^\[([\d.]+(?:px|rem|em|%)?)\]$/.exec(rest);
      return LEADING[rest] !== undefined ? { 'line-height': LEADING[rest]! } : arbitrary === null ? undefined : { 'line-height': arbitrary[1]! };
    }
    case 'rounded': {
      const arbitrary = /^\[(\d+(?:px|rem|em|%))\]$/.exec(rest);
      return RADII[rest] !== undefined ? { 'border-radius': RADII[rest]! } : arbitrary === null ? undefined : { 'border-radius': arbitrary[1]! };
    }
    default:
      return undefined;
  }
}

/** A className as the styles Tailwind gives it, and the classes it could not resolve. */
export function tailwindStyle(className: string, theme?: TailwindTheme): { style: Style; unresolved: string[] } {
  const style: Style = {};
  const unresolved: string[] = [];
  for (const name of className.split(/\s+/).filter(Boolean)) {
    const declared = classStyle(name, theme);
    if (declared === undefined) unresolved.push(name);
    else Object.assign(style, declared);
  }
  return { style, unresolved };
}

/**
 * The `<Tailwind>` wrappers a React template's element is read inside: inside one, a className is
 * the styles Tailwind gives it (outside, a class has no stylesheet), each class not resolved listed
 * once, at its first place.
 */
export class TailwindClasses {
  private depth = 0;
  private theme: TailwindTheme | undefined;
  private readonly listed = new Set<string>();

  constructor(private readonly findings: Findings) {}

  /** The theme a wrapper's `config` literal gives (tailwindTheme's). */
  configure(theme: TailwindTheme): void {
    this.theme = theme;
  }

  /** What a wrapper holds, read inside it. */
  within<T>(read: () => T): T {
    this.depth += 1;
    try {
      return read();
    } finally {
      this.depth -= 1;
    }
  }

  /** A className's styles, its text read only inside a wrapper. */
  style(className: () => string, at: Place): Style {
    if (this.depth === 0) return {};
    const { style, unresolved } = tailwindStyle(className(), this.theme);
    for (const name of unresolved) {
      if (this.listed.has(name)) continue;
      this.listed.add(name);
      this.findings.add(
        at,
        `the Tailwind class ${name}`,
        'dropped',
        'not resolved: no style of the default theme carried for it',
        /:/.test(name)
          ? 'a variant (sm:, hover:, dark:) has no LMX form: LMX emails fit mobile by themselves; set what it changes on the block if it matters'
          : 'set what it does on the converted block (colour, size, padding) or in the theme (<Style />)',
      );
    }
    return style;
  }
}
