/**
 * chalk, loaded by Output.loadPalette() only when colour is on. A module of its own, so that the
 * build loads it as it loads its other modules, never through import() of a vendored file.
 */
import { Chalk } from 'chalk';
import type { Style } from './style.js';

export function colourPalette(): Style {
  return new Chalk({ level: 2 });
}
