/**
 * The sandbox runs workflows by the platform's published rules (src/platform/workflows/running.ts):
 * a filter with a segment and conditions applies both; a mailing-list change that discards ends the
 * journeys of the queued contacts the new list excludes; a paused workflow holds every contact that
 * reaches an email, however it got there; queued counts are the contacts waiting at a node. Each
 * cites the sentence it comes from.
 */
import { describe, expect, it } from 'vitest';
import { allJourneys } from '../../../src/emulator/journey-records.js';
import { seedId } from '../../../src/emulator/module.js';
import { outbox } from '../../../src/emulator/routes/sandbox.js';
import { segments } from '../../../src/emulator/routes/segments.js';
import { type StoredWorkflow, workflows } from '../../../src/emulator/routes/workflow-records.js';
import { eventWorkflow, sandboxWithWorkflows } from '../../support/journeys.js';

const WELCOME = seedId('workflow/Welcome series');
const node = (workflow: string, label: string) => seedId(`workflow/${workflow}/${label}`);
const PRODUCT_UPDATES = seedId('mailing-list/Product updates');
const BETA_TESTERS = seedId('mailing-list/Beta testers');
const email = (subject: string) => ({ typeName: 'SendEmailAction', emailMessageId: `msg_${subject}`, subject });

/** The subjects each contact was sent, in order. */
function sent(state: ReturnType<typeof sandboxWithWorkflows>['state'], to: string): string[] {
  return outbox.of(state).flatMap((entry) => (entry.kind === 'workflow' && entry.to === to ? [entry.subject] : []));
}

describe('a filter with both a segment and conditions', () => {
  // "When both are provided, this filter is applied on top of the segment's filter."
  // (AudienceFilterInRequest, the published description 1.22.1)
  it('applies its conditions on top of the segment: a paying contact with few seats is filtered out', () => {
    const { state, call } = sandboxWithWorkflows(
      eventWorkflow('big-payers', [
        [
          'filter',
          {
            typeName: 'AudienceFilter',
            audienceSegmentId: seedId('segment/Paying customers'),
            audienceFilter: { match: 'all', conditions: [{ type: 'property', key: 'seats', operator: 'greaterThan', value: 10 }] },
          },
          ['offer'],
        ],
        ['offer', email('Volume pricing'), []],
      ]),
    );
    for (const [address, plan, seats] of [
      ['big@example.com', 'pro', 40],
      ['small@example.com', 'pro', 2],
      ['free@example.com', 'free', 40],
    ] as const) {
      expect(call('POST', '/v1/contacts/create', { body: { email: address, plan, seats } }).status).toBe(200);
      expect(call('POST', '/v1/events/send', { body: { email: address, eventName: 'big-payers' } }).status).toBe(200);
    }
    expect(['big', 'small', 'free'].map((name) => sent(state, `${name}@example.com`))).toEqual([['Volume pricing'], [], []]);
    const small = allJourneys(state).find((journey) => journey.email === 'small@example.com')!;
    expect(small.steps.at(-1)).toMatchObject({ outcome: 'filtered-out', why: 'does not match segment "Paying customers" and its own filter' });
  });
});

describe('a filter by a segment deleted since', () => {
  it('lets no one on, and the step names the segment as deleted', () => {
    const segmentId = seedId('segment/Paying customers');
    const { state, call } = sandboxWithWorkflows(
      eventWorkflow('paying', [
        ['filter', { typeName: 'AudienceFilter', audienceSegmentId: segmentId }, ['offer']],
        ['offer', email('Thanks for paying'), []],
      ]),
    );
    // The API deletes no segment: one removed in the app is gone from the account all the same.
    segments.of(state).splice(
      segments.of(state).findIndex((segment) => segment.id === segmentId),
      1,
    );
    expect(call('POST', '/v1/contacts/create', { body: { email: 'pro@example.com', plan: 'pro' } }).status).toBe(200);
    expect(call('POST', '/v1/events/send', { body: { email: 'pro@example.com', eventName: 'paying' } }).status).toBe(200);
    expect(sent(state, 'pro@example.com')).toEqual([]);
    const journey = allJourneys(state).find((each) => each.email === 'pro@example.com')!;
    expect(journey.steps.at(-1)).toMatchObject({ outcome: 'filtered-out', why: expect.stringContaining(`segment ${segmentId} (deleted)`) });
  });
});

