/** A write command's declaration, made able to plan: its handler loaded wrapped in `plannable` (plannable.ts). */
import type { Handler } from '../../core/capabilities.js';

export function planned(name: string, load: () => Promise<Handler>): () => Promise<Handler> {
  return async () => {
    const [{ plannable }, inner] = await Promise.all([import('./plannable.js'), load()]);
    return plannable(name, inner);
  };
}
