/**
 * What a transactional email's later sends meet in the sandbox: its delivery, bounce and spam
 * rates, set by `POST /_sandbox/engagement` (`loopsctl sandbox engagement`). Each counter follows
 * its rate exactly, send after send: the n-th send since the rates were set counts once where
 * floor(n × rate) grows, so a given state gives the same outcomes every time, and a day of 50
 * sends at a 0.3 hard bounce rate has 15 hard bounces, not a draw near it.
 */
import { z } from '../../base/shapes.js';
import { badRequest, notFound, objectBody, slice, stringField, type ApiAnswer, type RouteContext, type SandboxModule } from '../module.js';
import { transactionalEmails } from './transactional.js';

export const ENGAGEMENT_PATH = '/_sandbox/engagement';

/** The outcomes a send may meet, each with its rate among sends. */
export const ENGAGEMENT_RATES = ['deliveryRate', 'hardBounceRate', 'softBounceRate', 'spamRate'] as const;
type RateName = (typeof ENGAGEMENT_RATES)[number];

const setting = z.object({
  rates: z.object({ deliveryRate: z.number(), hardBounceRate: z.number(), softBounceRate: z.number(), spamRate: z.number() }),
  /** Sends since the rates were set: where each counter's sequence stands. */
  sends: z.number(),
});
type Setting = z.infer<typeof setting>;

/** By transactional email id; an email with none delivers every send, as the platform's counters of a healthy email nearly do. */
export const engagementSettings = slice('engagement', z.record(z.string(), setting), (): Record<string, Setting> => ({}));

/** What one send met. */
export interface SendOutcome {
  delivered: boolean;
  hardBounced: boolean;
  softBounced: boolean;
  spamReported: boolean;
}

const DELIVERED: SendOutcome = { delivered: true, hardBounced: false, softBounced: false, spamReported: false };

/** Whether the n-th send (from 1) counts, for a counter at `rate`: once each time floor(n × rate) grows. */
function counts(n: number, rate: number): boolean {
  return Math.floor(n * rate + 1e-9) > Math.floor((n - 1) * rate + 1e-9);
}

/** The outcome of the email's next send, which it counts. */
export function nextSendOutcome(context: RouteContext, emailId: string): SendOutcome {
  const kept = engagementSettings.of(context.state)[emailId];
  if (kept === undefined) return DELIVERED;
  kept.sends += 1;
  const { rates, sends } = kept;
  return {
    delivered: counts(sends, rates.deliveryRate),
    hardBounced: counts(sends, rates.hardBounceRate),
    softBounced: counts(sends, rates.softBounceRate),
    spamReported: counts(sends, rates.spamRate),
  };
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
  if (!transactionalEmails.of(context.state).some((email) => email.record.id === emailId)) throw notFound(`no transactional email has the id ${emailId}`);
  const hardBounceRate = rateOf(fields, 'hardBounceRate', 0);
  const softBounceRate = rateOf(fields, 'softBounceRate', 0);
  const spamRate = rateOf(fields, 'spamRate', 0);
  const deliveryRate = rateOf(fields, 'deliveryRate', Math.max(0, 1 - hardBounceRate - softBounceRate));
  if (deliveryRate + hardBounceRate + softBounceRate > 1 + 1e-9)
    throw badRequest('deliveryRate, hardBounceRate and softBounceRate add up to more than 1: a send is delivered or bounces, not both');
  const kept: Setting = { rates: { deliveryRate, hardBounceRate, softBounceRate, spamRate }, sends: 0 };
  engagementSettings.of(context.state)[emailId] = kept;
  context.changed();
  return { status: 200, body: { emailId, ...kept.rates } };
}

export const sandbox: SandboxModule = {
  slices: [engagementSettings],
  routes: [{ method: 'POST', path: ENGAGEMENT_PATH, run: setEngagement }],
};
