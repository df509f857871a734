/**
 * Audience filters on the way through a workflow: activity conditions read what the sandbox
 * recorded (each workflow email's send, and its simulated open and click) at the moment the filter
 * is evaluated on the sandbox's clock; a filter the platform cannot have lets no one on, and says
 * where it is wrong.
 */
import { describe, expect, it } from 'vitest';
import { allJourneys } from '../../../../src/emulator/journey-records.js';
import { outbox } from '../../../../src/emulator/routes/sandbox.js';
import type { StoredWorkflow } from '../../../../src/emulator/routes/workflow-records.js';
import { sandboxWithWorkflows, eventWorkflow as workflowOf } from '../../../support/journeys.js';

const email = (subject: string) => ({ typeName: 'SendEmailAction', emailMessageId: `msg_${subject}`, subject });
const activity = (action: string, target: string, id: string, negate = false) => ({
  typeName: 'AudienceFilter',
  audienceFilter: { match: 'all', conditions: [{ type: 'activity', action, negate, target, id }] },
});

/**
 * "nudge": the first email, a wait, then a filter on what the contact did with that email (or
 * whatever `filter` says), then the second email.
 */
function nudge(filter: Record<string, unknown>, wait: Record<string, unknown> = { typeName: 'TimerAction', amount: 1, unit: 'h' }): StoredWorkflow {
  return workflowOf('nudge', [
    ['first', email('First'), ['wait']],
    ['wait', wait, ['filter']],
    ['filter', filter, ['second']],
    ['second', email('Second'), []],
  ]);
}

