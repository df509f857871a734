import { describe, expect, it } from 'vitest';
import { MAX_WORKFLOW_NODES, workflowProblems, type WorkflowFile } from '../../../../src/platform/workflows/file.js';

const rules = (file: WorkflowFile) => workflowProblems(file).map((problem) => `${problem.key ?? '-'} ${problem.rule}`);

describe('workflowProblems', () => {
  it('finds an experiment without exactly one control, and a sampling rate out of range', () => {
    const file: WorkflowFile = {
      name: 'Test',
      root: 'start',
      nodes: {
        start: { type: 'BlankTrigger', next: ['split'] },
        split: { type: 'ExperimentBranchNode', next: ['a', 'b'], samplingRate: 120 },
        a: { type: 'VariantNode', next: ['exit'], isControl: false },
        b: { type: 'VariantNode', next: ['exit'], isControl: false },
        exit: { type: 'ExitAction', next: [] },
      },
    };
    expect(rules(file)).toEqual(['split experiment-control', 'split sampling-rate']);
  });

  it(`refuses more than ${MAX_WORKFLOW_NODES} nodes, and a second trigger`, () => {
    const nodes: WorkflowFile['nodes'] = { start: { type: 'SignupTrigger', next: ['w0'] } };
    for (let index = 0; index < MAX_WORKFLOW_NODES; index++)
      nodes[`w${index}`] = { type: 'TimerAction', next: [index + 1 < MAX_WORKFLOW_NODES ? `w${index + 1}` : 'exit'], amount: 1, unit: 'h' };
    nodes.exit = { type: 'ExitAction', next: [] };
    nodes.again = { type: 'EventTrigger', next: ['exit'], eventName: 'x', reEligible: false };
    const found = rules({ name: 'Long', root: 'start', nodes });
    expect(found).toContain('- node-count');
    expect(found).toContain('again one-trigger');
    expect(found).toContain('again reachable');
  });
});
