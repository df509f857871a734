/** Pulled workflows as the tests edit them: a directory found by its slug, a file edited in place. */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { RecordingSandbox } from './recording.js';

/** The directory of the pulled workflow whose name starts with this slug. */
export function workflowDir(root: string, slug: string): string {
  const name = readdirSync(join(root, 'workflows')).find((entry) => entry.startsWith(`${slug}--`));
  if (name === undefined) throw new Error(`no workflow ${slug} in ${root}`);
  return join(root, 'workflows', name);
}

/** Replaces text in a file, failing when the file does not hold it. */
export function edit(file: string, from: string, to: string): void {
  const text = readFileSync(file, 'utf8');
  if (!text.includes(from)) throw new Error(`${file} has no ${JSON.stringify(from)}`);
  writeFileSync(file, text.replace(from, to));
}

/** The win-back draft's edit of the tests: a two-day wait inserted between its filter and its experiment. */
export function waitTwoDaysBeforeTheExperiment(yaml: string): void {
  edit(yaml, '  dormant:\n    type: AudienceFilter\n    next: [experiment]', '  dormant:\n    type: AudienceFilter\n    next: [wait-2d]');
  edit(yaml, '  experiment:\n', '  wait-2d:\n    type: TimerAction\n    next: [experiment]\n    amount: 2\n    unit: d\n  experiment:\n');
}

/** The LMX of the win-back draft's one email. */
export const emailOf = (winBack: string) => join(winBack, 'emails', 'we-saved-your-workspace', 'email.lmx');

/** The sandbox's workflows pulled into `root`, and the requests of the pull forgotten: a test sees only its own. */
export async function pulledWorkflowsInto(sandbox: RecordingSandbox, root: string): Promise<string> {
  const pull = await sandbox.loopsctl(['content', 'pull', root, '--only', 'workflows']);
  expect(pull.code, pull.stderr).toBe(0);
  sandbox.requests.length = 0;
  return root;
}
