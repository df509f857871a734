/** `loopsctl apply`: see src/areas/content/apply.ts, which plays the plan. */
import { handler, type Handler } from '../../core/capabilities.js';
import { applyPlan } from '../content/apply.js';

// --live raises the run's tier (its declaration), which is the yes the apply looks for.
export const apply: Handler<[string]> = handler(
  ['out', 'client', 'key', 'files', 'clock', 'config', 'globals'],
  async (context, [file]) => applyPlan(context, file),
  {
    readsOnce: true,
  },
);
