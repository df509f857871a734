/**
 * `workflow show` costs one request for the workflow and at most 20 more for its conditions, whatever
 * the graph's size; --details reads every condition, counting them on a progress line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiRequest } from '../../../../src/emulator/api.js';
import type { SandboxModule } from '../../../../src/emulator/module.js';
import type { SandboxServer } from '../../../../src/emulator/server.js';
import { seedState } from '../../../../src/emulator/state/index.js';
import { run, sandboxEnv, startTestSandbox } from '../../../support/main.js';

const NOW = '2025-06-29T07:47:39.370Z';

/** A trigger and then `filters` audience filters in a chain, each keeping contacts on one plan. */
function filterChain(id: string, filters: number) {
  const nodes: Record<string, unknown>[] = [{ id: `${id}_trigger`, workflowId: id, typeName: 'SignupTrigger', nextNodeIds: [`${id}_f1`] }];
  for (let index = 1; index <= filters; index += 1) {
    nodes.push({
      id: `${id}_f${index}`,
      workflowId: id,
      typeName: 'AudienceFilter',
      nextNodeIds: index < filters ? [`${id}_f${index + 1}`] : [],
      audienceFilter: { match: 'all', conditions: [{ type: 'property', key: 'plan', operator: 'equals', value: `plan${index}` }] },
      appliesDownstream: false,
    });
  }
  return {
    id,
    name: `${filters} filters`,
    description: '',
    emoji: '',
    status: 'Draft',
    mailingListId: null,
    rootNodeId: `${id}_trigger`,
    workflowRevisionId: 'wrev_1',
    createdAt: NOW,
    updatedAt: NOW,
    nodes,
  };
}

const requests: ApiRequest[] = [];
let sandbox: SandboxServer;
beforeAll(async () => {
  sandbox = await startTestSandbox({
    initialState: (modules: SandboxModule[]) => {
      const state = seedState(modules);
      state.workflows = [...(state.workflows as unknown[]), filterChain('wfsmall', 3), filterChain('wflarge', 25)];
      return state;
    },
    onRequest: (request) => requests.push(request),
  });
});
afterAll(() => sandbox.close());

const loopsctl = (args: string[]) => run(args, { env: sandboxEnv(sandbox) });

/** The paths a command asked for, each once: a request the sandbox's rate limit refused is asked again. */
async function requestsOf(args: string[]) {
  requests.length = 0;
  const result = await loopsctl(args);
  return { result, paths: [...new Set(requests.map((request) => request.path))] };
}

describe('workflow show on a large graph', () => {
  it('reads the conditions of a small workflow, one request each', async () => {
    const { result, paths } = await requestsOf(['workflow', 'show', 'wfsmall']);
    expect(result.code).toBe(0);
    expect(paths.filter((path) => path.startsWith('/v1/workflows/wfsmall/nodes/'))).toHaveLength(3);
    expect(result.stdout).toContain('where plan equal plan3');
    expect(result.stderr).not.toContain('--details');
  });

  it('draws a workflow of more than 20 filters from one request, and says which conditions it did not read', async () => {
    const { result, paths } = await requestsOf(['workflow', 'show', 'wflarge']);
    expect(result.code).toBe(0);
    expect(paths).toEqual(['/v1/workflows/wflarge']);
    expect(result.stdout).toContain('condition: see --node wflarge_f25');
    expect(result.stdout).not.toContain('where plan equal');
    expect(result.stderr).toMatch(
      /The conditions of 25 filter and branch nodes were not read: .*about 3 s at the API's pace\. Add --details to read them all, or --node <id> for one\./,
    );
  });

  it('keeps to one request in every drawing', async () => {
    for (const format of ['mermaid', 'dot']) {
      const { result, paths } = await requestsOf(['workflow', 'show', 'wflarge', '--format', format]);
      expect(result.code).toBe(0);
      expect(paths).toEqual(['/v1/workflows/wflarge']);
    }
  });

  it('reads every condition with --details', async () => {
    const { result, paths } = await requestsOf(['workflow', 'show', 'wflarge', '--details']);
    expect(result.code).toBe(0);
    expect(paths.filter((path) => path.startsWith('/v1/workflows/wflarge/nodes/'))).toHaveLength(25);
    for (const index of [1, 13, 25]) expect(result.stdout).toContain(`where plan equal plan${index}`);
    expect(result.stdout).not.toContain('condition: see --node');
    expect(result.stderr).not.toContain('were not read');
  });

  it("after an edit, draws the graph as show does: conditions of a small workflow read, a large one's named as not read", async () => {
    const small = await loopsctl(['workflow', 'nodes', 'add', 'wfsmall', '--type', 'TimerAction', '--after', 'wfsmall_f1']);
    expect(small.code, small.stderr).toBe(0);
    expect(small.stdout).toContain('where plan equal plan3');
    const { result, paths } = await requestsOf(['workflow', 'nodes', 'add', 'wflarge', '--type', 'TimerAction', '--after', 'wflarge_f1']);
    expect(result.code, result.stderr).toBe(0);
    expect(paths.filter((path) => path.startsWith('/v1/workflows/wflarge/nodes/'))).toEqual([]);
    expect(result.stdout).toContain('condition: see --node wflarge_f25');
    expect(result.stderr).toMatch(/The conditions of 25 filter and branch nodes were not read: .*`loopsctl workflow show wflarge --details` reads them all\./);
  });

  it('refuses --details with --json, which prints the workflow as the API answers', async () => {
    const result = await loopsctl(['workflow', 'show', 'wflarge', '--details', '--json']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--details reads the conditions for a drawing');
  });
});
