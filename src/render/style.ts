/** Colour for text output, at the level the Output decided on; a no-op palette when it is off. */
import type { ChalkInstance } from 'chalk';
import { InternalError } from '../base/errors.js';

export type Style = ChalkInstance;

/** chalk's colour models, which take a colour and return a style. */
const MODELS = new Set<PropertyKey>(['rgb', 'hex', 'ansi256', 'bgRgb', 'bgHex', 'bgAnsi256']);

/**
 * What chalk does with colour off, without loading chalk: every style, however chained, returns
 * its texts joined by spaces and unchanged.
 */
function plainPalette(): Style {
  const paint = (...texts: unknown[]) => texts.join(' ');
  const palette: Style = new Proxy(paint, { get: (_target, name) => (MODELS.has(name) ? () => palette : palette) }) as unknown as Style;
  return palette;
}

const PLAIN = plainPalette();

/** The palette of an output (an Output: its colour level and the palette it loaded). */
export function styleFor(out: { readonly color: boolean; readonly palette?: Style }): Style {
  if (!out.color) return PLAIN;
  if (out.palette === undefined) throw new InternalError('colour is on, but its palette was not loaded before output');
  return out.palette;
}
