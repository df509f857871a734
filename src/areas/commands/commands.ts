/** What `loopsctl commands` does: the declared commands, as data or as a list to read. */
import type { Handler } from '../../core/declare.js';
import { GLOBAL_OPTIONS } from '../../core/program.js';
import { specs } from '../registry.js';
import { commandTree } from './model.js';
import { renderCommandList } from './render.js';

export const commands: Handler = async (context) => {
  await context.out.present(commandTree(specs, GLOBAL_OPTIONS), renderCommandList);
};
