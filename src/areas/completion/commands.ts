/** What the `completion` commands do: print the script made from the declared command tree. */

import { type Handler, handler } from '../../core/capabilities.js';
import type { Spec } from '../../core/declare.js';
import { completionScriptOf } from './made.js';
import type { Shell } from './scripts.js';

export function script(shell: Shell, tree: () => Promise<Spec[]>): Handler {
  return handler(['out'], async (context) => {
    await context.out.write(await completionScriptOf(shell, tree));
  });
}
