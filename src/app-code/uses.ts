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
  /** Source files read and passed over unparsed: they name nothing a scanner looks for. */
  filesPassed: number;
}

/** What a scanner found in one file. */
export interface FileScan {
  uses: CodeUse[];
  /** What it left unread, and why, when it could not read the whole file. */
  unread?: string;
}

/** The work a scan did, counted by its scanners (characters and tokens read), so that a test can bound it. */
export interface ScanSteps {
  count: number;
}

/** A key as the scanners compare it: `transactional_id`, `transactionalId` and `"transactionalId"` alike. */
export const normalKey = (key: string) => key.replace(/[_-]/g, '').toLowerCase();

export const KEYS = {
  transactional: normalKey('transactionalId'),
  event: normalKey('eventName'),
  dataVariables: normalKey('dataVariables'),
  lists: normalKey('mailingLists'),
} as const;

/** The calls whose contact properties the JavaScript scanner reads. */
export const CONTACT_CALLS = new Set(['createContact', 'updateContact']);

/**
 * What a use cannot be found without: every key the scanners compare (but `dataVariables`, which
 * gives nothing without a transactional id beside it) and every call they read, as normalKey
 * writes them.
 */
const NEEDLES = [KEYS.transactional, KEYS.event, KEYS.lists, ...[...CONTACT_CALLS].map(normalKey)];

/**
 * An escape that can write a letter of a key without the letter (JavaScript's `\u0074`, `\x74`,
 * `\164`, and a line continuation inside a string): a file with one is read whatever it names.
 */
const LETTER_ESCAPE = /\\[ux0-7\n\r\u2028\u2029]/;

/**
 * Whether a source file can hold a use, decided from its text alone before it is parsed. A
 * scanner finds a use only where a key or a call it knows is spelt out in the text: a key's
 * characters are the text's, but for underscores and dashes (which normalKey drops), case, and
 * backslashes (which a string's escapes drop). So the text, lowercased and without those, holds
 * one of the needles whenever a scanner could find a use in it; a file it does not is passed over.
 */
export function mayHoldUses(text: string): boolean {
  if (LETTER_ESCAPE.test(text)) return true;
  const plain = text.toLowerCase().replace(/[-_\\]/g, '');
  return NEEDLES.some((needle) => plain.includes(needle));
}
