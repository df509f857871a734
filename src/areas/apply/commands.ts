/** `loopsctl apply`: see src/areas/change/apply.ts, which plays the plan through the kinds of its units. */
import { type Handler, handler } from '../../core/capabilities.js';
import { applyPlan } from '../change/apply.js';
import { planAccount } from '../change/plan-file.js';
import { PLAN_KINDS } from '../plan-kinds.js';

// --live raises the run's tier (its declaration), which is the yes the apply looks for.
export const apply: Handler<[string]> = handler(
  ['out', 'client', 'key', 'files', 'clock', 'config', 'globals'],
  async (context, [file]) => applyPlan(context, file, PLAN_KINDS),
  // A plan names its account: applied where it was made (the sandbox's included) when the command line names none.
  { readsOnce: true, account: (context, [file]) => planAccount(context, file, PLAN_KINDS) },
);
