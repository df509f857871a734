/** `loopsctl undo`: see src/areas/change/undo.ts, which makes the inverse plan through the kinds of its records. */
import { type Handler, handler } from '../../core/capabilities.js';
import { changeAccount, type UndoOptions, undoChange } from '../change/undo.js';
import { PLAN_KINDS } from '../plan-kinds.js';

// --live raises the run's tier (its declaration): the yes the apply of a live workflow's undo needs.
export const undo: Handler<[string | undefined], UndoOptions> = handler(
  ['out', 'client', 'key', 'files', 'clock', 'config', 'prompts', 'globals'],
  async (context, [change], options) => undoChange(context, change, options, PLAN_KINDS),
  // Undone in the account it changed, when the command line names none. The inverse, its impact and its apply share one read
  // of each record, as a push's steps do.
  { account: (context, [change]) => changeAccount(context, change, PLAN_KINDS), readsOnce: true },
);
