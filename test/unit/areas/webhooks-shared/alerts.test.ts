/** Alert rules as --alert reads them, and their verdicts over a rolling window of event times. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AlertRule, parseAlertRule } from '../../../../src/areas/webhooks-shared/alert-rules.js';
import { type AlertEvent, AlertWatch, alertEventOf, judgeAlerts } from '../../../../src/areas/webhooks-shared/alert-window.js';
import { UsageError } from '../../../../src/base/errors.js';
import { webhookFixture } from '../../../../src/webhooks/sign.js';

const refusal = (text: string) => {
  try {
    parseAlertRule(text);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as UsageError).message;
  }
  throw new Error(`${text} was taken`);
};

describe('alertEventOf', () => {
  const body = (changes: Record<string, unknown>) => JSON.stringify({ ...webhookFixture('campaign.email.sent'), ...changes });

  it('reads an event as parseWebhookEvent does: its name, time and email', () => {
    const sent = webhookFixture('campaign.email.sent');
    expect(alertEventOf(body({ eventTime: 1_700_000_000 }))).toEqual({
      eventName: 'campaign.email.sent',
      eventTime: 1_700_000_000,
      email: { id: sent.email.emailMessageId, subject: sent.email.subject },
    });
    expect(alertEventOf(JSON.stringify(webhookFixture('contact.created')))).toMatchObject({ eventName: 'contact.created', email: undefined });
  });

  it('reads nothing of a body that is no event, nor of an event parseWebhookEvent does not know', () => {
    expect(alertEventOf('not json')).toBeUndefined();
    expect(alertEventOf(body({ webhookSchemaVersion: '2.0.0' }))).toBeUndefined();
    expect(alertEventOf(body({ email: { id: 'e_1', emailMessageId: 42, subject: 'Hi' } }))).toBeUndefined();
    expect(alertEventOf(body({ eventName: 'campaign.email.scheduled' }))).toBeUndefined();
    expect(alertEventOf(body({}).replace('{"eventName"', '{"__proto__":{},"eventName"'))).toBeUndefined();
  });
});

describe('parseAlertRule', () => {
  it('reads the event, the rate as a fraction, the window, and the default floor of its kind', () => {
    expect(parseAlertRule('email.hardBounced>5%/1h')).toEqual({
      text: 'email.hardBounced>5%/1h',
      eventName: 'email.hardBounced',
      threshold: 0.05,
      percent: '5',
      windowMs: 3_600_000,
      minSends: 200,
    });
    expect(parseAlertRule(' email.spamReported > 0.1% /24h ')).toMatchObject({
      eventName: 'email.spamReported',
      threshold: 0.001,
      windowMs: 86_400_000,
      minSends: 1000,
    });
    expect(parseAlertRule('email.softBounced>10%/30m', 50).minSends).toBe(50);
  });

  it('names the place where a rule stops parsing', () => {
    expect(refusal('email.hardBounced')).toBe('--alert email.hardBounced: expected ">" and a rate after the event type, at character 18');
    expect(refusal('email.hardBounced>5/1h')).toBe('--alert email.hardBounced>5/1h: expected "%" after the rate, at character 20');
    expect(refusal('email.hardBounced>five%/1h')).toBe('--alert email.hardBounced>five%/1h: expected a rate in percent, such as 5% or 0.1%, at character 19');
    expect(refusal('email.hardBounced>5%1h')).toBe('--alert email.hardBounced>5%1h: expected "/" and a window after the rate, such as /1h, at character 21');
    expect(refusal('email.hardBounced>5%/1 hour')).toBe('--alert email.hardBounced>5%/1 hour: expected a window such as 30m, 1h or 24h, at character 22');
    expect(refusal('email.hardBounced>5%/60d')).toContain('expected a window of at most 31d');
    expect(refusal('email.hardBounced>5%/1500ms')).toContain('expected a window of whole seconds');
    expect(refusal('email.hardBounced>100%/1h')).toContain('expected a rate under 100%');
  });

  it('refuses an event that is not a rate of sends, suggesting the one meant', () => {
    expect(refusal('email.hardBounce>5%/1h')).toBe(
      '--alert email.hardBounce>5%/1h: email.hardBounce is not an event type whose rate among sends can be taken, at character 1',
    );
    try {
      parseAlertRule('email.hardBounce>5%/1h');
    } catch (error) {
      expect((error as UsageError).hint).toContain('email.hardBounced');
    }
    expect(refusal('contact.created>5%/1h')).toContain('contact.created is not an event type');
  });
});

const rule = (text: string, minSends: number): AlertRule => parseAlertRule(text, minSends);
const NEWS = { id: 'cmsgnews00000000000000001', subject: 'News' };
const sends = (at: number, count: number, email = NEWS): AlertEvent[] =>
  Array.from({ length: count }, () => ({ eventName: 'campaign.email.sent', eventTime: at, email }));
const bounces = (at: number, count: number, email = NEWS): AlertEvent[] =>
  Array.from({ length: count }, () => ({ eventName: 'email.hardBounced', eventTime: at, email }));

describe('judgeAlerts', () => {
  const bouncing = rule('email.hardBounced>5%/1h', 100);

  it('fires within the window of a spike, and resolves once the spike has left it', () => {
    const events = [...sends(1000, 100), ...bounces(1010, 3), ...bounces(1020, 5)];
    const transitions = judgeAlerts([bouncing], events, 1000 + 7200).transitions.filter((transition) => transition.email === null);
    expect(transitions).toEqual([
      {
        rule: 'email.hardBounced>5%/1h',
        email: null,
        state: 'fired',
        at: new Date(1020_000).toISOString(),
        window: { from: new Date((1020 - 3600) * 1000).toISOString(), to: new Date(1020_000).toISOString() },
        sends: 100,
        events: 8,
        rate: 0.08,
        threshold: 0.05,
      },
    ]);
    // The sends leave the window with the bounces: under the floor, no verdict, and the alert stands.
    const resolving = [...events, ...sends(1000 + 3000, 200)];
    const states = judgeAlerts([bouncing], resolving, 1000 + 7200).transitions.filter((transition) => transition.email === null);
    expect(states.map(({ state, at }) => [state, at])).toEqual([
      ['fired', new Date(1020_000).toISOString()],
      ['resolved', new Date(4000_000).toISOString()],
    ]);
  });

  it('fires over its rate, never at it: 7 bounces in 1,000 sends is not over 0.7%, 8 are', () => {
    const tight = rule('email.hardBounced>0.7%/1h', 1000);
    expect(judgeAlerts([tight], [...sends(1000, 1000), ...bounces(1001, 7)], 2000).transitions).toEqual([]);
    const over = judgeAlerts([tight], [...sends(1000, 1000), ...bounces(1001, 8)], 2000).transitions.filter((transition) => transition.email === null);
    expect(over.map(({ state, events, sends: sent }) => [state, events, sent])).toEqual([['fired', 8, 1000]]);
    expect(judgeAlerts([bouncing], [...sends(1000, 100), ...bounces(1001, 5)], 2000).transitions).toEqual([]);
  });

  it('gives no verdict under the floor, whatever the rate', () => {
    expect(judgeAlerts([bouncing], [...sends(1000, 99), ...bounces(1001, 50)], 10_000).transitions).toEqual([]);
  });

  it('never fires on a steady baseline under the threshold', () => {
    // Each half hour, 100 sends and their 4 bounces a minute later, for a day.
    const baseline = Array.from({ length: 48 }, (_, half) => [...sends(half * 1800, 100), ...bounces(half * 1800 + 60, 4)]).flat();
    expect(judgeAlerts([bouncing], baseline, 47 * 1800 + 60).transitions).toEqual([]);
  });

  it('judges each email on its own sends, and the account on all of them', () => {
    const other = { id: 'cmsgother0000000000000001', subject: 'Other' };
    const events = [...sends(1000, 100), ...sends(1000, 100, other), ...bounces(1010, 8, other)];
    const transitions = judgeAlerts([bouncing], events, 2000).transitions;
    expect(transitions.map(({ email, state, rate }) => [email?.subject ?? 'account', state, rate])).toEqual([['Other', 'fired', 0.08]]);
  });

  it('gives the same transitions whatever order the events were added in', () => {
    const events = [...sends(0, 60), ...sends(1800, 60), ...bounces(100, 4), ...bounces(1900, 4), ...sends(3700, 100), ...bounces(3700, 1)];
    const expected = judgeAlerts([rule('email.hardBounced>5%/1h', 50)], events, 10_000).transitions;
    expect(expected.map((transition) => transition.state)).toContain('fired');
    fc.assert(
      fc.property(fc.shuffledSubarray(events, { minLength: events.length, maxLength: events.length }), (shuffled) => {
        expect(judgeAlerts([rule('email.hardBounced>5%/1h', 50)], shuffled, 10_000).transitions).toEqual(expected);
      }),
      { numRuns: 50 },
    );
  });

  it('gives the same transitions judged as events come as judged once at the end', () => {
    const events = [...sends(1000, 100), ...bounces(1010, 8), ...sends(5000, 300), ...bounces(5001, 1), ...bounces(9000, 30), ...sends(9000, 100)];
    const watch = new AlertWatch([bouncing]);
    const live = events.flatMap((event) => {
      watch.add(event);
      return watch.advance(event.eventTime - 1);
    });
    live.push(...watch.advance(20_000));
    expect(live).toEqual(judgeAlerts([bouncing], events, 20_000).transitions);
  });
});
