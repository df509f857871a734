/**
 * Records matched by name. `content push` pairs a record it knows no id of with the account's
 * record of the same kind and the very same name (emails/sides.ts, audience/plan.ts), so that what
 * the account holds is never made twice; `loopsctl apply` asks the account the same question just
 * before it sends a create of a plan, since the `.applied` record beside a plan file knows only that
 * copy of it: a second copy (another path, another CI job, a fresh checkout) would create the record
 * again.
 *
 * None of the API's lists takes a name to look for: the whole list of the kind is read, page by
 * page, and its names compared (each kind's `namesakes` names its list, kinds.ts).
 */

/** The records of `records` that are `record`'s namesakes: of its kind, with its very name. */
export function namesakes<T extends { kind: string; name: string }>(records: readonly T[], record: { kind: string; name: string }): T[] {
  return records.filter((other) => other.kind === record.kind && other.name === record.name);
}

/**
 * Why the record a plan's unit creates must not be created now, or undefined when the account
 * holds none of its kind and name (`held`: the names its list holds): one of that name there was
 * created by an apply of another copy of the plan, or made meanwhile.
 */
export function createdAlready(record: { noun: string; name: string }, held: readonly string[]): string | undefined {
  if (!held.includes(record.name)) return undefined;
  return `the account holds ${record.noun} "${record.name}" already: applied before, or made meanwhile`;
}