describe('a timer of 0', () => {
  // "Set to `0` to move to the next node immediately." (WorkflowTimerAmount, the published description 1.22.1)
  it('moves on at once: the email is sent within the request that started the journey, with no move of the clock', () => {
    const { state, call } = sandboxWithWorkflows(
      eventWorkflow('now', [
        ['wait', { typeName: 'TimerAction', amount: 0, unit: 'd' }, ['hello']],
        ['hello', email('Right away'), []],
      ]),
    );
    expect(call('POST', '/v1/events/send', { body: { email: 'ada@example.com', eventName: 'now' } }).status).toBe(200);
    expect(sent(state, 'ada@example.com')).toEqual(['Right away']);
    const [journey] = allJourneys(state).filter((each) => each.workflowId === 'wf_now');
    expect(journey!.steps[1]).toMatchObject({ typeName: 'TimerAction', outcome: 'passed', why: 'a timer of 0 moves on at once' });
  });
});

describe('a mailing-list change that discards queued contacts', () => {
  // "If queued contacts would be removed from the workflow due to the change of mailing list, Loops returns with
  // "status": "queuedContactsFound" instead of applying the change. Retry with queuedContactPolicy: "discard" to apply
  // the change and discard those contacts." (changeWorkflowMailingList, the published description 1.22.1)
  it('ends the journeys of the contacts the new list excludes, who get no more emails; the others go on', () => {
    const { state, call } = sandboxWithWorkflows();
    for (const [address, lists] of [
      ['newsletter@example.com', { [PRODUCT_UPDATES]: true }],
      ['both@example.com', { [PRODUCT_UPDATES]: true, [BETA_TESTERS]: true }],
    ] as const) {
      expect(call('POST', '/v1/contacts/create', { body: { email: address, plan: 'pro', mailingLists: lists } }).status).toBe(200);
    }
    const revision = () => call('GET', `/v1/workflows/${WELCOME}`).body.workflowRevisionId as string;
    const change = (extra: Record<string, unknown>) =>
      call('POST', `/v1/workflows/${WELCOME}/mailing-list`, { body: { expectedRevisionId: revision(), mailingListId: BETA_TESTERS, ...extra } }).body;
    expect(change({ dryRun: true })).toMatchObject({ status: 'dryRun', queuedContactCount: 1 });
    expect(change({})).toMatchObject({ status: 'queuedContactsFound', queuedContactCount: 1 });
    expect(change({ queuedContactPolicy: 'discard' })).toMatchObject({ status: 'updated', queuedContactCount: 1 });
    call('POST', '/_sandbox/clock', { body: { advance: '10d' } });
    expect(sent(state, 'newsletter@example.com')).toEqual(['Welcome aboard, there']);
    expect(sent(state, 'both@example.com')).toEqual(['Welcome aboard, there', 'Five tips for your first week', 'How is it going so far?']);
    const discarded = allJourneys(state).find((journey) => journey.email === 'newsletter@example.com')!;
    expect(discarded).toMatchObject({ status: 'ended', nodeId: node('Welcome series', 'wait-2d') });
    expect(discarded.steps.at(-1)!.why).toBe(`discarded: the workflow's mailing list changed to ${BETA_TESTERS}, which the contact is not on`);
  });
});

