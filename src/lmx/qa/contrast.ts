/**
 * Contrast as WCAG 2.1 defines it (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio): "(L1 + 0.05) /
 * (L2 + 0.05), where L1 is the relative luminance of the lighter of the colors, and L2 is the relative
 * luminance of the darker", each luminance from the sRGB channels
 * (https://www.w3.org/TR/WCAG21/#dfn-relative-luminance). A colour with an alpha channel is laid over
 * what is under it first, as a client draws it.
 */

export interface Rgba {
  r: number;
  g: number;
  b: number;
  /** 0 to 1. */
  a: number;
}

/** A hex colour (#rgb, #rgba, #rrggbb, #rrggbbaa), or undefined. */
export function parseHex(value: string): Rgba | undefined {
  const hex = /^#([0-9a-f]{3,8})$/i.exec(value.trim())?.[1];
  if (hex === undefined || ![3, 4, 6, 8].includes(hex.length)) return undefined;
  const wide = hex.length <= 4 ? [...hex].map((digit) => digit + digit).join('') : hex;
  const channel = (index: number) => Number.parseInt(wide.slice(index * 2, index * 2 + 2), 16);
  return { r: channel(0), g: channel(1), b: channel(2), a: wide.length === 8 ? channel(3) / 255 : 1 };
}

/** `top` drawn over an opaque `under`. */
export function over(top: Rgba, under: Rgba): Rgba {
  const mix = (a: number, b: number) => Math.round(a * top.a + b * (1 - top.a));
  return { r: mix(top.r, under.r), g: mix(top.g, under.g), b: mix(top.b, under.b), a: 1 };
}

function luminance({ r, g, b }: Rgba): number {
  const linear = (channel: number) => {
    const value = channel / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** The contrast ratio of a foreground over an opaque background, 1 to 21. */
export function contrastRatio(foreground: Rgba, background: Rgba): number {
  const [light, dark] = [luminance(over(foreground, background)), luminance(background)].sort((a, b) => b - a) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * WCAG 2.1's large text (https://www.w3.org/TR/WCAG21/#dfn-large-scale): "at least 18 point or 14
 * point bold", 24 and 18.66 CSS pixels; it needs 3:1 where other text needs 4.5:1 (1.4.3).
 */
export function minimumContrast(fontSizePx: number, bold: boolean): number {
  return fontSizePx >= 24 || (bold && fontSizePx >= 18.66) ? 3 : 4.5;
}
