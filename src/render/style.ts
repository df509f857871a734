/** Colour for text output, at the level the Output decided on; a no-op palette when it is off. */
import { Chalk, type ChalkInstance } from 'chalk';
import type { Output } from './output.js';

export type Style = ChalkInstance;

export function styleFor(out: Output): Style {
  return new Chalk({ level: out.color ? 2 : 0 });
}