describe('a paused workflow', () => {
  const paused = (status: string): StoredWorkflow => ({
    ...eventWorkflow('launch', [
      ['hello', email('Hello'), ['wait']],
      ['wait', { typeName: 'TimerAction', amount: 1, unit: 'd' }, ['again']],
      ['again', email('Again'), []],
    ]),
    status,
  });

  // "When paused, email sending is stopped and contacts are queued behind their respective nodes as expected. All
  // contacts that were scheduled to receive an email during the pause will receive it once you resume the Loop."
  // (loops.so/docs/loop-builder/experiments, "Editing experiments")
  it('holds a contact placed at its email, and one that reaches an email straight after its trigger, until it sends again', () => {
    const { state, call } = sandboxWithWorkflows(paused('PausedAndQueueing'));
    expect(call('POST', '/_sandbox/journeys', { body: { contact: 'ada@example.com', workflow: 'wf_launch', node: 'again' } }).status).toBe(200);
    // While pausing, a contact the trigger fires for enters (within the first 24 hours) and is held at the first email.
    expect(call('POST', '/v1/events/send', { body: { email: 'grace@example.com', eventName: 'launch' } }).status).toBe(200);
    call('POST', '/_sandbox/clock', { body: { advance: '2d' } });
    expect([sent(state, 'ada@example.com'), sent(state, 'grace@example.com')]).toEqual([[], []]);
    const held = allJourneys(state).filter((journey) => journey.workflowId === 'wf_launch');
    expect(held.map((journey) => [journey.email, journey.nodeId, journey.steps.at(-1)!.outcome])).toEqual([
      ['ada@example.com', 'again', 'held'],
      ['grace@example.com', 'hello', 'held'],
    ]);
    // The held contacts are the workflow's queued contacts.
    const revision = call('GET', '/v1/workflows/wf_launch').body.workflowRevisionId;
    expect(call('DELETE', '/v1/workflows/wf_launch/nodes/again', { body: { expectedRevisionId: revision, dryRun: true } }).body).toMatchObject({
      queuedContactCount: 1,
    });
    workflows.of(state).find((workflow) => workflow.id === 'wf_launch')!.status = 'Sending';
    call('POST', '/_sandbox/clock', { body: { advance: '1d' } });
    expect([sent(state, 'ada@example.com'), sent(state, 'grace@example.com')]).toEqual([['Again'], ['Hello', 'Again']]);
  });

  // "New contacts that match the Trigger conditions while the Loop is paused will enter the Loop but only within the
  // first 24 hours. Contacts that qualify for the Trigger after the 24-hour mark will not enter the Loop."
  // (loops.so/docs/loop-builder/pausing-loops): Paused is past that mark.
  // "Stopping a Loop will not queue any new contacts to enter the Loop." (loops.so/docs/loop-builder/pausing-loops):
  // a workflow neither sending nor paused mails no one, and a contact placed in it leaves at its email.
  it('lets a contact placed in a draft leave at its email, unsent', () => {
    const { state, call } = sandboxWithWorkflows(paused('Draft'));
    expect(call('POST', '/_sandbox/journeys', { body: { contact: 'ada@example.com', workflow: 'wf_launch', node: 'hello' } }).status).toBe(200);
    expect(sent(state, 'ada@example.com')).toEqual([]);
    const [left] = allJourneys(state).filter((journey) => journey.workflowId === 'wf_launch');
    expect(left).toMatchObject({ status: 'ended', nodeId: 'hello' });
    expect(left!.steps.at(-1)).toMatchObject({ outcome: 'exited', why: 'the workflow is draft, not sending' });
  });

  it('lets no new contact in once past its queueing window (Paused)', () => {
    const { state, call } = sandboxWithWorkflows(paused('Paused'));
    expect(call('POST', '/v1/events/send', { body: { email: 'grace@example.com', eventName: 'launch' } }).status).toBe(200);
    expect(allJourneys(state).filter((journey) => journey.workflowId === 'wf_launch')).toEqual([]);
  });
});

