/**
 * `metrics snapshot`: the account's counters (every published transactional email, every campaign
 * sending or sent, every workflow email node), each kept with the time the account answered at
 * (the answer's Date). Three listings, a read of each workflow, then one request per counter, a
 * few at a time, paced by the client within the API's rate limit; nothing more.
 */
import type { ApiClient } from '../../api/client.js';
import { everyItem } from '../../api/client.js';
import { headerValue } from '../../api/headers.js';
import type { HttpRequest } from '../../api/http.js';
import type * as z from '../../base/zod.js';
import { type Handler, handler, type Uses } from '../../core/capabilities.js';
import { fetchEach } from '../../core/email-metrics.js';
import { CAMPAIGN } from '../../platform/campaigns/resource.js';
import { emailMetrics } from '../../platform/email-metrics.js';
import { at } from '../../platform/operation-row.js';
import { TRANSACTIONAL_EMAIL } from '../../platform/transactional/resource.js';
import { transactionalMetrics } from '../../platform/transactional/schemas.js';
import { WORKFLOW } from '../../platform/workflows/resource.js';
import { countOf } from '../../render/numbers.js';
import { campaigns } from '../campaigns/client.js';
import { transactionalEmails } from '../transactional/client.js';
import { getWorkflow, workflows } from '../workflows/client.js';
import { COUNTER_FIELDS, type Counts } from './periods.js';
import { type KeptCounters, type KeptEmail, openMetricsStore } from './store.js';

/** Two snapshots of an email less than this apart (by the account's clock) are one: a second run keeps nothing. */
const SAME_SNAPSHOT_MS = 60_000;

/** An email whose counters a snapshot reads, and the request that reads them. */
interface Target extends KeptEmail {
  /** A workflow email's message: what its webhooks name it by (with the workflow's id). */
  emailMessageId?: string;
  request: HttpRequest;
  schema: z.ZodMiniType<Record<string, unknown>>;
}

const get = (path: string): HttpRequest => ({ method: 'GET', idempotent: true, path });

/**
 * Each email's counters as the account answers them, with the answer's Date (the account's
 * clock), read a few at a time as every metrics read is; the targets by key beside them.
 */
export async function countersOf(context: Uses<'out' | 'client' | 'globals'>, api: ApiClient, targets: readonly Target[]) {
  const byKey = new Map(targets.map((target) => [target.key, target]));
  const counters = await fetchEach(
    context,
    {
      items: targets.map((target) => target.key),
      noun: 'emails',
      fetch: async (key) => {
        const target = byKey.get(key)!;
        const { body, headers } = await api.answer(target.request, target.schema);
        return { body, date: headerValue(headers.date) };
      },
      about: (key) => ({ email: key }),
    },
    {},
  );
  return { ...counters, byKey };
}

/** Every email of the account that has counters: one listing of each kind, and each workflow's nodes. */
export async function targetsOf(api: ApiClient): Promise<Target[]> {
  const [transactional, campaignList, workflowList] = await Promise.all([
    everyItem(api, transactionalEmails),
    everyItem(api, campaigns),
    everyItem(api, workflows),
  ]);
  const records = await Promise.all(workflowList.map((summary) => getWorkflow(api, summary.id)));
  return [
    ...transactional
      .filter((email) => email.publishedEmailMessageId !== null)
      .map((email) => ({
        key: `transactional/${email.id}`,
        kind: 'transactional' as const,
        recordId: email.id,
        nodeId: null,
        name: email.name,
        workflowName: null,
        request: get(at(TRANSACTIONAL_EMAIL.operations.getTransactionalEmailMetrics, email.id)),
        schema: transactionalMetrics,
      })),
    // A campaign has counters once it is sending or sent.
    ...campaignList
      .filter((campaign) => ['sending', 'sent'].includes(campaign.status.toLowerCase()))
      .map((campaign) => ({
        key: `campaign/${campaign.id}`,
        kind: 'campaign' as const,
        recordId: campaign.id,
        nodeId: null,
        name: campaign.name,
        workflowName: null,
        request: get(at(CAMPAIGN.operations.getCampaignMetrics, campaign.id)),
        schema: emailMetrics,
      })),
    ...records.flatMap((workflow) =>
      emailNodes(workflow.nodes).map(({ id, subject, emailMessageId }) => ({
        key: `workflow/${workflow.id}/${id}`,
        emailMessageId,
        kind: 'workflow' as const,
        recordId: workflow.id,
        nodeId: id,
        name: subject,
        workflowName: workflow.name ?? workflow.id,
        request: get(at(WORKFLOW.operations.getWorkflowNodeMetrics, workflow.id, id)),
        schema: emailMetrics,
      })),
    ),
  ];
}

