/**
 * What a dry run of a command that sends LMX checks of it: the problems that would stop the API
 * compiling it (its 422), as `content check` finds them. A real run leaves that to the API, which
 * decides; a dry run has no API answer to wait for, and promises to check what can be checked.
 */
import { LocalFileError } from '../base/errors.js';
import type { LmxKind } from '../lmx/index.js';
import type { Uses } from './capabilities.js';

export async function checkLmxOfDryRun(context: Uses<'globals'>, source: string, lmx: string, kind?: LmxKind): Promise<void> {
  if (!context.writes.dryRun) return;
  const { checkLmx, refusesBody } = await import('../lmx/index.js');
  const errors = checkLmx(lmx, { kind }).problems.filter(refusesBody);
  const [first] = errors;
  if (first === undefined) return;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  throw new LocalFileError(`${source}:${first.line}:${first.column}: ${first.message}${more}: the API would refuse this LMX`, {
    hint: `${first.fix}; see every problem with \`loopsctl content check ${source === 'stdin' ? '<file>' : source}\``,
  });
}
