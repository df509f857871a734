/**
 * The review of a change: exactly the emails whose result, as their recipients get it, differs
 * between two sides (readSide), and for each what differs: its blocks as drawn, its subject,
 * preview text, sender, plain text, the variables it uses, the nodes that send it, and the
 * findings of `content check` that appear or disappear. An email both sides draw the same is
 * counted, never listed, whatever its files say: a reformat, attributes reordered, nodes moved.
 */
import { createHash } from 'node:crypto';
import type { QaImpact } from '../../../lmx/qa/index.js';
import type { CallSite } from '../../change/impact/records.js';
import { canonicalJson } from '../../change/plan-file.js';
import type { CheckProblem } from '../shared/check.js';
import { bodyOf, bodyText } from './blocks.js';
import { type BlockChange, changedBlocks } from './pairs.js';
import type { ReviewKind, SideEmail } from './sides.js';

/** What may differ in an email, in the order a review lists it. */
export const ASPECTS = ['body', 'subject', 'previewText', 'from', 'plainText', 'dataVariables', 'node'] as const;
export type Aspect = (typeof ASPECTS)[number];

/** A finding of `content check`, as a review lists those that appear or disappear. */
export interface Finding {
  severity: 'error' | 'warning';
  rule: string;
  /** An accessibility rule's impact: critical, serious, moderate or mild. */
  impact?: QaImpact;
  message: string;
}

/** One email whose result differs, with both sides to draw. */
export interface ReviewedEmail {
  kind: ReviewKind;
  name: string;
  path: string;
  change: 'added' | 'removed' | 'changed';
  changed: Aspect[];
  blocks: BlockChange[];
  variables: { added: string[]; removed: string[] };
  findings: { appeared: Finding[]; disappeared: Finding[] };
  /** With --code: the app's sends of it (a transactional email). */
  callSites?: CallSite[];
  before?: SideEmail;
  after?: SideEmail;
}

export interface Review {
  emails: ReviewedEmail[];
  /** Emails on both sides drawn the same. */
  unchanged: number;
  /** A digest of what the review shows: both sides of every email it lists. */
  digest: string;
  /** Components changed that no email embeds: no recipient sees the change. */
  unusedComponents?: string[];
}

/** The text of each aspect that is not the body, as it is compared. */
function textsOf(email: SideEmail): Record<Exclude<Aspect, 'body'>, string> {
  return {
    subject: email.subject,
    previewText: email.previewText,
    from: email.from,
    plainText: bodyText(email.view),
    dataVariables: email.variables.join('\n'),
    node: email.nodes.join('\n'),
  };
}

function findingsOf(problems: readonly CheckProblem[]): Finding[] {
  return problems.map(({ severity, rule, impact, message }) => ({ severity, rule, ...(impact === undefined ? {} : { impact }), message }));
}

const findingKey = (finding: Finding) => `${finding.severity}\0${finding.rule}\0${finding.message}`;

/** The findings of one side that the other lacks. */
function minus(these: Finding[], those: Finding[]): Finding[] {
  const known = new Set(those.map(findingKey));
  return these.filter((finding) => !known.has(findingKey(finding)));
}

/** One email of either or both sides, reviewed; undefined when both draw it the same. */
function reviewEmail(before: SideEmail | undefined, after: SideEmail | undefined): ReviewedEmail | undefined {
  const either = (after ?? before)!;
  const blocksBefore = before === undefined ? [] : bodyOf(before.view).blocks;
  const blocksAfter = after === undefined ? [] : bodyOf(after.view).blocks;
  const blocks = changedBlocks(blocksBefore, blocksAfter);
  const changed: Aspect[] = [];
  if (blocks.length > 0) changed.push('body');
  const textsBefore = before === undefined ? undefined : textsOf(before);
  const textsAfter = after === undefined ? undefined : textsOf(after);
  for (const aspect of ASPECTS) {
    if (aspect === 'body') continue;
    const was = textsBefore?.[aspect] ?? '';
    const is = textsAfter?.[aspect] ?? '';
    if (was !== is) changed.push(aspect);
  }
  if (before !== undefined && after !== undefined && changed.length === 0) return undefined;
  const variablesBefore = new Set(before?.variables ?? []);
  const variablesAfter = new Set(after?.variables ?? []);
  const findingsBefore = findingsOf(before?.view.problems ?? []);
  const findingsAfter = findingsOf(after?.view.problems ?? []);
  return {
    kind: either.kind,
    name: either.name,
    path: either.path,
    change: before === undefined ? 'added' : after === undefined ? 'removed' : 'changed',
    changed,
    blocks,
    variables: {
      added: [...variablesAfter].filter((name) => !variablesBefore.has(name)),
      removed: [...variablesBefore].filter((name) => !variablesAfter.has(name)),
    },
    findings: { appeared: minus(findingsAfter, findingsBefore), disappeared: minus(findingsBefore, findingsAfter) },
    before,
    after,
  };
}

/** The review of two sides' emails: those that differ, by kind then path, and how many do not. */
export function compareSides(before: ReadonlyMap<string, SideEmail>, after: ReadonlyMap<string, SideEmail>): Review {
  const paths = [...new Set([...before.keys(), ...after.keys()])].sort();
  const emails: ReviewedEmail[] = [];
  let unchanged = 0;
  for (const path of paths) {
    const reviewed = reviewEmail(before.get(path), after.get(path));
    if (reviewed === undefined) unchanged += 1;
    else emails.push(reviewed);
  }
  return { emails, unchanged, digest: reviewDigest(emails) };
}

/** A digest of both sides of each email listed, as drawn and as its fields read: what a person approves. */
function reviewDigest(emails: readonly ReviewedEmail[]): string {
  const side = (email: SideEmail | undefined) => (email === undefined ? null : drawn(email));
  const body = emails.map((email) => ({ path: email.path, change: email.change, before: side(email.before), after: side(email.after) }));
  return sha256(canonicalJson(body));
}

/** One side of an email as a review's digest takes it: its body as drawn, and its fields. */
function drawn(email: SideEmail): object {
  return { html: sha256(email.view.html), ...textsOf(email), name: email.name };
}

/** The digest of one email as drawn on one side: two sides draw it the same when theirs are equal. */
export function emailDigest(email: SideEmail): string {
  return sha256(canonicalJson(drawn(email)));
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The review as `--json` prints it. */
export function reviewJson(review: Review): object {
  return {
    emails: review.emails.map(({ kind, name, path, change, changed, blocks, variables, findings, callSites, before, after }) => ({
      kind,
      name,
      path,
      change,
      changed,
      blocks,
      variables,
      findings,
      ...(callSites === undefined ? {} : { callSites }),
      ...(before !== undefined && before.errors.length > 0 ? { beforeErrors: findingsOf(before.errors) } : {}),
      ...(after !== undefined && after.errors.length > 0 ? { afterErrors: findingsOf(after.errors) } : {}),
    })),
    unchanged: review.unchanged,
    ...(review.unusedComponents === undefined || review.unusedComponents.length === 0 ? {} : { unusedComponents: review.unusedComponents }),
    digest: review.digest,
  };
}
