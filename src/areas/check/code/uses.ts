/** What an app's source says it uses of the account: found by the scanners, compared by the code rules. */

export type UseKind = 'transactional' | 'event' | 'list' | 'property';

/** One id or name the source uses, where it stands (line and column 1-based). */
export interface CodeUse {
  kind: UseKind;
  value: string;
  file: string;
  line: number;
  column: number;
  /** A send's data variables, when the source gives them as an object literal with fixed keys. */
  dataVariables?: string[];
}

export interface CodeScan {
  uses: CodeUse[];
  /** Files and directories left out, and why (a symlink, too large): told in the report, never silently. */
  skipped: { path: string; reason: string }[];
  filesScanned: number;
}

/** A key as the scanners compare it: `transactional_id`, `transactionalId` and `"transactionalId"` alike. */
export const normalKey = (key: string) => key.replace(/[_-]/g, '').toLowerCase();

export const KEYS = {
  transactional: normalKey('transactionalId'),
  event: normalKey('eventName'),
  dataVariables: normalKey('dataVariables'),
  lists: normalKey('mailingLists'),
} as const;
