/** Reading the JSON files loopsctl keeps for itself: the stored keys and the sandbox's state. */
import { readFileSync } from 'node:fs';
import type { z } from '../api/schemas.js';

/** Why a file cannot be used, in words that never quote its content: it may hold a key. */
export class UnusableFileError extends Error {}

/** The file's content checked against the schema, or undefined when there is no such file. */
export function readJsonFile<S extends z.ZodType>(file: string, schema: S): z.infer<S> | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UnusableFileError((error as Error).message, { cause: error });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // The parser's message quotes the text around the fault.
    throw new UnusableFileError('it is not valid JSON');
  }
  const result = schema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new UnusableFileError(`${issue.path.length === 0 ? 'the file' : issue.path.join('.')}: ${issue.message}`);
  }
  return result.data;
}
