/**
 * The send counters the metrics rules judge, read only when a threshold is given: each published
 * transactional email's, each sent campaign's, each workflow email's. With --snapshot, the
 * counters are kept in a file, and the next run judges the sends since then; the file keeps the
 * run's problems too, for `--notify` to post only what changed.
 */
import type { ApiClient } from '../../api/client.js';
import { LocalFileError } from '../../base/errors.js';
import { writeFileBytes } from '../../base/json-file.js';
import { jsonFault } from '../../base/parse-faults.js';
import { z } from '../../base/shapes.js';
import { namedFilePlace, readTreeFile } from '../../base/tree-files.js';
import { campaignMetrics } from '../campaigns/client.js';
import { transactionalMetrics } from '../transactional/client.js';
import { nodeMetrics } from '../workflows/client.js';
import { type Problem, problemShape, type RecordRef } from './records.js';

export const counters = z.strictObject({
  sends: z.number(),
  hardBounces: z.number(),
  softBounces: z.number(),
  spamReports: z.number(),
  opens: z.optional(z.number()),
  unsubscribes: z.optional(z.number()),
});
export type Counters = z.infer<typeof counters>;

/** One email's counters: `key` names it in a snapshot (`workflow/<id>/<node id>`). */
export interface EmailCounters {
  record: RecordRef;
  /** Which email of the record: `the published email`, `the email "Welcome aboard"`. */
  which: string;
  key: string;
  counters: Counters;
}

const pick = ({ sends, hardBounces, softBounces, spamReports, opens, unsubscribes }: Counters & Record<string, unknown>): Counters => ({
  sends,
  hardBounces,
  softBounces,
  spamReports,
  ...(opens === undefined ? {} : { opens }),
  ...(unsubscribes === undefined ? {} : { unsubscribes }),
});

/** What to read: the records whose emails have sent, each with how to ask for its counters. */
export interface MetricsTarget {
  record: RecordRef;
  which: string;
  key: string;
  read: (api: ApiClient) => Promise<Counters & Record<string, unknown>>;
}

export const transactionalTarget = (record: RecordRef): MetricsTarget => ({
  record,
  which: 'the published email',
  key: `transactional/${record.id}`,
  read: (api) => transactionalMetrics(api, record.id),
});
export const campaignTarget = (record: RecordRef): MetricsTarget => ({
  record,
  which: 'the campaign',
  key: `campaign/${record.id}`,
  read: (api) => campaignMetrics(api, record.id),
});
export const workflowEmailTarget = (record: RecordRef, nodeId: string, subject: string): MetricsTarget => ({
  record,
  which: subject === '' ? `the email ${nodeId}` : `the email "${subject}"`,
  key: `workflow/${record.id}/${nodeId}`,
  read: (api) => nodeMetrics(api, record.id, nodeId),
});

export async function readCounters(api: ApiClient, target: MetricsTarget): Promise<EmailCounters> {
  return { record: target.record, which: target.which, key: target.key, counters: pick(await target.read(api)) };
}

/** What a run keeps: each email's counters by key, and the problems it found. */
export interface Snapshot {
  counters: Record<string, Counters>;
  /** None in a file from before snapshots kept them: every problem is then new. */
  problems?: Problem[];
}

const countersByKey = z.record(z.string(), counters);
const snapshotFile = z.union([z.strictObject({ counters: countersByKey, problems: z.array(problemShape) }), countersByKey]);

/** A snapshot keeps a few counters per email: 16 MiB is far past any account's. */
const SNAPSHOT_MAX_BYTES = 16 * 1024 * 1024;

/**
 * The counters a snapshot file kept, by key; none when the file does not exist yet. It is read as
 * a tree's files are (a regular file, never through a link, bounded), and what it holds is never
 * quoted: a snapshot path can be a committed link to someone's key.
 */
export function readSnapshot(file: string): Snapshot | undefined {
  const { root, path } = namedFilePlace(file);
  const bytes = readTreeFile(root, path, SNAPSHOT_MAX_BYTES);
  if (bytes === undefined) return undefined;
  const text = bytes.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new LocalFileError(`${file}: ${jsonFault(text)}`, {
      hint: 'it is the file an earlier `check --snapshot` wrote; remove it to start over',
    });
  }
  const result = snapshotFile.safeParse(parsed);
  if (!result.success) throw new LocalFileError(`${file}: not a snapshot of check's counters`, { hint: 'remove it to start over' });
  const data = result.data;
  return 'problems' in data && Array.isArray(data.problems) ? (data as Snapshot) : { counters: data as Record<string, Counters> };
}

/** Each email's counters, by key, as a snapshot keeps them. */
export function countersOf(emails: readonly EmailCounters[]): Record<string, Counters> {
  return Object.fromEntries([...emails].sort((a, b) => (a.key < b.key ? -1 : 1)).map((email) => [email.key, email.counters]));
}

export function writeSnapshot(file: string, kept: Required<Snapshot>): void {
  try {
    writeFileBytes(file, Buffer.from(`${JSON.stringify(kept, null, 2)}\n`));
  } catch (error) {
    throw new LocalFileError(`${file}: ${(error as Error).message}`, { cause: error });
  }
}

/** The sends since the snapshot: each counter less what it was then (all of it for an email the snapshot lacks). */
export function since(now: Counters, then: Counters | undefined): Counters {
  if (then === undefined) return now;
  const less = (a: number | undefined, b: number | undefined) => (a === undefined ? undefined : Math.max(0, a - (b ?? 0)));
  return pick({
    sends: less(now.sends, then.sends)!,
    hardBounces: less(now.hardBounces, then.hardBounces)!,
    softBounces: less(now.softBounces, then.softBounces)!,
    spamReports: less(now.spamReports, then.spamReports)!,
    opens: less(now.opens, then.opens),
    unsubscribes: less(now.unsubscribes, then.unsubscribes),
  });
}