function sandboxWith(engagement: boolean | undefined, ...added: StoredWorkflow[]) {
  const { state, call } = sandboxWithWorkflows(...added);
  if (engagement !== undefined)
    state.webhookEndpoint = { url: 'http://127.0.0.1:9/', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', simulateEngagement: engagement };
  /** Sends the event for each contact, moves the clock, and answers the subjects each got, and the filter's step. */
  const run = (event: string, advance: string, ...emails: string[]) => {
    for (const to of emails) expect(call('POST', '/v1/events/send', { body: { email: to, eventName: event } }).status).toBe(200);
    expect(call('POST', '/_sandbox/clock', { body: { advance } }).status).toBe(200);
    return emails.map((to) => ({
      got: outbox.of(state).flatMap((entry) => (entry.kind === 'workflow' && entry.to === to ? [`${entry.at} ${entry.subject}`] : [])),
      filter: allJourneys(state)
        .find((journey) => journey.email === to && journey.workflowName !== 'other')!
        .steps.find((step) => step.nodeId === 'filter'),
    }));
  };
  return { state, call, run };
}

const T0 = '2024-11-01T08:00:00.000Z';
const AN_HOUR_ON = '2024-11-01T09:00:00.000Z';

describe('activity conditions of an audience filter', () => {
  it('reads a simulated open and click once they have happened on the clock, and records when they happen', () => {
    for (const action of ['opened', 'clicked']) {
      const { state, run } = sandboxWith(true, nudge(activity(action, 'workflowEmail', 'first')));
      const [ada] = run('nudge', '1h', 'ada@example.com');
      expect(ada!.got).toEqual([`${T0} First`, `${AN_HOUR_ON} Second`]);
      expect(ada!.filter).toMatchObject({ outcome: 'matched', at: AN_HOUR_ON, why: 'matches its filter' });
      const first = outbox.of(state).find((entry) => entry.kind === 'workflow' && entry.subject === 'First');
      expect(first).toMatchObject({
        engagement: { deliveredAt: '2024-11-01T08:00:01.000Z', openedAt: '2024-11-01T08:00:02.000Z', clickedAt: '2024-11-01T08:00:03.000Z' },
      });
    }
  });

  it('finds no open before it happens: a filter right after the send, or no simulated engagement at all', () => {
    const atOnce = sandboxWith(true, nudge(activity('opened', 'workflowEmail', 'msg_First'), { typeName: 'TimerAction', amount: 1, unit: 's' }));
    // The open comes two seconds after the send; the filter reads it one second after.
    const [early] = atOnce.run('nudge', '1h', 'ada@example.com');
    expect(early!.got).toEqual([`${T0} First`]);
    expect(early!.filter).toMatchObject({ outcome: 'filtered-out', at: '2024-11-01T08:00:01.000Z', why: 'does not match its filter' });
    for (const engagement of [false, undefined]) {
      const quiet = sandboxWith(engagement, nudge(activity('opened', 'workflowEmail', 'first')));
      const [ada] = quiet.run('nudge', '1h', 'ada@example.com');
      expect(ada!.got).toEqual([`${T0} First`]);
      expect(outbox.of(quiet.state).find((entry) => entry.kind === 'workflow')).not.toHaveProperty('engagement');
    }
  });

  it('reads sends by a workflow or by its email, negated, and never a campaign (the sandbox sends none)', () => {
    const other = workflowOf('other', [['welcome', email('Welcome'), []]]);
    const cases: [Record<string, unknown>, string[]][] = [
      [activity('sent', 'workflow', 'wf_other'), ['ada@example.com']],
      [activity('sent', 'workflow', 'wf_other', true), ['bob@example.com']],
      [activity('sent', 'workflowEmail', 'msg_Welcome'), ['ada@example.com']],
      [activity('sent', 'workflowEmail', 'welcome', true), ['bob@example.com']],
      [activity('opened', 'campaign', 'any-campaign'), []],
      [activity('sent', 'campaign', 'any-campaign', true), ['ada@example.com', 'bob@example.com']],
    ];
    for (const [filter, passing] of cases) {
      const { call, run } = sandboxWith(true, other, nudge(filter));
      // Only Ada got the other workflow's email.
      expect(call('POST', '/v1/events/send', { body: { email: 'ada@example.com', eventName: 'other' } }).status).toBe(200);
      const results = run('nudge', '1h', 'ada@example.com', 'bob@example.com');
      const through = ['ada@example.com', 'bob@example.com'].filter((_to, index) => results[index]!.got.some((line) => line.endsWith('Second')));
      expect({ filter, through }).toEqual({ filter, through: passing });
    }
  });

  it('counts a send only from its time on: a contact placed a day back does not see an email sent today', () => {
    const { state, call } = sandboxWith(undefined, workflowOf('other', [['welcome', email('Welcome'), []]]), nudge(activity('sent', 'workflow', 'wf_other')));
    expect(call('POST', '/v1/events/send', { body: { email: 'ada@example.com', eventName: 'other' } }).status).toBe(200);
    const place = (since: string) => call('POST', '/_sandbox/journeys', { body: { contact: 'ada@example.com', workflow: 'wf_nudge', node: 'filter', since } });
    expect(place('2024-10-31T08:00:00.000Z').status).toBeLessThan(300);
    expect(place(T0).status).toBeLessThan(300);
    const filterSteps = allJourneys(state)
      .filter((journey) => journey.workflowId === 'wf_nudge')
      .map((journey) => journey.steps.find((step) => step.nodeId === 'filter' && step.outcome !== 'placed'));
    expect(filterSteps).toMatchObject([
      { outcome: 'filtered-out', at: '2024-10-31T08:00:00.000Z' },
      { outcome: 'matched', at: T0 },
    ]);
  });

  it('keeps a contact’s sends with it when its address changes, and gives none to a new contact at the old address', () => {
    const { state, call } = sandboxWith(
      undefined,
      workflowOf('other', [['welcome', email('Welcome'), []]]),
      nudge(activity('sent', 'workflowEmail', 'welcome')),
    );
    expect(call('POST', '/v1/contacts/create', { body: { email: 'quinn@example.com', userId: 'quinn-1' } }).status).toBe(200);
    expect(call('POST', '/v1/events/send', { body: { email: 'quinn@example.com', eventName: 'other' } }).status).toBe(200);
    expect(call('PUT', '/v1/contacts/update', { body: { email: 'quinn@new.example.com', userId: 'quinn-1' } }).status).toBe(200);
    expect(call('POST', '/v1/contacts/create', { body: { email: 'quinn@example.com' } }).status).toBe(200);
    for (const to of ['quinn@new.example.com', 'quinn@example.com']) call('POST', '/v1/events/send', { body: { email: to, eventName: 'nudge' } });
    call('POST', '/_sandbox/clock', { body: { advance: '1h' } });
    const outcomes = allJourneys(state)
      .filter((journey) => journey.workflowId === 'wf_nudge')
      .map((journey) => [journey.email, journey.steps.find((step) => step.nodeId === 'filter')?.outcome]);
    expect(outcomes).toEqual([
      ['quinn@new.example.com', 'matched'],
      ['quinn@example.com', 'filtered-out'],
    ]);
  });

  it('lets no one on through a filter the platform cannot have, naming the place at fault', () => {
    const { run } = sandboxWith(undefined, nudge(activity('received', 'workflowEmail', 'first')));
    const [ada] = run('nudge', '1h', 'ada@example.com');
    expect(ada!.filter).toMatchObject({
      outcome: 'filtered-out',
      why: 'its filter cannot be evaluated: audienceFilter.conditions[0].action: "received" is not an activity action',
    });
  });

  it('says so in a branch whose filter cannot be evaluated', () => {
    const bad = activity('sent', 'mailingList', 'x').audienceFilter;
    const { state, call } = sandboxWith(
      undefined,
      workflowOf('fork', [
        ['branch', { typeName: 'BranchNode' }, ['only']],
        ['only', { typeName: 'AudienceFilter', audienceFilter: bad }, []],
      ]),
    );
    call('POST', '/v1/events/send', { body: { email: 'ada@example.com', eventName: 'fork' } });
    expect(
      allJourneys(state)
        .find((journey) => journey.workflowId === 'wf_fork')!
        .steps.at(-1),
    ).toMatchObject({
      outcome: 'exited',
      why: 'no branch matched the contact; branch 1\'s filter cannot be evaluated: audienceFilter.conditions[0].target: "mailingList" is not an activity target',
    });
  });
});

describe('an experiment', () => {
  it('splits a webhook experiment as an autosplit, and says so', () => {
    const experiment = (experimentType: string) =>
      workflowOf(`split_${experimentType}`, [
        ['split', { typeName: 'ExperimentBranchNode', samplingRate: 50, experimentType, url: 'https://example.com/split' }, ['a', 'b']],
        ['a', { typeName: 'VariantNode', isControl: true }, []],
        ['b', { typeName: 'VariantNode', isControl: false }, []],
      ]);
    const { state, call } = sandboxWith(undefined, experiment('webhook'), experiment('autosplit'));
    for (let n = 0; n < 20; n += 1) {
      for (const eventName of ['split_webhook', 'split_autosplit']) call('POST', '/v1/events/send', { body: { email: `c${n}@example.com`, eventName } });
    }
    const variants = (name: string) =>
      allJourneys(state)
        .filter((journey) => journey.workflowName === name)
        .map((journey) => journey.steps.find((step) => step.typeName === 'VariantNode')!.nodeId);
    expect(variants('split_webhook')).toEqual(variants('split_autosplit'));
    const why = (name: string) => allJourneys(state).find((journey) => journey.workflowName === name)!.steps[1]!.why;
    expect(why('split_webhook')).toMatch(
      /^in variant \d of 2 \(sampling rate 50%; a webhook experiment, split as an autosplit: the sandbox calls no webhook\)$/,
    );
    expect(why('split_autosplit')).toMatch(/^in variant \d of 2 \(sampling rate 50%\)$/);
  });
});
