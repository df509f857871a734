/** CSS as email sources write it (inline `style`, MJML's attributes), read into what LMX's attributes take. */
import colourNames from 'color-name';
import type { Findings, NarrowStyle, Place, SourceElement, Style } from './model.js';

/**
 * A value that gives a property back to what the element inherits (`color: inherit`, which
 * Foundation writes on every heading) or would have had: read as if the style did not declare it.
 */
export const givesBack = (value: string): boolean => /^(inherit|unset|revert|revert-layer)$/i.test(value.trim());

/** A declaration as a stylesheet or a `style` attribute writes it. */
export interface Declared {
  property: string;
  value: string;
  important: boolean;
}

/** `color: red !important; padding: 0` as its declarations, in order. */
export function declarationsOf(text: string | undefined): Declared[] {
  const declared: Declared[] = [];
  for (const declaration of (text ?? '').split(';')) {
    const colon = declaration.indexOf(':');
    if (colon < 0) continue;
    const property = declaration.slice(0, colon).trim().toLowerCase();
    const written = declaration.slice(colon + 1);
    const value = written.replace(/!\s*important/i, '').trim();
    if (property !== '' && value !== '') declared.push({ property, value, important: value !== written.trim() });
  }
  return declared;
}

/** `color: red; font-size: 14px` -> { color: 'red', 'font-size': '14px' }; `!important` dropped, as is a value that gives the property back. */
export function parseStyle(text: string | undefined): Style {
  return Object.fromEntries(declarationsOf(text).flatMap(({ property, value }) => (givesBack(value) ? [] : [[property, value]])));
}

const hex2 = (value: number) =>
  Math.max(0, Math.min(255, Math.round(value)))
    .toString(16)
    .padStart(2, '0');

const RGB = /^rgba?\(\s*(\d+(?:\.\d+)?)\s*,?\s*(\d+(?:\.\d+)?)\s*,?\s*(\d+(?:\.\d+)?)\s*(?:[,/]\s*([\d.]+%?))?\s*\)$/;

/** The opacity a colour is written with (`rgba(0, 0, 0, 0.5)` is 0.5, `#00000080` too), or undefined for an opaque one. */
export function alphaOf(value: string | undefined): number | undefined {
  const colour = value?.trim().toLowerCase() ?? '';
  const written = RGB.exec(colour)?.[4] ?? (/^#[0-9a-f]{8}$/.test(colour) ? String(Number.parseInt(colour.slice(7), 16) / 255) : undefined);
  if (written === undefined) return undefined;
  const alpha = written.endsWith('%') ? Number.parseFloat(written) / 100 : Number.parseFloat(written);
  return alpha >= 1 ? undefined : Math.max(0, alpha);
}

/**
 * A CSS colour as LMX's hex form (`#fa8739`), or undefined for one it cannot hold (transparent, a
 * gradient, a variable). A colour with an opacity is the hex it shows as on `over` (white unless
 * the background is known): `rgba(0, 0, 0, 0.5)` on white is #808080, not black.
 */
export function hexColour(value: string | undefined, over = '#ffffff'): string | undefined {
  if (value === undefined) return undefined;
  const colour = value.trim().toLowerCase();
  if (/^#[0-9a-f]{6}$/.test(colour) || /^#[0-9a-f]{3}$/.test(colour)) return colour;
  const rgb = RGB.exec(colour);
  const eight = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})[0-9a-f]{2}$/.exec(colour);
  const channels =
    rgb !== null ? [rgb[1], rgb[2], rgb[3]].map(Number) : eight !== null ? [eight[1], eight[2], eight[3]].map((part) => Number.parseInt(part!, 16)) : undefined;
  if (channels === undefined) {
    // CSS's named colours (`lightblue`, `rebeccapurple`), as the color-name package lists CSS Color's table.
    const named = Object.hasOwn(colourNames, colour) ? colourNames[colour as keyof typeof colourNames] : undefined;
    return named === undefined ? undefined : `#${named.map(hex2).join('')}`;
  }
  const alpha = alphaOf(colour) ?? 1;
  if (alpha === 0) return undefined;
  const full = sixDigits(hexColour(over) ?? '#ffffff');
  const under = [1, 3, 5].map((start) => Number.parseInt(full.slice(start, start + 2), 16));
  return `#${channels.map((channel, index) => hex2(channel! * alpha + under[index]! * (1 - alpha))).join('')}`;
}

