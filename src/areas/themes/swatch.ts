/** A block of a colour beside its hex code, for colour terminals. */
import type { Style } from '../../render/style.js';

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/**
 * `shown` with a swatch of `colour` before it, or `shown` alone when `colour` is not a hex code.
 * Callers paint only when the Output decided on colour, so `style` is chalk at the 256-colour
 * level, which every colour terminal shows close to the exact colour.
 */
export function swatch(style: Style, colour: string, shown: string): string {
  return HEX.test(colour) ? `${style.bgHex(colour)('  ')} ${shown}` : shown;
}
