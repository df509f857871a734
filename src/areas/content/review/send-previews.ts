/**
 * `content review --send-previews <address>`: each changed email sent through the API's preview
 * operation, the platform's own rendering to a real inbox. The operation sends what the account
 * holds, so an email is sent only where the account's draft (a transactional email's draft, a
 * campaign's email, the email of a workflow's send-email node) draws exactly as the review's head
 * side does (the change pushed): what arrives is what was reviewed. In a tree with environments the
 * head side is the environment's (its values filled, as a push sends them) and the account is its. A record in loopsctl's cache
 * directory keeps each preview sent (team, email message, digest, address): none is sent twice, and
 * the team's daily allowance ("Each team can send up to 100 preview emails per day.") is counted
 * before anything is sent.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { RateLimitError, UsageError } from '../../../base/errors.js';
import { cacheDirectory } from '../../../config/paths.js';
import type { Uses } from '../../../core/capabilities.js';
import { PREVIEWS_PER_DAY } from '../../../platform/email-messages/previews.js';
import { emailPathOf } from '../../../platform/workflows/file.js';
import { previewEmailMessage } from '../../email-messages/client.js';
import type { RemoteRecord } from '../emails/remote.js';
import type { Environment } from '../shared/environments.js';
import type { WorkflowSide } from '../workflows/sides.js';
import { accountTree } from './account-base.js';
import { emailDigest, type Review, type ReviewedEmail } from './compare.js';
import { readSide } from './sides.js';

/** Why an email was not sent, in words. */
export const NOT_THIS_CHANGE = "the account's draft is not this change: push it with `content push` first, then review again";
const NOT_ON_ACCOUNT = 'the account holds no such email yet: push it with `content push` first, then review again';

/** A preview sent, as the record in the cache directory keeps it. */
interface SentRecord {
  team: string;
  emailMessageId: string;
  digest: string;
  address: string;
  /** When it was sent, ISO 8601 (UTC): the day it counts against. */
  at: string;
}

export interface PreviewsReport {
  address: string;
  sent: { path: string; name: string; emailMessageId: string; digest: string }[];
  skipped: { path: string; name: string; reason: string }[];
  /** Past a 429 of the API: those left unsent. */
  notSent: { path: string; name: string; reason: string }[];
}

/**
 * The email message behind each email the account holds: a transactional email's draft and a
 * campaign's email by `<kind>/<record id>`; the email of a workflow's send-email node by its
 * directory in the account's side of the tree (`workflows/welcome--cw1/emails/<node key>`), where
 * the workflow's files put it (workflowFilesOf).
 */
function messageIds(remotes: readonly RemoteRecord[], workflows: readonly WorkflowSide[]): Map<string, string> {
  const ids = new Map<string, string>();
  for (const remote of remotes) {
    const message = remote.kind === 'transactional' ? (remote.messages.draft ?? remote.messages.published) : remote.messages.email;
    if (message !== undefined) ids.set(`${remote.kind}/${remote.id}`, message.id);
  }
  for (const { path, remote, account } of workflows) {
    for (const [nodeId, message] of remote?.messages ?? []) {
      const key = account?.keys.get(nodeId);
      if (key !== undefined) ids.set(`${path}/${dirname(emailPathOf(key))}`, message.id);
    }
  }
  return ids;
}

/** An email's key in messageIds: its record's (`transactional/welcome--cx1` → `transactional/cx1`, as files.ts recordPath names it), a workflow's email by its directory. */
function messageKey({ kind, path }: ReviewedEmail): string | undefined {
  if (kind === 'workflow') return path;
  const [group, directory] = path.split('/');
  const at = directory?.lastIndexOf('--') ?? -1;
  return at < 0 ? undefined : `${group}/${decodeURIComponent(directory!.slice(at + 2))}`;
}

/** `1 preview`, `3 previews`. */
function counted(previews: number): string {
  return `${previews} preview${previews === 1 ? '' : 's'}`;
}

function readRecord(file: string): SentRecord[] {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return Array.isArray(parsed) ? (parsed as SentRecord[]) : [];
  } catch {
    return [];
  }
}

/** Sends the previews of a review's emails (head side `tree`, a pulled working tree) that the account holds as reviewed. */
export async function sendPreviews(
  context: Uses<'client' | 'key' | 'prompts' | 'clock' | 'env' | 'files'>,
  review: Review,
  tree: { root: string; shown: string },
  address: string,
  yes: boolean | undefined,
  environment?: Environment,
): Promise<PreviewsReport> {
  const report: PreviewsReport = { address, sent: [], skipped: [], notSent: [] };
  const emails = review.emails.filter((email) => email.after !== undefined);
  if (emails.length === 0) return report;
  const side = await accountTree(context, tree.root, tree.shown, undefined, environment);
  const held = await readSide(side.root).finally(side.remove);
  const ids = messageIds(side.remotes, side.workflows);
  const { runtime } = context;
  const file = join(cacheDirectory(runtime.env, runtime.platform), 'previews-sent.json');
  const record = readRecord(file);
  const team = side.account;
  const toSend: { path: string; name: string; emailMessageId: string; digest: string }[] = [];
  for (const email of emails) {
    const { path, name } = email;
    const digest = emailDigest(email.after!);
    const key = messageKey(email);
    const emailMessageId = key === undefined ? undefined : ids.get(key);
    const there = held.get(path);
    const skip = (reason: string) => report.skipped.push({ path, name, reason });
    if (emailMessageId === undefined || there === undefined) skip(NOT_ON_ACCOUNT);
    else if (emailDigest(there) !== digest) skip(NOT_THIS_CHANGE);
    else if (record.some((sent) => sent.team === team && sent.emailMessageId === emailMessageId && sent.digest === digest && sent.address === address))
      skip(`a preview of this email as reviewed was sent to ${address} before`);
    else toSend.push({ path, name, emailMessageId, digest });
  }
  if (toSend.length === 0) return report;
  const today = runtime.now().toISOString().slice(0, 10);
  const left = Math.max(0, PREVIEWS_PER_DAY - record.filter((sent) => sent.team === team && sent.at.startsWith(today)).length);
  if (toSend.length > left)
    throw new UsageError(
      `--send-previews would send ${counted(toSend.length)}, and the team ${team} has ${left} left today (UTC) of the ${PREVIEWS_PER_DAY} a day the API allows; nothing was sent`,
      { hint: 'review fewer emails at a time (a narrower --base, or fewer changes), or send the rest tomorrow' },
    );
  await context.confirm(`Send ${counted(toSend.length)} of the reviewed emails to ${address}?`, yes);
  const api = await context.client();
  for (const [index, email] of toSend.entries()) {
    try {
      await previewEmailMessage(api, email.emailMessageId, { emails: [address] });
    } catch (error) {
      if (!(error instanceof RateLimitError)) throw error;
      const reason = `the API refused it: the daily preview limit is reached (${error.message})`;
      report.notSent.push(...toSend.slice(index).map(({ path, name }) => ({ path, name, reason })));
      break;
    }
    report.sent.push(email);
    record.push({ team, emailMessageId: email.emailMessageId, digest: email.digest, address, at: runtime.now().toISOString() });
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
  }
  return report;
}