/** A hex colour of three digits written with six (`#fff` is `#ffffff`), so that two spellings of one colour compare equal. */
export const sixDigits = (hex: string) => (hex.length === 4 ? `#${hex[1]}${hex[1]}${hex[2]}${hex[2]}${hex[3]}${hex[3]}` : hex);

/** A colour written with an opacity, which LMX's opaque colours cannot hold: listed once, with the hex it was written as. */
export function listAlpha(findings: Findings, written: string | undefined, hex: string | undefined, over: string | undefined, at: Place): void {
  const alpha = alphaOf(written);
  if (alpha === undefined || hex === undefined) return;
  const construct = `the colour ${written!.trim()}`;
  if (findings.remediation.some((item) => item.construct === construct)) return;
  findings.add(
    at,
    construct,
    'approximated',
    `written as ${hex}, as it shows at ${Math.round(alpha * 100)}% opacity on ${over ?? '#ffffff'}`,
    'LMX colours are opaque: check it against its background in the preview',
  );
}

/** A length in pixels (`14px`, `14`, `1.5em` at 16 px), or undefined for one that is not (a percentage, auto). */
export function pixels(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(-?\d+(?:\.\d+)?)(px|em|rem|pt)?$/.exec(value.trim().toLowerCase());
  if (match === null) return undefined;
  const number = Number(match[1]);
  const factor = match[2] === 'em' || match[2] === 'rem' ? 16 : match[2] === 'pt' ? 4 / 3 : 1;
  return Math.round(number * factor);
}

/** CSS's step of `smaller` and `larger`, the sizes a browser gives <small> and <big>. */
const SIZE_STEP = 1.2;

/**
 * The size in pixels a `font-size` gives text inside a parent of `parent` px: a length, or one
 * relative to the parent (`em`, `%`, `smaller`, `larger`); `name`'s own where none is written (a
 * `<small>` is `smaller`).
 */
export function fontSizeWithin(written: string | undefined, parent: number, name = ''): number {
  const value = written?.trim().toLowerCase() ?? (name === 'small' ? 'smaller' : name === 'big' ? 'larger' : 'inherit');
  if (value === 'smaller') return parent / SIZE_STEP;
  if (value === 'larger') return parent * SIZE_STEP;
  const relative = /^(\d*\.?\d+)(em|%)$/.exec(value);
  if (relative !== null) return (Number(relative[1]) * parent) / (relative[2] === '%' ? 100 : 1);
  return pixels(value) ?? parent;
}

/**
 * Whether a style hides what it holds, as preheaders are hidden: `display: none`, `visibility:
 * hidden`, `opacity: 0`, or a height of 0 with what overflows it hidden. (A font size of 0 is no
 * sign: layouts set it on the box around inline-block columns. Nor is `mso-hide: all`: Outlook
 * alone hides it, and every other client draws it, as templates draw a button Outlook gets as VML.)
 */
export function hidesContent(style: Style): boolean {
  const zero = (value: string | undefined) => value !== undefined && /^0(\.0+)?(px|em|rem|pt|%)?$/i.test(value.trim());
  return (
    style.display?.trim().toLowerCase() === 'none' ||
    style.visibility?.trim().toLowerCase() === 'hidden' ||
    zero(style.opacity) ||
    ((zero(style['max-height']) || zero(style.height)) && style.overflow?.trim().toLowerCase() === 'hidden')
  );
}

/** A border's line styles that draw a line (`none` and `hidden` draw none). */
const LINE_STYLE = /\b(solid|dashed|dotted|double|groove|ridge|inset|outset)\b/i;

/** Whether a border, as written (`1px solid #eee`), draws a line: a line style given, a width not 0, a colour not transparent. */
function drawsLine(value: string): boolean {
  const widths = value
    .split(/\s+/)
    .map(pixels)
    .filter((width) => width !== undefined);
  return LINE_STYLE.test(value) && !/\btransparent\b/i.test(value) && (widths.length === 0 || widths.some((width) => width > 0));
}

/**
 * The borders a box draws, as written (`border 1px solid #eaeaea`, `border-top 1px solid #edeff2`):
 * the shorthand or its width, style and colour (Tailwind's `border border-solid border-[#eaeaea]`),
 * and each side's own; none where no line is drawn.
 */
