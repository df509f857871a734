/**
 * The --jq expressions that are a plain path (`.name`, `.[0].id`, `.data[].email`), answered
 * without jq when every result is a string, as most uses of --jq are: loading jq and running it
 * costs some 100 ms, the whole of a command twice over.
 *
 * The answer is jq's or none. Anything jq would answer otherwise goes to jq itself: a result that
 * is not a string (jq writes a number as its text was written, and null, true, false and objects
 * are rare here), an object's values (jq keeps the order keys were written in; JavaScript puts
 * integer-like keys first), and anything jq refuses (indexing a string, iterating null), whose
 * message is jq's to give. A field named as a jq keyword is left to jq as well.
 */

/** One step of a path: a field, an array index, or each element of an array. */
export type PathStep = { field: string } | { index: number } | 'each';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*/;
const INDEX = /^\[(\d+)\]/;
const KEYWORDS = new Set([
  '__loc__',
  'and',
  'as',
  'catch',
  'def',
  'elif',
  'else',
  'end',
  'foreach',
  'if',
  'import',
  'include',
  'label',
  'not',
  'or',
  'reduce',
  'then',
  'try',
]);

/** The steps of an expression that is a plain path, or undefined for any other expression. */
export function plainPath(expression: string): PathStep[] | undefined {
  const text = expression.trim();
  if (!text.startsWith('.')) return undefined;
  const steps: PathStep[] = [];
  let rest = text.slice(1);
  const field = (): boolean => {
    const name = IDENTIFIER.exec(rest)?.[0];
    if (name === undefined || KEYWORDS.has(name)) return false;
    steps.push({ field: name });
    rest = rest.slice(name.length);
    return true;
  };
  // `.name` right after the first dot; `..` (recursion) and `. name` are not paths.
  if (IDENTIFIER.test(rest) && !field()) return undefined;
  while (rest !== '') {
    if (rest.startsWith('[]')) {
      steps.push('each');
      rest = rest.slice(2);
    } else if (INDEX.test(rest)) {
      const [whole, digits] = INDEX.exec(rest)!;
      const index = Number(digits);
      if (!Number.isSafeInteger(index)) return undefined;
      steps.push({ index });
      rest = rest.slice(whole.length);
    } else if (rest.startsWith('.') && steps.length > 0) {
      rest = rest.slice(1);
      if (!field()) return undefined;
    } else {
      return undefined;
    }
  }
  return steps;
}

/** The path's results on a value, when every one is a string; undefined when jq must answer. */
export function stringsAlong(steps: PathStep[], value: unknown): string[] | undefined {
  let values: unknown[] = [value];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const current of values) {
      if (step === 'each') {
        if (!Array.isArray(current)) return undefined;
        for (const item of current) next.push(item);
      } else if (current === null) {
        next.push(null);
      } else if ('field' in step) {
        if (typeof current !== 'object' || Array.isArray(current)) return undefined;
        next.push(Object.hasOwn(current, step.field) ? (current as Record<string, unknown>)[step.field] : null);
      } else {
        if (!Array.isArray(current)) return undefined;
        next.push(step.index < current.length ? current[step.index] : null);
      }
    }
    values = next;
  }
  return values.every((result) => typeof result === 'string') ? (values as string[]) : undefined;
}
