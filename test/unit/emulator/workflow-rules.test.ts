/**
 * The sandbox's workflow edits by the rule book (src/platform/workflows/): what the description
 * refuses is answered 400 with its reason and changes nothing; what it documents as valid is taken.
 */
import { describe, expect, it } from 'vitest';
import { seedId } from '../../../src/emulator/module.js';
import { type Caller, freshSandbox } from '../../support/sandbox.js';

const WIN_BACK = seedId('workflow/Win-back (draft)');
const node = (label: string) => seedId(`workflow/Win-back (draft)/${label}`);

const revisionOf = (call: Caller) => call('GET', `/v1/workflows/${WIN_BACK}`).body.workflowRevisionId as string;
const update = (call: Caller, nodeId: string, payload: Record<string, unknown>) =>
  call('POST', `/v1/workflows/${WIN_BACK}/nodes/${nodeId}`, { body: { expectedRevisionId: revisionOf(call), payload } });

describe('workflow edits the description refuses', () => {
  it.each([
    [
      'a node type the API does not know',
      (call: Caller) =>
        call('POST', `/v1/workflows/${WIN_BACK}/nodes`, {
          body: { expectedRevisionId: revisionOf(call), insertMode: 'after', fromNodeId: node('dormant'), nodeTypeName: 'SleepAction' },
        }),
      'nodeTypeName must be one of AudienceFilter, BranchNode, ExperimentBranchNode, TimerAction, SendEmailAction, VariantNode',
    ],
    // samplingRate: "The percentage of contacts that will be sent to variant branches, between `0` and `100`."
    ['an experiment rate above 100', (call: Caller) => update(call, node('score'), { samplingRate: 120 }), 'samplingRate must be 100 or less, not 120'],
    ['an experiment rate below 0', (call: Caller) => update(call, node('score'), { samplingRate: -5 }), 'samplingRate must be 0 or more, not -5'],
    [
      'a trigger turned to watch a hidden property',
      (call: Caller) =>
        update(call, node('start'), {
          typeName: 'ContactPropertyTrigger',
          contactPropertyQuery: { key: 'notes', is: { value: '', operator: 'any' }, was: { value: '', operator: 'any' } },
        }),
      '"notes" is not available for Contact Updated triggers',
    ],
  ])('%s: 400 with the reason, and nothing changes', (_what, send, message) => {
    const { call } = freshSandbox();
    const before = call('GET', `/v1/workflows/${WIN_BACK}`).body;
    const refused = send(call);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain(message);
    expect(call('GET', `/v1/workflows/${WIN_BACK}`).body).toEqual(before);
  });
});

describe('workflow edits the description documents as valid', () => {
  it('takes an "Immediately" timer, a rate of 0, and an experiment whose control is made a variant', () => {
    const { call } = freshSandbox();
    const created = call('POST', `/v1/workflows/${WIN_BACK}/nodes`, {
      body: { expectedRevisionId: revisionOf(call), insertMode: 'after', fromNodeId: node('dormant'), nodeTypeName: 'TimerAction' },
    });
    expect(created.status).toBe(200);
    // WorkflowTimerAmount: "Set to `0` to move to the next node immediately."
    expect(update(call, created.body.node.id, { amount: 0 }).status).toBe(200);
    expect(update(call, node('score'), { samplingRate: 0 }).status).toBe(200);
    // WorkflowVariantPayload: "Experiments do not require a control variant."
    expect(update(call, node('holdout'), { isControl: false }).status).toBe(200);
    const graph = call('GET', `/v1/workflows/${WIN_BACK}`).body as { nodes: Record<string, { typeName: string; isControl?: boolean; amount?: number }> };
    expect(Object.values(graph.nodes).filter((each) => each.typeName === 'VariantNode' && each.isControl === true)).toEqual([]);
    expect(graph.nodes[created.body.node.id]!.amount).toBe(0);
  });
});