/** A workflow's send-email nodes with an email, by id, with their subjects. */
export function emailNodes(nodes: Record<string, unknown>): { id: string; subject: string; emailMessageId: string }[] {
  return Object.entries(nodes).flatMap(([id, node]) => {
    const fields = node as { typeName?: string; emailMessageId?: string | null; subject?: string };
    return fields.typeName === 'SendEmailAction' && typeof fields.emailMessageId === 'string'
      ? [{ id, subject: fields.subject ?? '', emailMessageId: fields.emailMessageId }]
      : [];
  });
}

interface SnapshotOptions {
  store?: string;
}

export const snapshot: Handler<[], SnapshotOptions> = handler(['out', 'client', 'globals', 'config', 'env', 'clock'], async (context, _args, options) => {
  const { out } = context;
  const store = await openMetricsStore(context, options);
  try {
    const api = await context.client();
    const { found, code, byKey } = await countersOf(context, api, await targetsOf(api));
    const recordedAt = context.runtime.now().getTime();
    let undated = 0;
    const rows: KeptCounters[] = found.map(({ item, value }) => {
      const { request: _request, schema: _schema, emailMessageId: _message, ...email } = byKey.get(item)!;
      const date = value.date === undefined ? Number.NaN : Date.parse(value.date);
      if (Number.isNaN(date)) undated += 1;
      const counts = Object.fromEntries(COUNTER_FIELDS.map((field) => [field, typeof value.body[field] === 'number' ? value.body[field] : null])) as Counts;
      return { ...email, takenAt: Number.isNaN(date) ? recordedAt : date, recordedAt, counts };
    });
    if (undated > 0) out.note(`${countOf(undated, 'answer')} carried no Date: dated by this machine's clock`);
    const latest = await store.latest();
    // Within a minute of the email's last snapshot (and not before it, which history refuses and says), a run is the same snapshot.
    const kept = rows.filter((row) => {
      const last = latest.get(row.key);
      return last === undefined || row.takenAt < last || row.takenAt - last >= SAME_SNAPSHOT_MS;
    });
    await store.add(kept);
    await store.keepMessages(
      found.flatMap(({ item }) => {
        const { emailMessageId } = byKey.get(item)!;
        return emailMessageId === undefined ? [] : [{ key: item, emailMessageId }];
      }),
    );
    const takenAt = rows.length === 0 ? null : new Date(Math.max(...rows.map((row) => row.takenAt))).toISOString();
    const report = { store: store.location, takenAt, kept: kept.length, unchanged: rows.length - kept.length, undated, emails: kept.map((row) => row.key) };
    if (out.json) await out.writeJson(report);
    else {
      const same = report.unchanged === 0 ? '' : `; ${countOf(report.unchanged, 'email')} had one less than a minute before, and kept it`;
      // Prose, wrapped at a terminal: the store's path or URL is as long as it is.
      await out.writeProse(`kept the counters of ${countOf(kept.length, 'email')} at ${takenAt ?? '-'} (the account's clock) in ${store.location}${same}`);
    }
    return code;
  } finally {
    await store.close();
  }
});
