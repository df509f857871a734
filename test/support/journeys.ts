/** Workflows the seed does not have, made for tests of the journeys engine, in a sandbox of their own. */
import { RouteTable, SandboxApi } from '../../src/emulator/api.js';
import { freezeClock } from '../../src/emulator/clock.js';
import { type StoredWorkflow, workflows } from '../../src/emulator/routes/workflow-records.js';
import { sandboxCaller, sandboxModules, seedState } from './sandbox.js';

/** A node as [id, fields, next ids]. */
export type NodeSpec = [string, Record<string, unknown>, string[]];

/** A sending workflow `wf_<name>` started by the event `name` (its trigger `start`), then the nodes given. */
export function eventWorkflow(name: string, nodes: NodeSpec[], reEligible = false): StoredWorkflow {
  const trigger: NodeSpec = ['start', { typeName: 'EventTrigger', eventName: name, reEligible }, [nodes[0]![0]]];
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
    nodes: [trigger, ...nodes].map(([id, fields, next]) => ({ id, workflowId: `wf_${name}`, ...fields, nextNodeIds: next }) as StoredWorkflow['nodes'][number]),
  };
}

/** The seed with these workflows added and its clock frozen at the seed's date, and a caller of its API. */
export function sandboxWithWorkflows(...added: StoredWorkflow[]) {
  const state = seedState();
  freezeClock(state);
  workflows.of(state).push(...added);
  return { state, call: sandboxCaller(new SandboxApi(state, new RouteTable(sandboxModules))) };
}
