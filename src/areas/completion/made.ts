/**
 * The completion script of a shell, made from the declared command tree. The scripts depend on
 * the declarations alone, so the build makes them once, into dist/completion/, and bundles in place
 * of this module one that reads them (src/build/build.mjs): `loopsctl completion bash`, which a
 * shell may run at every start, only prints a file. Run from the sources (tests), this makes them.
 */
import { type Spec, walkSpecs } from '../../core/declare.js';
import { buildProgram, HELP_TOPIC_SUMMARIES } from '../../core/program.js';
import { completionTree } from './model.js';
import { completionScript, type Shell } from './scripts.js';

/** The script of a shell, from the whole tree loaded (the build's file, in the bundle, reads none of it). */
export async function completionScriptOf(shell: Shell, tree: () => Promise<Spec[]>): Promise<string> {
  return madeCompletionScript(shell, await tree());
}

export function madeCompletionScript(shell: Shell, specs: Spec[]): string {
  // The tree is only read: none of its help or commands runs.
  const tree = completionTree(
    buildProgram(specs, { stdout: process.stdout, stderr: process.stderr }, async () => {}),
    idArguments(specs),
    HELP_TOPIC_SUMMARIES,
  );
  return completionScript(shell, tree);
}

/** The commands whose arguments are ids of a list, by path. */
function idArguments(specs: Spec[]): Map<string, string> {
  return new Map(
    walkSpecs(specs).flatMap(({ path, spec }) => {
      const list = spec.args?.find((argument) => argument.completes !== undefined)?.completes;
      return list === undefined ? [] : [[path.join(' '), list] as const];
    }),
  );
}
