/** `loopsctl apply`: see src/areas/content/apply.ts, which plays the plan. */
import { handler, type Handler } from '../../core/capabilities.js';
import { applyPlan } from '../content/apply.js';

export const apply: Handler<[string], { live?: boolean }> = handler(['out', 'client', 'key', 'files', 'clock', 'config'], async (context, [file], options) =>
  applyPlan(context, file, options),
);
