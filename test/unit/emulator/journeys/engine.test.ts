/** The journeys engine on workflows the seed does not have: loops, and a contact that an event starts again and again. */
import { describe, expect, it } from 'vitest';
import { allJourneys, journeys } from '../../../../src/emulator/journey-records.js';
import { eventWorkflow, sandboxWithWorkflows as sandboxWith } from '../../../support/journeys.js';

const workflowOf = (name: string, nodes: Parameters<typeof eventWorkflow>[1]) => eventWorkflow(name, nodes, true);

describe('the journeys engine', () => {
  it('stops a run that leads back on itself without a wait, and a loop through a short timer however far the clock moves', async () => {
    const { state, call } = sandboxWith(
      workflowOf('spin', [
        ['a', { typeName: 'VariantNode' }, ['b']],
        ['b', { typeName: 'VariantNode' }, ['a']],
      ]),
      workflowOf('tick', [['timer', { typeName: 'TimerAction', amount: 1, unit: 's' }, ['timer']]]),
    );
    expect(call('POST', '/v1/events/send', { body: { email: 'ada@example.com', eventName: 'spin' } }).status).toBe(200);
    expect(call('POST', '/v1/events/send', { body: { email: 'ada@example.com', eventName: 'tick' } }).status).toBe(200);
    expect(call('POST', '/_sandbox/clock', { body: { advance: '400d' } }).status).toBe(200);
    const [spin, tick] = allJourneys(state).filter((journey) => journey.email === 'ada@example.com');
    // Entered, 400 steps, and the one that says why it stopped.
    expect(spin!.steps).toHaveLength(402);
    expect(spin!.steps.at(-1)).toMatchObject({ outcome: 'exited', why: 'stopped after 400 steps without a wait: the workflow leads back on itself' });
    expect(tick!.status).toBe('ended');
    expect(tick!.steps.at(-1)).toMatchObject({ outcome: 'exited', why: 'stopped after 2000 steps: the workflow leads back on itself' });
    expect(journeys.of(state).waiting).toEqual([]);
  });

  it('starts a re-eligible workflow again only once the journey before has ended', () => {
    const { state, call } = sandboxWith(workflowOf('again', [['wait', { typeName: 'TimerAction', amount: 1, unit: 'h' }, []]]));
    for (let time = 0; time < 3; time += 1) call('POST', '/v1/events/send', { body: { email: 'ada@example.com', eventName: 'again' } });
    expect(allJourneys(state).filter((journey) => journey.workflowId === 'wf_again')).toHaveLength(1);
    call('POST', '/_sandbox/clock', { body: { advance: '1h' } });
    call('POST', '/v1/events/send', { body: { email: 'ada@example.com', eventName: 'again' } });
    expect(allJourneys(state).flatMap((journey) => (journey.workflowId === 'wf_again' ? [journey.status] : []))).toEqual(['ended', 'waiting']);
  });
});
