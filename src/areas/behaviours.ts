/**
 * What the behaviours a command's declaration names do, as the areas implement them: handed to the
 * path that runs commands (src/core/invoke.ts) by main and by `loopsctl mcp`, and to each command's
 * `load`. Each is loaded only when a command that asks for it runs.
 */
import type { Behaviours } from '../core/declare.js';
import type { PlanKinds } from './change/kinds.js';

declare module '../core/declare.js' {
  interface Behaviours {
    /**
     * The change cycle's registry of kinds (src/areas/plan-kinds.ts), for a command whose area it
     * reads: `content push --plan` and `content review` of a plan are handed it, as apply is.
     */
    kinds: () => Promise<PlanKinds>;
  }
}

const kinds = async () => (await import('./plan-kinds.js')).PLAN_KINDS;

export const behaviours: Behaviours = {
  // A write that can plan (--plan --out) runs wrapped by the change cycle's `plannable`, which writes
  // the request the command builds to a plan file, with the registry of kinds: the areas that declare one need not know the apply.
  plan: async (name, handler) => {
    const [{ plannable }, planKinds] = await Promise.all([import('./change/plannable.js'), kinds()]);
    return plannable(name, handler, planKinds);
  },
  kinds,
};
