/** A block of a colour beside its hex code, for colour terminals. */
import { Chalk } from 'chalk';

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

// The 256-colour level that styleFor uses: every colour terminal shows it, close to the exact colour.
// Callers paint only when the Output decided on colour.
const palette = new Chalk({ level: 2 });

/** `shown` with a swatch of `colour` before it, or `shown` alone when `colour` is not a hex code. */
export function swatch(colour: string, shown: string): string {
  return HEX.test(colour) ? `${palette.bgHex(colour)('  ')} ${shown}` : shown;
}
