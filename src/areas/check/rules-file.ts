/**
 * `loops.check.yaml`: what a team expects of its account (a workflow sending, a transactional email
 * published with these data variables), the rules it raises, lowers or turns off, the records it
 * ignores and the metrics thresholds. Strict: a key nobody reads is a mistake, refused with its path.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LocalFileError } from '../../base/errors.js';
import { z } from '../../base/shapes.js';
import { parseRate } from './rate.js';
import { RECORD_KINDS } from './records.js';

export const RULES_FILE_NAME = 'loops.check.yaml';

const rate = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const parsed = parseRate(value);
  if (parsed === undefined) {
    ctx.addIssue({ code: 'custom', message: 'a rate is a percentage such as 2% or 0.5%, or a fraction from 0 to 1' });
    return 0;
  }
  return parsed;
});

export const THRESHOLDS = ['bounceRate', 'complaintRate', 'unsubscribeRate', 'openRate'] as const;
export type Threshold = (typeof THRESHOLDS)[number];

const ignoreEntry = z.string().refine((entry) => (RECORD_KINDS as readonly string[]).includes(entry.split('/')[0]!) && entry.includes('/'), {
  message: `an entry is <kind>/<name>, the kind one of ${RECORD_KINDS.join(', ')}`,
});

export const rulesFileSchema = z.strictObject({
  workflows: z.record(z.string(), z.strictObject({ status: z.enum(['sending', 'draft', 'paused']).optional() })).default({}),
  transactional: z.record(z.string(), z.strictObject({ published: z.boolean().optional(), dataVariables: z.array(z.string()).optional() })).default({}),
  rules: z.record(z.string(), z.enum(['error', 'warning', 'info', 'off'])).default({}),
  ignore: z.array(ignoreEntry).default([]),
  thresholds: z
    .strictObject(Object.fromEntries(THRESHOLDS.map((name) => [name, rate.optional()])) as Record<Threshold, z.ZodOptional<typeof rate>>)
    .default({}),
});
export type RulesFile = z.infer<typeof rulesFileSchema>;

export const NO_RULES: RulesFile = { workflows: {}, transactional: {}, rules: {}, ignore: [], thresholds: {} };

/** The file --rules names, else loops.check.yaml here or in the content tree (./loops); none is no expectations. */
export function findRulesFile(named: string | undefined): string | undefined {
  if (named !== undefined) return named;
  return [RULES_FILE_NAME, join('loops', RULES_FILE_NAME)].find((candidate) => existsSync(candidate));
}

/** The file read and checked; anything wrong in it is a LocalFileError (exit 2) naming where. */
export async function readRulesFile(file: string, knownRules: ReadonlySet<string>): Promise<RulesFile> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new LocalFileError(`${file}: ${(error as Error).message}`, { cause: error });
  }
  let parsed: unknown;
  try {
    parsed = (await import('yaml')).parse(text);
  } catch (error) {
    throw new LocalFileError(`${file}: not valid YAML: ${(error as Error).message}`, { cause: error });
  }
  const result = rulesFileSchema.safeParse(parsed ?? {});
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const path = issue.path.map(String).join('.');
    const unknown =
      issue.code === 'unrecognized_keys' ? `unknown key ${issue.keys.map((key) => (path === '' ? key : `${path}.${key}`)).join(', ')}` : issue.message;
    throw new LocalFileError(`${file}${path === '' || issue.code === 'unrecognized_keys' ? '' : ` at ${path}`}: ${unknown}`, { hint: RULES_FILE_HINT });
  }
  const unknownRule = Object.keys(result.data.rules).find((name) => !knownRules.has(name));
  if (unknownRule !== undefined) {
    throw new LocalFileError(`${file} at rules.${unknownRule}: no rule is named ${unknownRule}`, { hint: 'the rules are listed in docs/check.md' });
  }
  return result.data;
}

const RULES_FILE_HINT =
  'its keys are workflows, transactional, rules, ignore and thresholds, e.g. `workflows: { "Welcome series": { status: sending } }` (see docs/check.md)';