export function drawnBorders(style: Style): string[] {
  const whole =
    style.border ??
    (['border-width', 'border-style', 'border-color']
      .map((property) => style[property])
      .filter(Boolean)
      .join(' ') ||
      undefined);
  const written = [
    ...(whole === undefined ? [] : [['border', whole]]),
    ...['top', 'right', 'bottom', 'left'].flatMap((side) => (style[`border-${side}`] === undefined ? [] : [[`border-${side}`, style[`border-${side}`]!]])),
  ];
  return written.filter(([, value]) => drawsLine(value!)).map(([property, value]) => `${property} ${value!.trim()}`);
}

/** One side's border as a browser resolves it: its width in pixels, its line style, its colour as written. */
export interface Side {
  width: number;
  style: string;
  colour?: string;
}

/** A border width as written (`2px`, `thin`), in pixels. */
function borderWidth(value: string): number | undefined {
  return { thin: 1, medium: 3, thick: 5 }[value.toLowerCase()] ?? pixels(value);
}

/** The parts of a border shorthand (`1px solid rgb(0, 0, 0)`), a colour's parentheses kept whole. */
const partsOf = (value: string) => value.trim().split(/\s+(?![^(]*\))/);

/** A border shorthand (`1px solid #eee`) as a side: what it leaves out is the initial value (3 px, no line, the text's colour). */
export function borderSide(value: string): Side {
  const side: Side = { width: 3, style: 'none' };
  for (const part of partsOf(value)) {
    if (/^(none|hidden|solid|dashed|dotted|double|groove|ridge|inset|outset)$/i.test(part)) side.style = part.toLowerCase();
    else if (borderWidth(part) !== undefined) side.width = borderWidth(part)!;
    else side.colour = part;
  }
  return side;
}

/**
 * The line a divider (`<hr>`, React Email's `<Hr>`, MJML's `<mj-divider>`) draws, as a browser
 * draws it: its top and bottom borders (each side's own, the shorthand's, `border-width`…, the
 * last written winning) and a height filled with its background colour, one on the other;
 * undefined where its style sets no border, as a plain `<hr>`.
 */
export function dividerLine(style: Style): { thickness: number; colour?: string; parts: string[]; solid: boolean } | undefined {
  // A browser's own style for <hr>: a 1 px inset line of grey on each side, which a style that sets only the top leaves below it.
  const sides: Record<'top' | 'bottom', Side> = { top: { width: 1, style: 'inset', colour: 'gray' }, bottom: { width: 1, style: 'inset', colour: 'gray' } };
  let written = false;
  for (const [property, value] of Object.entries(style)) {
    const match = /^border(?:-(top|bottom|left|right))?(?:-(width|style|color))?$/.exec(property);
    if (match === null || match[1] === 'left' || match[1] === 'right') continue;
    written = true;
    const targets = match[1] === undefined ? (['top', 'bottom'] as const) : [match[1] as 'top' | 'bottom'];
    for (const target of targets) {
      // A shorthand of several values (`border-width: 1px 0 2px`) gives the top its first and the bottom its third.
      const parts = partsOf(value);
      const part = match[1] === undefined ? (target === 'top' ? parts[0] : (parts[2] ?? parts[0])) : value.trim();
      if (part === undefined) continue;
      if (match[2] === undefined) sides[target] = borderSide(value);
      else if (match[2] === 'width') sides[target].width = borderWidth(part) ?? sides[target].width;
      else if (match[2] === 'style') sides[target].style = part.toLowerCase();
      else sides[target].colour = part;
    }
  }
  const filled = pixels(style.height) ?? 0;
  const fill = style['background-color'] ?? style.background;
  // An <hr> of no border and no fill of its own draws the browser's line, which LMX's theme draws otherwise.
  if (!written && filled > 0 && fill !== undefined) sides.top.width = sides.bottom.width = 0;
  const lines = (['top', 'bottom'] as const).filter((side) => sides[side].width > 0 && !/^(none|hidden)$/.test(sides[side].style));
  const parts = lines.map(
    (side) => `border-${side} ${sides[side].width}px ${sides[side].style}${sides[side].colour === undefined ? '' : ` ${sides[side].colour}`}`,
  );
  if (filled > 0 && fill !== undefined && hexColour(fill) !== undefined) parts.push(`a height of ${filled}px in ${fill}`);
  const thickness = lines.reduce((sum, side) => sum + sides[side].width, 0) + (parts.length > lines.length ? filled : 0);
  const colour = lines.length > 0 ? (sides[lines[0]!].colour ?? style.color) : fill;
  return { thickness, colour, parts, solid: lines.every((side) => sides[side].style === 'solid') };
}

