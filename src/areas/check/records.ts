/** What a check's problems are about and how they are told: the record, the rule, the severity. */
import { APP_ORIGIN } from '../../core/browser.js';

export const RECORD_KINDS = ['transactional', 'campaign', 'workflow', 'component', 'theme', 'list', 'segment', 'event', 'property', 'code', 'account'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

export interface RecordRef {
  kind: RecordKind;
  name: string;
  id: string;
  /** The record's page in the Loops app, where it has one. */
  url?: string;
}

export const SEVERITIES = ['error', 'warning', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const FAMILIES = ['content', 'rendered', 'wiring', 'expectations', 'metrics', 'code'] as const;
export type Family = (typeof FAMILIES)[number];

/** One problem, as --json prints it. */
export interface Problem {
  rule: string;
  severity: Severity;
  message: string;
  /** What to do about it. */
  fix: string;
  kind: RecordKind;
  name: string;
  id: string;
  url?: string;
  /** Where in the app's source (code rules) or the email's LMX (content and rendered rules), 1-based. */
  file?: string;
  line?: number;
  column?: number;
}

const APP_PATHS: Partial<Record<RecordKind, string>> = { transactional: '/transactional', campaign: '/campaigns', workflow: '/workflows' };

/** The record's page: the address the API gives, or the one the app uses for its kind. */
export function appUrl(kind: RecordKind, record: { id: string; url?: string }): string | undefined {
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
  at?: Pick<Problem, 'file' | 'line' | 'column'>,
): Problem {
  return { rule, severity, message, fix, kind: record.kind, name: record.name, id: record.id, ...(record.url === undefined ? {} : { url: record.url }), ...at };
}
