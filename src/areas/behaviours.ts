/**
 * What the behaviours a command's declaration names do, as the areas implement them: handed to the
 * path that runs commands (src/core/invoke.ts) by main and by `loopsctl mcp`. Each is loaded only
 * when a command that declares it runs.
 */
import type { Behaviours } from '../core/invoke.js';

export const behaviours: Behaviours = {
  // A write that can plan (--plan --out) runs wrapped by the change cycle's `plannable`, which writes
  // the request the command builds to a plan file, with the registry of kinds: the areas that declare one need not know the apply.
  plan: async (name, handler) => {
    const [{ plannable }, { PLAN_KINDS }] = await Promise.all([import('./change/plannable.js'), import('./plan-kinds.js')]);
    return plannable(name, handler, PLAN_KINDS);
  },
};