/** The four sides of a `padding` or `margin` shorthand, in pixels. */
export function sides(value: string | undefined): [number, number, number, number] | undefined {
  if (value === undefined) return undefined;
  const parts = value.trim().split(/\s+/).map(pixels);
  if (parts.length === 0 || parts.length > 4 || parts.some((part) => part === undefined)) return undefined;
  const [top, right = top, bottom = top, left = right] = parts as number[];
  return [top!, right!, bottom!, left!];
}

/** A style's padding or margin in pixels, top, right, bottom and left: each side its own (`padding-top`) or the shorthand's; undefined where neither says. */
export function boxSides(style: Readonly<Record<string, string>>, box: 'padding' | 'margin'): (number | undefined)[] {
  const shorthand = sides(style[box]);
  return (['top', 'right', 'bottom', 'left'] as const).map((name, index) => pixels(style[`${box}-${name}`]) ?? shorthand?.[index]);
}

/** The vertical space a style puts above and below its element: padding and margin, each side its own or the shorthand's. */
export function verticalSpace(style: Style): { top: number; bottom: number } {
  const [padding, margin] = [boxSides(style, 'padding'), boxSides(style, 'margin')];
  const side = (index: 0 | 2) => Math.max(0, padding[index] ?? 0) + Math.max(0, margin[index] ?? 0);
  return { top: side(0), bottom: side(2) };
}

/** A line height as LMX's percentage (`1.5` and `150%` -> 150; `24px` at a font size of 16 -> 150). */
export function lineHeightPercent(value: string | undefined, fontSize: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 100);
  if (trimmed.endsWith('%')) return Math.round(Number.parseFloat(trimmed));
  if (/^\d+(\.\d+)?r?em$/.test(trimmed)) return Math.round(Number.parseFloat(trimmed) * 100);
  const px = pixels(trimmed);
  return px === undefined ? undefined : Math.round((px / (fontSize ?? 16)) * 100);
}

/**
 * The names of a stack that are no family a theme can name: the reader's own system font
 * (`-apple-system`, `BlinkMacSystemFont`, `system-ui`, `"Segoe UI"`, Tailwind's `ui-sans-serif`)
 * and its emoji fonts, which stand for whatever the reader's system draws with.
 */
const SYSTEM_FONT =
  /^(-.*|blinkmacsystemfont|system-ui|ui-(sans-serif|serif|monospace|rounded)|segoe ui( emoji| symbol)?|apple color emoji|noto color emoji|inherit)$/i;

/** A font name a theme's bodyFontFamily takes (letters, digits, spaces: src/lmx/theme.ts). */
const THEME_FONT = /^[A-Za-z0-9][A-Za-z0-9 _-]{0,63}$/;

/** The category a system alias stands for (`ui-serif` is the system's serif font). */
const ALIAS_CATEGORY: Record<string, string> = { 'ui-sans-serif': 'sans-serif', 'ui-serif': 'serif', 'ui-monospace': 'monospace' };

/**
 * The family of a font stack a theme can use (`'Helvetica Neue', Arial` -> Helvetica Neue): its
 * first, past the system's own fonts and names a theme cannot hold, which are `skipped`; and its
 * generic category, or the one a system alias stands for.
 */
