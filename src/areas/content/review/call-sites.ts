/**
 * The app's sends of each transactional email a review lists (`content review --code <dir>`),
 * found by the scanner `check --code` uses: where the source calls the send with the email's id,
 * the data variables it gives (when it gives them as an object with fixed keys), those the change
 * adds that it gives no value for, and those it gives that the email no longer uses. A send that
 * lacks a variable the email now uses is refused by the API unless the email gives it a fallback.
 */
import type { CodeUse } from '../../../app-code/uses.js';
import type { CallSite } from '../../change/impact/records.js';
import type { Review, ReviewedEmail } from './compare.js';

/** A record's id, as a pull names its directory: `transactional/welcome--<id>`. */
const idOf = (path: string) => path.slice(path.lastIndexOf('--') + 2);

/** The data variables among a review's names (`data.firstName` → `firstName`). */
const dataNames = (names: readonly string[]) => names.filter((name) => name.startsWith('data.')).map((name) => name.slice('data.'.length));

function sitesOf(email: ReviewedEmail, uses: readonly CodeUse[]): CallSite[] {
  const id = idOf(email.path);
  const added = dataNames(email.variables.added);
  const removed = dataNames(email.variables.removed);
  return uses
    .filter((use) => use.kind === 'transactional' && use.value === id)
    .map((use) => ({
      file: use.file,
      line: use.line,
      column: use.column,
      ...(use.dataVariables === undefined ? {} : { gives: use.dataVariables }),
      missing: use.dataVariables === undefined ? [] : added.filter((name) => !use.dataVariables!.includes(name)),
      noLongerUsed: (use.dataVariables ?? []).filter((name) => removed.includes(name)),
    }));
}

/** The review with each transactional email's sends in the app's source. */
export function withCallSites(review: Review, uses: readonly CodeUse[]): Review {
  return {
    ...review,
    emails: review.emails.map((email) => (email.kind === 'transactional' && email.change !== 'added' ? { ...email, callSites: sitesOf(email, uses) } : email)),
  };
}

/** A send in words: `src/mail.ts:12:3 gives no value for plan`. */
export function callSiteWords(site: CallSite): string {
  const at = `${site.file}:${site.line}:${site.column}`;
  const lacks = site.missing.length === 0 ? '' : `gives no value for ${site.missing.join(', ')}`;
  const stale = site.noLongerUsed.length === 0 ? '' : `gives ${site.noLongerUsed.join(', ')}, which the email no longer uses`;
  const said = [lacks, stale].filter((part) => part !== '').join('; ');
  if (said !== '') return `${at} ${said}`;
  return site.gives === undefined ? `${at} (its data variables are not fixed keys: not checked)` : `${at} gives what the email uses`;
}