describe('queued contacts at a node', () => {
  // "If contacts are queued at the node, Loops returns with "status": "queuedContactsFound" instead of deleting."
  // (deleteWorkflowNode, the published description 1.22.1)
  it('are the contacts waiting there: counted by a dry run, refused without discard, ended with it', () => {
    const { state, call } = sandboxWithWorkflows();
    for (const address of ['one@example.com', 'two@example.com'])
      expect(call('POST', '/v1/contacts/create', { body: { email: address, mailingLists: { [PRODUCT_UPDATES]: true } } }).status).toBe(200);
    const waitTwoDays = node('Welcome series', 'wait-2d');
    const remove = (nodeId: string, extra: Record<string, unknown> = {}) =>
      call('DELETE', `/v1/workflows/${WELCOME}/nodes/${nodeId}`, {
        body: { expectedRevisionId: call('GET', `/v1/workflows/${WELCOME}`).body.workflowRevisionId, ...extra },
      }).body;
    expect(remove(waitTwoDays, { dryRun: true })).toEqual({ status: 'dryRun', nodeIds: [waitTwoDays], queuedContactCount: 2 });
    // Nobody waits five days yet: it goes at once.
    expect(remove(node('Welcome series', 'wait-5d'))).toMatchObject({ status: 'deleted', queuedContactCount: 0 });
    expect(remove(waitTwoDays)).toEqual({ status: 'queuedContactsFound', nodeIds: [waitTwoDays], queuedContactCount: 2 });
    expect(remove(waitTwoDays, { queuedContactPolicy: 'discard' })).toMatchObject({ status: 'deleted', queuedContactCount: 2 });
    call('POST', '/_sandbox/clock', { body: { advance: '10d' } });
    expect(sent(state, 'one@example.com')).toEqual(['Welcome aboard, there']);
  });

  it('leave with their contact: a deleted contact waits nowhere and is counted nowhere', () => {
    const { state, call } = sandboxWithWorkflows();
    for (const address of ['one@example.com', 'two@example.com'])
      expect(call('POST', '/v1/contacts/create', { body: { email: address, mailingLists: { [PRODUCT_UPDATES]: true } } }).status).toBe(200);
    const waitTwoDays = node('Welcome series', 'wait-2d');
    const dryRun = () =>
      call('DELETE', `/v1/workflows/${WELCOME}/nodes/${waitTwoDays}`, {
        body: { expectedRevisionId: call('GET', `/v1/workflows/${WELCOME}`).body.workflowRevisionId, dryRun: true },
      }).body;
    expect(dryRun()).toMatchObject({ queuedContactCount: 2 });
    expect(call('POST', '/v1/contacts/delete', { body: { email: 'two@example.com' } }).status).toBe(200);
    expect(dryRun()).toMatchObject({ queuedContactCount: 1 });
    const [ended] = allJourneys(state).filter((journey) => journey.email === 'two@example.com');
    expect(ended).toMatchObject({ status: 'ended' });
    expect(ended!.steps.at(-1)).toMatchObject({ outcome: 'exited', why: 'ended: the contact was deleted' });
  });

  // "Retry with `confirmDelete: true` to delete the workflow, stop sending, and cancel queued contacts." (deleteWorkflow, the published description 1.22.1)
  it('are cancelled with their workflow: their journeys end at once, saying so', () => {
    const { state, call } = sandboxWithWorkflows();
    expect(call('POST', '/v1/contacts/create', { body: { email: 'one@example.com', mailingLists: { [PRODUCT_UPDATES]: true } } }).status).toBe(200);
    const revision = call('GET', `/v1/workflows/${WELCOME}`).body.workflowRevisionId;
    expect(call('DELETE', `/v1/workflows/${WELCOME}`, { body: { expectedRevisionId: revision, confirmDelete: true } }).status).toBe(204);
    const [cancelled] = allJourneys(state).filter((journey) => journey.email === 'one@example.com');
    expect(cancelled).toMatchObject({ status: 'ended', endedAt: '2024-11-01T08:00:00.000Z' });
    expect(cancelled!.steps.at(-1)).toMatchObject({ outcome: 'exited', why: 'cancelled: the workflow was deleted' });
  });

  it('in the demo team are real contacts: Grace, held behind an email of the paused beta test', () => {
    const { call } = sandboxWithWorkflows();
    const beta = seedId('workflow/Beta onboarding subject test');
    const revision = call('GET', `/v1/workflows/${beta}`).body.workflowRevisionId;
    const subjectB = node('Beta onboarding subject test', 'subject-b');
    expect(call('DELETE', `/v1/workflows/${beta}/nodes/${subjectB}`, { body: { expectedRevisionId: revision, dryRun: true } }).body).toMatchObject({
      queuedContactCount: 1,
    });
    expect(call('GET', '/_sandbox/journeys', { query: { contact: 'grace@example.com', workflow: beta } }).body.journeys).toMatchObject([
      { status: 'waiting', nodeId: subjectB, steps: [{ outcome: 'placed' }, { outcome: 'held' }] },
    ]);
  });
});