export function fontOf(stack: string | undefined): { family?: string; category?: string; skipped: string[] } {
  if (stack === undefined) return { skipped: [] };
  const families = stack
    .split(',')
    .map((family) => family.trim().replace(/^['"]|['"]$/g, ''))
    .filter((family) => family !== '');
  const generic = families.find((family) => ['serif', 'sans-serif', 'monospace'].includes(family.toLowerCase()));
  const named = families.filter((family) => family !== generic);
  const chosen = named.findIndex((name) => !SYSTEM_FONT.test(name) && THEME_FONT.test(name));
  const skipped = chosen < 0 ? named.filter((name) => !/^inherit$/i.test(name)) : named.slice(0, chosen);
  const alias = skipped.map((name) => ALIAS_CATEGORY[name.toLowerCase()]).find((category) => category !== undefined);
  return { family: chosen < 0 ? undefined : named[chosen], category: generic?.toLowerCase() ?? alias, skipped };
}

/** `text-align` or an `align` attribute, as LMX's align (`-webkit-center`, the alignment an `align` attribute gives, as its side). */
export function alignOf(value: string | undefined): 'left' | 'center' | 'right' | undefined {
  const align = value
    ?.trim()
    .toLowerCase()
    .replace(/^-webkit-/, '');
  return align === 'left' || align === 'center' || align === 'right' ? align : undefined;
}

/** Whether a style sets a background image (`background: url(...)`, `background-image`). */
export function backgroundImageOf(style: Style, attrs: Record<string, string>): string | undefined {
  const url = /url\(\s*['"]?([^'")]+)['"]?\s*\)/.exec(`${style['background-image'] ?? ''} ${style.background ?? ''}`);
  return url?.[1] ?? attrs.background ?? attrs['background-url'];
}

/** The background colour of a style or a `bgcolor` attribute; else a gradient's first colour, which stands for it. */
export function backgroundOf(style: Style, attrs: Record<string, string>, over?: string): string | undefined {
  return (
    hexColour(style['background-color'], over) ??
    hexColour(
      style.background?.split(/\s+(?![^(]*\))/).find((part) => hexColour(part) !== undefined),
      over,
    ) ??
    hexColour(attrs.bgcolor, over) ??
    firstStop(gradientOf(style), over)
  );
}

const GRADIENT = /(?:repeating-)?(?:linear|radial|conic)-gradient\(/i;

/** A style's background gradient as written (`linear-gradient(#1f2937, #111827)`), or undefined. */
export function gradientOf(style: Style): string | undefined {
  for (const value of [style['background-image'], style.background]) {
    const match = value === undefined ? null : GRADIENT.exec(value);
    if (value === undefined || match === null) continue;
    let depth = 0;
    for (let at = match.index + match[0].length - 1; at < value.length; at += 1) {
      if (value[at] === '(') depth += 1;
      else if (value[at] === ')' && --depth === 0) return value.slice(match.index, at + 1);
    }
  }
  return undefined;
}

/** A gradient's first colour: its direction and positions (`to right`, `45deg`, `30%`) are no colours. */
export function firstStop(gradient: string | undefined, over?: string): string | undefined {
  if (gradient === undefined) return undefined;
  const inside = gradient.slice(gradient.indexOf('(') + 1, -1);
  for (const part of inside.split(/[\s,]+(?![^(]*\))/)) {
    const colour = hexColour(part, over);
    if (colour !== undefined) return colour;
  }
  return undefined;
}

/** Elements whose content no reader sees. */
export const UNSEEN = new Set(['head', 'style', 'script', 'title', 'template', 'noscript']);

/** Why CSS hides an element, or undefined where it shows. */
export function hiddenBy(node: SourceElement): string | undefined {
  const style = node.style;
  if (style.display?.trim().toLowerCase() === 'none') return 'display:none';
  if (style.visibility?.trim().toLowerCase() === 'hidden') return 'visibility:hidden';
  if (pixels(style['font-size']) === 0) return 'a zero font size';
  if (style.opacity !== undefined && Number(style.opacity) === 0) return 'opacity:0';
  if (pixels(style['max-height']) === 0 && /hidden/i.test(style.overflow ?? '')) return 'a zero height';
  if (node.attrs.hidden !== undefined) return 'the hidden attribute';
  return undefined;
}

/** The widest screen on which a media query shows an element hidden on a wide one (a menu or a note written for phones). */
export function shownOnPhoneUpTo(node: SourceElement): number | undefined {
  return node.narrow?.find((entry) => !hidesContent(styleAt(node, entry.upTo)))?.upTo;
}

/** An element's style on a screen of a width: its own, with what its media queries change there. */
export function styleAt(node: SourceElement, viewport: number): Style {
  let applies: NarrowStyle | undefined;
  // Each entry holds every rule whose query holds at its width: the narrowest at least as wide as the screen holds them all.
  for (const entry of node.narrow ?? []) if (viewport <= entry.upTo && (applies === undefined || entry.upTo < applies.upTo)) applies = entry;
  if (applies === undefined) return node.style;
  const style = { ...node.style };
  for (const property of applies.unset) delete style[property];
  return Object.assign(style, applies.set);
}
