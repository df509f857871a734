/** The journeys engine on workflows the seed does not have: loops, and a contact that an event starts again and again. */
import { describe, expect, it } from 'vitest';
import { SandboxApi } from '../../../../src/emulator/api.js';
import { freezeClock } from '../../../../src/emulator/journeys/clock.js';
import { journeys } from '../../../../src/emulator/journeys/records.js';
import { workflows, type StoredWorkflow } from '../../../../src/emulator/routes/workflow-records.js';
import { sandboxCaller, sandboxModules, seedState } from '../../../support/sandbox.js';

/** A sending workflow started by the event `name`, from nodes given as [id, fields, next ids]. */
function workflowOf(name: string, nodes: [string, Record<string, unknown>, string[]][]): StoredWorkflow {
  return {
    id: `wf_${name}`,
    workflowRevisionId: 'rev',
    status: 'Sending',
    name,
    description: '',
    emoji: '',
    mailingListId: null,
    rootNodeId: 'start',
    createdAt: '2024-09-01T00:00:00.000Z',
    updatedAt: '2024-09-01T00:00:00.000Z',
    nodes: [['start', { typeName: 'EventTrigger', eventName: name, reEligible: true }, [nodes[0]![0]]] as const, ...nodes].map(
      ([id, fields, next]) => ({ id, workflowId: `wf_${name}`, ...fields, nextNodeIds: next }) as StoredWorkflow['nodes'][number],
    ),
  };
}

function sandboxWith(...added: StoredWorkflow[]) {
  const state = seedState();
  freezeClock(state);
  workflows.of(state).push(...added);
  return { state, call: sandboxCaller(new SandboxApi(state, sandboxModules)) };
}

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
    const [spin, tick] = journeys.of(state).journeys;
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
    expect(journeys.of(state).journeys).toHaveLength(1);
    call('POST', '/_sandbox/clock', { body: { advance: '1h' } });
    call('POST', '/v1/events/send', { body: { email: 'ada@example.com', eventName: 'again' } });
    expect(journeys.of(state).journeys.map((journey) => journey.status)).toEqual(['ended', 'waiting']);
  });
});
