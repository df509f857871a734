/**
 * What an email's later sends meet in the sandbox (a transactional email's, a campaign's, or a
 * workflow's send-email node's): its delivery, open, click, bounce, spam and unsubscribe rates, set by
 * `POST /_sandbox/engagement` (`loopsctl sandbox engagement`). Each counter follows
 * its rate exactly, send after send: the n-th send since the rates were set counts once where
 * floor(n × rate) grows, so a given state gives the same outcomes every time, and a day of 50
 * sends at a 0.3 hard bounce rate has 15 hard bounces, not a draw near it.
 */
import { z } from '../../base/shapes.js';
import type { EmailMetrics } from '../../platform/email-metrics.js';
import { type ApiAnswer, badRequest, notFound, objectBody, type RouteContext, type SandboxModule, slice, stringField } from '../module.js';
import { ENGAGEMENT_PATH } from '../own-paths.js';
import { campaigns } from './campaign-records.js';
import { transactionalEmails } from './transactional.js';
import { workflows } from './workflow-records.js';

/** The outcomes a send may meet, each with its rate among sends. */
export const ENGAGEMENT_RATES = ['deliveryRate', 'openRate', 'clickRate', 'hardBounceRate', 'softBounceRate', 'spamRate', 'unsubscribeRate'] as const;
type RateName = (typeof ENGAGEMENT_RATES)[number];

const setting = z.object({
  rates: z.object({
    deliveryRate: z.number(),
    openRate: z.number(),
    clickRate: z.number(),
    hardBounceRate: z.number(),
    softBounceRate: z.number(),
    spamRate: z.number(),
    unsubscribeRate: z.number(),
  }),
  /** Sends since the rates were set: where each counter's sequence stands. */
  sends: z.number(),
});
type Setting = z.infer<typeof setting>;

/** By transactional email id, campaign id or workflow node id; an email with none meets what the sandbox always gave: a delivery (and with --simulate-engagement, a workflow email's open and click). */
export const engagementSettings = slice('engagement', z.record(z.string(), setting), (): Record<string, Setting> => ({}));

/** What one send met. */
export interface SendOutcome {
  delivered: boolean;
  opened: boolean;
  clicked: boolean;
  hardBounced: boolean;
  softBounced: boolean;
  spamReported: boolean;
  unsubscribed: boolean;
}

/** A send that meets nothing but its delivery: a transactional email's without rates set. */
export const DELIVERED: SendOutcome = {
  delivered: true,
  opened: false,
  clicked: false,
  hardBounced: false,
  softBounced: false,
  spamReported: false,
  unsubscribed: false,
};

/** Whether the n-th send (from 1) counts, for a counter at `rate`: once each time floor(n × rate) grows. */
function counts(n: number, rate: number): boolean {
  return Math.floor(n * rate + 1e-9) > Math.floor((n - 1) * rate + 1e-9);
}

/** The outcome of the email's next send, which it counts; undefined when no rates were set for it. */
export function nextSendOutcome(context: RouteContext, emailId: string): SendOutcome | undefined {
  const kept = engagementSettings.of(context.state)[emailId];
  if (kept === undefined) return undefined;
  kept.sends += 1;
  const { rates, sends } = kept;
  return {
    delivered: counts(sends, rates.deliveryRate),
    opened: counts(sends, rates.openRate),
    clicked: counts(sends, rates.clickRate),
    hardBounced: counts(sends, rates.hardBounceRate),
    softBounced: counts(sends, rates.softBounceRate),
    spamReported: counts(sends, rates.spamRate),
    unsubscribed: counts(sends, rates.unsubscribeRate),
  };
}

/**
 * A marketing email's counters (a campaign's, a workflow node's) after a send: the send, and with
 * rates set, what it met (they count no deliveries).
 */
export function countSend(metrics: EmailMetrics, outcome: SendOutcome | undefined): void {
  metrics.sends += 1;
  if (outcome === undefined) return;
  metrics.opens += Number(outcome.opened);
  metrics.clicks += Number(outcome.clicked);
  metrics.hardBounces += Number(outcome.hardBounced);
  metrics.softBounces += Number(outcome.softBounced);
  metrics.spamReports += Number(outcome.spamReported);
  metrics.unsubscribes += Number(outcome.unsubscribed);
}

function rateOf(fields: Record<string, unknown>, name: RateName, fallback: number): number {
  const value = fields[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1)
    throw badRequest(`${name} must be a number from 0 to 1, not ${JSON.stringify(value)}`);
  return value;
}

/** Sets an email's rates (those not given: no bounces nor spam, the rest delivered), and starts its sequence over. */
function setEngagement(context: RouteContext): ApiAnswer {
  const fields = objectBody(context.body ?? {}, ['emailId', ...ENGAGEMENT_RATES], ['emailId']);
  const emailId = stringField(fields, 'emailId');
  const transactional = transactionalEmails.of(context.state).some((email) => email.record.id === emailId);
  const campaign = campaigns.of(context.state).some((each) => each.id === emailId);
  const node = workflows.of(context.state).some((workflow) => workflow.nodes.some((each) => each.id === emailId && each.typeName === 'SendEmailAction'));
  if (!transactional && !campaign && !node) throw notFound(`no transactional email, campaign nor workflow send-email node has the id ${emailId}`);
  const hardBounceRate = rateOf(fields, 'hardBounceRate', 0);
  const softBounceRate = rateOf(fields, 'softBounceRate', 0);
  const spamRate = rateOf(fields, 'spamRate', 0);
  const openRate = rateOf(fields, 'openRate', 0);
  const clickRate = rateOf(fields, 'clickRate', 0);
  const unsubscribeRate = rateOf(fields, 'unsubscribeRate', 0);
  const deliveryRate = rateOf(fields, 'deliveryRate', Math.max(0, 1 - hardBounceRate - softBounceRate));
  if (deliveryRate + hardBounceRate + softBounceRate > 1 + 1e-9)
    throw badRequest('deliveryRate, hardBounceRate and softBounceRate add up to more than 1: a send is delivered or bounces, not both');
  const kept: Setting = { rates: { deliveryRate, openRate, clickRate, hardBounceRate, softBounceRate, spamRate, unsubscribeRate }, sends: 0 };
  engagementSettings.of(context.state)[emailId] = kept;
  context.changed();
  return { status: 200, body: { emailId, ...kept.rates } };
}

export const sandbox: SandboxModule = {
  slices: [engagementSettings],
  routes: [{ method: 'POST', path: ENGAGEMENT_PATH, run: setEngagement }],
};
