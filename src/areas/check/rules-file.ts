/**
 * `loops.check.yaml`: what a team expects of its account (a workflow sending, a transactional email
 * published with these data variables), the rules it raises, lowers or turns off, the records it
 * ignores and the metrics thresholds. Strict: a key nobody reads is a mistake, refused with its path.
 */
import { LocalFileError } from '../../base/errors.js';
import { yamlFault, yamlValue } from '../../base/parse-faults.js';
import { z } from '../../base/shapes.js';
import { readTreeFile } from '../../base/tree-files.js';
import { parseRate } from './rate.js';
import { FINDING_KINDS } from './records.js';

const rate = z.pipe(
  z.union([z.string(), z.number()]),
  z.transform((value, ctx) => {
    const parsed = parseRate(value);
    if (parsed === undefined) {
      ctx.issues.push({ code: 'custom', message: 'a rate is a percentage such as 2% or 0.5%, or a fraction from 0 to 1', input: value });
      return 0;
    }
    return parsed;
  }),
);

export const THRESHOLDS = ['bounceRate', 'complaintRate', 'unsubscribeRate', 'openRate'] as const;
export type Threshold = (typeof THRESHOLDS)[number];

const ignoreEntry = z.string().check(
  z.refine((entry) => (FINDING_KINDS as readonly string[]).includes(entry.split('/')[0]!) && entry.includes('/'), {
    message: `an entry is <kind>/<name>, the kind one of ${FINDING_KINDS.join(', ')}`,
  }),
);

/** A finding let pass: of a rule, in one record's emails (all of them without), about one address (a prefix with a trailing `*`). */
const allowEntry = z.strictObject({
  rule: z.string(),
  record: z.optional(ignoreEntry),
  link: z.optional(z.string()),
});
export type AllowEntry = z.infer<typeof allowEntry>;

export const rulesFileSchema = z.strictObject({
  workflows: z._default(z.record(z.string(), z.strictObject({ status: z.optional(z.enum(['sending', 'draft', 'paused'])) })), {}),
  transactional: z._default(z.record(z.string(), z.strictObject({ published: z.optional(z.boolean()), dataVariables: z.optional(z.array(z.string())) })), {}),
  rules: z._default(z.record(z.string(), z.enum(['error', 'warning', 'info', 'off'])), {}),
  ignore: z._default(z.array(ignoreEntry), []),
  thresholds: z._default(
    z.strictObject(Object.fromEntries(THRESHOLDS.map((name) => [name, z.optional(rate)])) as Record<Threshold, z.ZodMiniOptional<typeof rate>>),
    {},
  ),
  /** The qa family's spam score at or over which an email's total is an error. */
  spamScore: z.optional(z.number().check(z.positive())),
  allow: z._default(z.array(allowEntry), []),
});
export type RulesFile = z.infer<typeof rulesFileSchema>;

export const NO_RULES: RulesFile = { workflows: {}, transactional: {}, rules: {}, ignore: [], thresholds: {}, allow: [] };

/** A rules file far larger than any team writes is not one: 1 MiB. */
const RULES_FILE_MAX_BYTES = 1024 * 1024;

/**
 * The file read (a regular file, never through a link, at most 1 MiB) and checked; anything wrong
 * in it is a LocalFileError (exit 2) naming where, and never quoting what the file holds.
 */
export async function readRulesFile(place: { root: string; path: string }, knownRules: ReadonlySet<string>): Promise<RulesFile> {
  const file = place.root === '.' ? place.path : `${place.root}/${place.path}`;
  const bytes = readTreeFile(place.root, place.path, RULES_FILE_MAX_BYTES);
  if (bytes === undefined) throw new LocalFileError(`${file}: no such file`, { hint: RULES_FILE_HINT });
  const text = bytes.toString('utf8');
  const document = (await import('yaml')).parseDocument(text, { prettyErrors: false });
  if (document.errors.length > 0) throw new LocalFileError(`${file}: ${yamlFault(document.errors[0], text)}`, { hint: RULES_FILE_HINT });
  const read = yamlValue(document);
  if ('fault' in read) throw new LocalFileError(`${file}: ${read.fault}`, { hint: RULES_FILE_HINT });
  const parsed = read.value;
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
  const unknownAllowed = result.data.allow.findIndex((entry) => !knownRules.has(entry.rule));
  if (unknownAllowed !== -1) {
    const name = result.data.allow[unknownAllowed]!.rule;
    throw new LocalFileError(`${file} at allow.${unknownAllowed}.rule: no rule is named ${name}`, { hint: 'the rules are listed in docs/check.md' });
  }
  return result.data;
}

const RULES_FILE_HINT =
  'its keys are workflows, transactional, rules, ignore, allow, thresholds and spamScore, e.g. `workflows: { "Welcome series": { status: sending } }` (see docs/check.md)';
