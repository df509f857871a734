/** What the `completion` commands do: a script from the declared command tree. */
import { walkSpecs, type Handler } from '../../core/declare.js';
import { buildProgram } from '../../core/program.js';
import { specs } from '../registry.js';
import { completionTree } from './model.js';
import { completionScript, type Shell } from './scripts.js';

export function script(shell: Shell): Handler {
  return async (context) => {
    const program = buildProgram(specs, context.runtime, async () => {});
    await context.out.write(completionScript(shell, completionTree(program, idArguments())));
  };
}

/** The commands whose arguments are ids of a list, by path. */
function idArguments(): Map<string, string> {
  return new Map(
    walkSpecs(specs).flatMap(({ path, spec }) => {
      const list = spec.args?.find((argument) => argument.completes !== undefined)?.completes;
      return list === undefined ? [] : [[path.join(' '), list] as const];
    }),
  );
}
