/** What a check's problems are about and how they are told: the record, the rule, the severity. */
import { z } from '../../base/shapes.js';
import { APP_ORIGIN } from '../../core/browser.js';
import { QA_IMPACTS } from '../../lmx/qa/finding.js';
import { KIND_WORDS } from '../../platform/record-kinds.js';

/** What a finding is about: a record, by its kind's word (platform/record-kinds.ts), the app's source (`code`), or the account as a whole. */
export const FINDING_KINDS = [...KIND_WORDS, 'code', 'account'] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];

export interface RecordRef {
  kind: FindingKind;
  name: string;
  id: string;
  /** The record's page in the Loops app, where it has one. */
  url?: string;
}

export const SEVERITIES = ['error', 'warning', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const FAMILIES = ['content', 'rendered', 'qa', 'wiring', 'expectations', 'metrics', 'code'] as const;
export type Family = (typeof FAMILIES)[number];

/** One problem, as --json prints it (and `loopsctl mcp` declares its tool's output). */
export const problemShape = z.strictObject({
  rule: z.string(),
  severity: z.enum(SEVERITIES),
  message: z.string(),
  /** What to do about it. */
  fix: z.string(),
  kind: z.enum(FINDING_KINDS),
  name: z.string(),
  id: z.string(),
  url: z.optional(z.string()),
  /** Where in the app's source (the code rules), 1-based. */
  file: z.optional(z.string()),
  line: z.optional(z.number()),
  column: z.optional(z.number()),
  /** The address a link or image finding is about, as the email has it: what the rules file's allow-list matches. */
  link: z.optional(z.string()),
  /** An accessibility finding's impact: critical, serious, moderate or mild. */
  impact: z.optional(z.enum(QA_IMPACTS)),
});
export type Problem = z.infer<typeof problemShape>;

const APP_PATHS: Partial<Record<FindingKind, string>> = { transactional: '/transactional', campaign: '/campaigns', workflow: '/workflows' };

/** The record's page: the address the API gives, or the one the app uses for its kind. */
export function appUrl(kind: FindingKind, record: { id: string; url?: string }): string | undefined {
  if (record.url !== undefined) return record.url;
  if (kind === 'list') return `${APP_ORIGIN}/settings?page=lists`;
  const path = APP_PATHS[kind];
  return path === undefined ? undefined : `${APP_ORIGIN}${path}/${record.id}`;
}

/** A problem about a record. */
export function problem(
  record: RecordRef,
  rule: string,
  severity: Severity,
  message: string,
  fix: string,
  at?: Pick<Problem, 'file' | 'line' | 'column' | 'link'>,
): Problem {
  return { rule, severity, message, fix, kind: record.kind, name: record.name, id: record.id, ...(record.url === undefined ? {} : { url: record.url }), ...at };
}
