/** What `loopsctl commands` does: the declared commands, as data or as a list to read. */

import { type Handler, handler } from '../../core/capabilities.js';
import type { Spec } from '../../core/declare.js';
import { GLOBAL_OPTIONS } from '../../core/program.js';
import { commandTree } from './model.js';
import { renderCommandList } from './render.js';

export function commandsOf(tree: Spec[]): Handler {
  return handler(['out'], async (context) => {
    await context.out.present(commandTree(tree, GLOBAL_OPTIONS), renderCommandList);
  });
}
