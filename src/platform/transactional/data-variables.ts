/**
 * Which of a transactional email's data variables a send must give: the one verdict that
 * `check --code`, `types`, the sandbox and `transactional send` read.
 *
 * The API lists the variables the published email uses (the record's `dataVariables`: "data
 * variable names used by the published email") and, on its email message, the fallbacks set for
 * them (`dataVariablesFallbacks`). It does not show which ones the editor marks optional, though
 * the send depends on it: "If you have added optional data variables to your email, you can
 * exclude them from the dataVariables object or set the value to """ (the send's description in
 * the 1.22.1 OpenAPI document); "Non-optional variables must be present in `dataVariables` or the
 * send fails" (the LMX specification). So a variable is
 * - `optional` when the email has a fallback for it, or the editor marks it optional where the
 *   marks are known (the sandbox keeps them, as the platform does, and shows them as little);
 * - `required` when the marks are known and it is not marked, or when the API refused a send for
 *   leaving it out ("Missing required data variable(s): …");
 * - `unstated` otherwise: the API does not say, and every part of loopsctl says so in the same
 *   words (unstatedNote), treating it as required where it must choose (a type, a warning).
 */

export interface DataVariableVerdict {
  required: string[];
  optional: string[];
  unstated: string[];
}

export interface WhatIsKnown {
  /** The email message's `dataVariablesFallbacks`: a string value is a fallback, null none. */
  fallbacks?: Readonly<Record<string, string | null>>;
  /** The variables the editor marks optional, where they are known (the sandbox): undefined where they are not (the API). */
  markedOptional?: readonly string[];
}

/** The verdict on each variable the email uses, in the order it lists them. */
export function dataVariableVerdict(used: readonly string[], known: WhatIsKnown): DataVariableVerdict {
  const verdict: DataVariableVerdict = { required: [], optional: [], unstated: [] };
  for (const name of used) {
    const fallback = known.fallbacks !== undefined && Object.hasOwn(known.fallbacks, name) && typeof known.fallbacks[name] === 'string';
    if (fallback || known.markedOptional?.includes(name)) verdict.optional.push(name);
    else if (known.markedOptional !== undefined) verdict.required.push(name);
    else verdict.unstated.push(name);
  }
  return verdict;
}

/** What a send leaves out that may matter: the required and the unstated variables it does not give (null counts as left out). */
export function leftOut(verdict: DataVariableVerdict, given: Readonly<Record<string, unknown>>): { required: string[]; unstated: string[] } {
  const missing = (name: string) => !Object.hasOwn(given, name) || given[name] === null || given[name] === undefined;
  return { required: verdict.required.filter(missing), unstated: verdict.unstated.filter(missing) };
}

/** How loopsctl says, wherever it says it, that the API does not tell whether variables are optional. */
export function unstatedNote(names: readonly string[]): string {
  const [them, are] = names.length === 1 ? ['it', 'is'] : ['them', 'are'];
  return `the API does not say whether ${names.join(', ')} ${are} optional: a send without ${them} fails unless the email marks ${them} optional`;
}

const REFUSAL = 'Missing required data variable(s): ';

/** The API's refusal of a send that leaves out required variables, word for word. */
export const missingRequiredMessage = (names: readonly string[]) => `${REFUSAL}${names.join(', ')}`;

/** The variables a refusal names as required; undefined for any other message. */
export function requiredIn(message: string): string[] | undefined {
  const names = /missing required data variables?(?:\(s\))?:\s*(.+)$/i.exec(message)?.[1]?.split(/,\s*/).filter(Boolean);
  return names === undefined || names.length === 0 ? undefined : names;
}
