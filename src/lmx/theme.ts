/**
 * The styles an email is rendered with: a theme's styles (the Theme record's `styles`), under the
 * email's `<Style />` overrides, over the platform's default theme. Every value is checked for its
 * kind before it can reach CSS: a colour is a hex code, a size a finite number, a font a name of
 * letters, digits and spaces. A value that is not is dropped (and reported), so a theme holding
 * `red;background:url(javascript:…)` never writes anything into a style attribute.
 */
import { DEFAULT_THEME_STYLES } from '../platform/themes/default-theme.js';
import type { LmxElement } from './parse.js';

/** The styles a renderer reads, each a safe CSS value or absent. */
export interface EmailStyles {
  backgroundColor: string;
  backgroundXPadding: number;
  backgroundYPadding: number;
  bodyColor: string;
  bodyXPadding: number;
  bodyYPadding: number;
  fontFamily: string;
  borderColor: string;
  borderWidth: number;
  borderRadius: number;
  buttonBodyColor: string;
  buttonBodyXPadding: number;
  buttonBodyYPadding: number;
  buttonBorderColor: string;
  buttonBorderWidth: number;
  buttonBorderRadius: number;
  buttonTextColor: string;
  buttonTextBold: boolean;
  buttonTextFontSize: number;
  dividerColor: string;
  dividerBorderWidth: number;
  text: TextStyle;
  textLinkColor: string;
  heading1: TextStyle;
  heading2: TextStyle;
  heading3: TextStyle;
}

export interface TextStyle {
  color: string;
  fontSize: number;
  /** A CSS line-height: `150%` (the platform's themes give percentages), or `24px` (a theme that gives pixels). */
  lineHeight: string;
  letterSpacing: number;
}

const HEX_COLOUR = /^#(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const FONT_NAME = /^[A-Za-z0-9][A-Za-z0-9 _-]{0,63}$/;
const FONT_CATEGORIES = new Set(['serif', 'sans-serif', 'monospace', 'cursive', 'fantasy', 'system-ui']);
/** The fonts of the editor's "Default" family in each category, before the category itself. */
const DEFAULT_FONTS: Record<string, string[]> = {
  'sans-serif': ['Helvetica', 'Arial'],
  serif: ['Georgia', "'Times New Roman'"],
  monospace: ['Menlo', 'Consolas', "'Courier New'"],
};

/** A colour safe to write into CSS, or undefined. */
export function safeColour(value: unknown): string | undefined {
  return typeof value === 'string' && HEX_COLOUR.test(value.trim()) ? value.trim().toLowerCase() : undefined;
}

/** A finite number (given as a number, or a string of one, as LMX attributes are), within bounds, or undefined. */
export function safeNumber(value: unknown, min = -1000, max = 10_000): number | undefined {
  const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  return Number.isFinite(number) && number >= min && number <= max ? number : undefined;
}

/** A value the renderer could not use, and why. */
export interface DroppedStyle {
  /** `theme style buttonBodyColor`, `<Style /> bodyColor`, `<Button> bgColor`. */
  where: string;
  value: string;
  reason: string;
}

type Source = Readonly<Record<string, unknown>>;

/**
 * A theme's line height as CSS. The platform's themes and exports give percentages (150); the API
 * reference's example theme gives pixels (24). No text is set at under half its size, nor on
 * lines 50 px apart, so a value under 50 is pixels.
 */
function lineHeightCss(value: number): string {
  return value < 50 ? `${value}px` : `${value}%`;
}

/**
 * The styles an email is drawn with: the default theme, then the theme's styles, then the
 * `<Style />` element's attributes, each value checked; what could not be used is in `dropped`.
 */
export function emailStyles(theme: Source | undefined, style: LmxElement | undefined): { styles: EmailStyles; dropped: DroppedStyle[] } {
  const dropped: DroppedStyle[] = [];
  const layers: [string, Source][] = [
    ['theme style', theme ?? {}],
    ['<Style />', Object.fromEntries((style?.attributes ?? []).map((attribute) => [attribute.name, attribute.value]))],
  ];
  const pick = <T>(name: string, check: (value: unknown) => T | undefined, expected: string): T => {
    let chosen = check(DEFAULT_THEME_STYLES[name as keyof typeof DEFAULT_THEME_STYLES]) as T;
    for (const [where, source] of layers) {
      if (!Object.hasOwn(source, name) || source[name] === undefined || source[name] === null || source[name] === '') continue;
      const checked = check(source[name]);
      if (checked === undefined) dropped.push({ where: `${where} ${name}`, value: String(source[name]), reason: `not ${expected}` });
      else chosen = checked;
    }
    return chosen;
  };
  const colour = (name: string) => pick(name, safeColour, 'a hex colour such as #0057ff');
  const size = (name: string) => pick(name, (value) => safeNumber(value, 0, 2000), 'a size in pixels');
  const spacing = (name: string) => pick(name, (value) => safeNumber(value, -20, 100), 'a letter spacing in pixels');
  const text = (prefix: string): TextStyle => ({
    color: colour(`${prefix}Color`),
    fontSize: size(`${prefix}FontSize`),
    lineHeight: lineHeightCss(size(`${prefix}LineHeight`)),
    letterSpacing: spacing(`${prefix}LetterSpacing`),
  });
  const family = pick('bodyFontFamily', (value) => (typeof value === 'string' && FONT_NAME.test(value.trim()) ? value.trim() : undefined), 'a font name');
  const category = pick(
    'bodyFontCategory',
    (value) => (typeof value === 'string' && FONT_CATEGORIES.has(value.trim()) ? value.trim() : undefined),
    'a font category such as sans-serif',
  );
  // "Default" is the editor's name for the category's usual fonts.
  const families = family === 'Default' ? (DEFAULT_FONTS[category] ?? []) : [/\s/.test(family) ? `'${family}'` : family];
  const styles: EmailStyles = {
    backgroundColor: colour('backgroundColor'),
    backgroundXPadding: size('backgroundXPadding'),
    backgroundYPadding: size('backgroundYPadding'),
    bodyColor: colour('bodyColor'),
    bodyXPadding: size('bodyXPadding'),
    bodyYPadding: size('bodyYPadding'),
    fontFamily: [...families, category].join(', '),
    borderColor: colour('borderColor'),
    borderWidth: size('borderWidth'),
    borderRadius: size('borderRadius'),
    buttonBodyColor: colour('buttonBodyColor'),
    buttonBodyXPadding: size('buttonBodyXPadding'),
    buttonBodyYPadding: size('buttonBodyYPadding'),
    buttonBorderColor: colour('buttonBorderColor'),
    buttonBorderWidth: size('buttonBorderWidth'),
    buttonBorderRadius: size('buttonBorderRadius'),
    buttonTextColor: colour('buttonTextColor'),
    // The API documents buttonTextFormat as a number only; the editor's choices are regular (0) and bold.
    buttonTextBold: pick('buttonTextFormat', (value) => safeNumber(value, 0, 10), 'a number') !== 0,
    buttonTextFontSize: size('buttonTextFontSize'),
    dividerColor: colour('dividerColor'),
    dividerBorderWidth: size('dividerBorderWidth'),
    text: text('textBase'),
    textLinkColor: colour('textLinkColor'),
    heading1: text('heading1'),
    heading2: text('heading2'),
    heading3: text('heading3'),
  };
  return { styles, dropped };
}
