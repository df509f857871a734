/**
 * `environments.json` at a tree's root: the accounts the one tree is pushed to (staging,
 * production), each with its profile, the team it must be, the values its `{env.NAME}`
 * placeholders stand for, and the hosts that are its own. One reader: it returns what the file
 * says and every problem it has, so a check can list them all and a command can refuse them.
 */
import { join } from 'node:path';
import { LocalFileError } from '../../../base/errors.js';
import { jsonFaultAt } from '../../../base/parse-faults.js';
import { z } from '../../../base/shapes.js';
import { readTreeFile } from '../../../base/tree-files.js';
import { ENVIRONMENTS_FILE } from './lmx-files.js';

export { ENVIRONMENTS_FILE };

/** A placeholder's name: what `{env.NAME}` may hold. */
export const VALUE_NAME = /^[A-Za-z0-9_-]+$/;

/** A host pattern: a host name, or one with a leading `*.` for every host under it. */
const HOST_PATTERN = /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)+$/i;

/** The file is small by nature: a few names and values per environment. */
const MAX_BYTES = 256 * 1024;

const environmentSchema = z.strictObject({
  profile: z.string().check(z.minLength(1, 'the profile (the account it is) is needed')),
  expectTeam: z.optional(z.string().check(z.minLength(1, 'give the team name, or leave expectTeam out'))),
  values: z._default(z.record(z.string(), z.string()), {}),
  hosts: z._default(z.array(z.string().check(z.regex(HOST_PATTERN, 'a host pattern is a host name, or *. and one (*.staging.example.com)'))), []),
});

const fileSchema = z.strictObject({
  environments: z.record(z.string(), environmentSchema),
});

export type Environment = z.infer<typeof environmentSchema> & { name: string };

/** The environments of a tree, by name, in the file's order. */
export type Environments = ReadonlyMap<string, Environment>;

/** A problem of the file: where it is, when it is a place in its text, and what is wrong. */
export interface EnvironmentsProblem {
  file: string;
  line?: number;
  column?: number;
  message: string;
}

export interface EnvironmentsRead {
  /** Undefined when the tree has no environments.json, or when it could not be read as one. */
  environments?: Environments;
  problems: EnvironmentsProblem[];
}

/** Reads `<root>/environments.json` (never through a link): what it says, and every problem it has. */
export function readEnvironments(root: string): EnvironmentsRead {
  const file = join(root, ENVIRONMENTS_FILE);
  const bytes = readTreeFile(root, ENVIRONMENTS_FILE, MAX_BYTES);
  if (bytes === undefined) return { problems: [] };
  return environmentsOf(file, bytes.toString('utf8'));
}

/** The environments a file's text gives, and every problem of it. */
export function environmentsOf(file: string, text: string): EnvironmentsRead {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const { line, column, early } = jsonFaultAt(text);
    return { problems: [{ file, line, column, message: `not valid JSON${early ? ' (it ends too early)' : ''}` }] };
  }
  const parsed = fileSchema.safeParse(value);
  // Names are checked here rather than as a record's keys, whose issue says only that a key is invalid.
  const problems: EnvironmentsProblem[] = namesOf(value).map((message) => ({ file, message }));
  if (!parsed.success)
    return {
      problems: [
        ...problems,
        ...parsed.error.issues.map((issue) => ({ file, message: `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}` })),
      ],
    };
  const environments = new Map(Object.entries(parsed.data.environments).map(([name, environment]) => [name, { ...environment, name }]));
  if (environments.size === 0) problems.push({ file, message: 'environments: name at least one environment' });
  // The environment a run is in is found by its profile: two with one profile could not be told apart.
  const byProfile = new Map<string, string>();
  for (const { name, profile } of environments.values()) {
    const other = byProfile.get(profile);
    if (other !== undefined)
      problems.push({ file, message: `environments.${name}.profile: "${profile}" is ${other}'s profile too; each environment is an account of its own` });
    byProfile.set(profile, name);
  }
  return problems.length > 0 ? { problems } : { environments, problems };
}

/** The problems of the environments' names and their values' names, wherever the rest of the file stands. */
function namesOf(value: unknown): string[] {
  const problems: string[] = [];
  const objectAt = (at: unknown, key: string) => {
    const inside = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[key] : undefined;
    return typeof inside === 'object' && inside !== null && !Array.isArray(inside) ? (inside as Record<string, unknown>) : undefined;
  };
  const environments = objectAt(value, 'environments') ?? {};
  for (const [name, environment] of Object.entries(environments)) {
    if (!VALUE_NAME.test(name)) problems.push(`environments.${name}: an environment's name is letters, digits, _ and -`);
    for (const key of Object.keys(objectAt(environment, 'values') ?? {}))
      if (!VALUE_NAME.test(key)) problems.push(`environments.${name}.values.${key}: a value's name is letters, digits, _ and - (as {env.NAME} writes it)`);
  }
  return problems;
}

/** A problem as one line: `file:line:column: message`. */
export function problemLine(problem: EnvironmentsProblem): string {
  const at = problem.line === undefined ? '' : `:${problem.line}:${problem.column}`;
  return `${problem.file}${at}: ${problem.message}`;
}

/** The tree's environments, or undefined when it has none; a file with problems stops the command (exit 2), naming each. */
export function requireEnvironments(root: string): Environments | undefined {
  const { environments, problems } = readEnvironments(root);
  if (problems.length > 0)
    throw new LocalFileError(problems.map(problemLine).join('\n'), {
      hint: `fix ${ENVIRONMENTS_FILE}: { "environments": { "<name>": { "profile": "<profile>", "values": { "<NAME>": "<value>" } } } }`,
    });
  return environments;
}
