/**
 * The impact of a plan's calls, whichever command planned them: a campaign's schedule (its audience,
 * as the API answers for it), a transactional publish (the draft as the account holds it), a node
 * the plan creates and then deletes (nobody can wait there: the API is not asked), and a question
 * the API refuses to answer (said so, never shown as nothing).
 */
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../../../../src/api/client.js';
import { HttpTransport } from '../../../../../src/api/http.js';
import { impactOf } from '../../../../../src/areas/change/impact/impact.js';
import { renderImpact } from '../../../../../src/areas/change/impact/render.js';
import { PLAN_KINDS } from '../../../../../src/areas/plan-kinds.js';
import { seedId } from '../../../../../src/emulator/module.js';
import { type RecordingSandbox, sandboxEachTest } from '../../../../support/recording.js';

const sandboxes = sandboxEachTest();

function clientOf(sandbox: RecordingSandbox): ApiClient {
  return new ApiClient(
    new HttpTransport({
      baseUrl: `${sandbox.env.LOOPS_BASE_URL}/`,
      apiKey: sandbox.env.LOOPS_API_KEY,
      userAgent: 'loopsctl/test',
      timeoutMs: 5000,
      retry: { retries: 0 },
    }),
  );
}

const answerTo = (sandbox: RecordingSandbox, path: string) => sandbox.requests.find((request) => request.path === path)!.answer;

describe('the impact of calls', () => {
  it("names a campaign schedule's list and segment as the API answers for them, and says the API counts no audience", async () => {
    const sandbox = await sandboxes();
    const campaignId = seedId('campaign/November newsletter');
    const scheduling = { method: 'schedule', timestamp: '2026-12-01T09:00:00.000Z' };
    const impact = await impactOf(clientOf(sandbox), PLAN_KINDS, [
      {
        record: `campaign ${campaignId}`,
        kind: 'campaign',
        id: campaignId,
        recordPath: `/v1/campaigns/${campaignId}`,
        calls: [{ op: 'request', operation: 'updateCampaign', method: 'POST', path: `/v1/campaigns/${campaignId}`, body: { scheduling } }],
      },
    ]);
    const segmentId = seedId('segment/Engaged newsletter readers');
    const lists = answerTo(sandbox, '/v1/lists') as { id: string }[];
    expect(impact).toEqual([
      {
        kind: 'audience',
        record: `campaign ${campaignId}`,
        campaignId,
        scheduling,
        campaign: answerTo(sandbox, `/v1/campaigns/${campaignId}`),
        mailingList: lists.find((list) => list.id === seedId('mailing-list/Product updates')),
        segment: answerTo(sandbox, `/v1/audience-segments/${segmentId}`),
        audienceFilter: expect.objectContaining({ match: 'any' }),
      },
      // A schedule sends to people: the apply's gate asks for --live, and the plan says so first.
      { kind: 'needs-live', record: `campaign ${campaignId}`, does: 'schedules a campaign (it sends to its audience)' },
    ]);
    expect(renderImpact(impact)).toBe(
      `Impact:\n  campaign ${campaignId}: schedules it for 2026-12-01T09:00:00.000Z, to the list "Product updates", in the segment "Engaged newsletter readers", with its own filter (the API gives no count of them)\n` +
        `  campaign ${campaignId}: needs --live: it schedules a campaign (it sends to its audience)\n`,
    );
    expect(sandbox.requests.filter((request) => request.method !== 'GET')).toEqual([]);
  });

  it('takes a publish of the draft as the account holds it, against what is published', async () => {
    const sandbox = await sandboxes();
    const id = seedId('transactional/Password reset');
    const impact = await impactOf(clientOf(sandbox), PLAN_KINDS, [
      {
        record: `transactional email ${id}`,
        kind: 'transactional email',
        id,
        recordPath: `/v1/transactional-emails/${id}`,
        calls: [{ op: 'request', operation: 'publishTransactionalEmail', method: 'POST', path: `/v1/transactional-emails/${id}/publish`, body: null }],
      },
    ]);
    expect(impact).toEqual([
      expect.objectContaining({ kind: 'data-variables', publishes: true, added: [], removed: [], planned: ['firstName', 'resetUrl', 'expiresInMinutes'] }),
      { kind: 'needs-live', record: `transactional email ${id}`, does: 'publishes a transactional email (the next sends use it)' },
    ]);
    expect(renderImpact(impact)).toBe(
      `Impact:\n  transactional email ${id}: publishes it: its data variables stay the same\n  transactional email ${id}: needs --live: it publishes a transactional email (the next sends use it)\n`,
    );
  });

  it('asks nothing of a node the plan creates, and says so of a question the API refuses', async () => {
    const sandbox = await sandboxes();
    const workflow = {
      record: 'workflows/gone',
      kind: 'workflow' as const,
      id: 'cnosuchworkflow0000000000',
      workflowRevisionId: 'r1',
      live: false,
      nodes: { filter: 'cnosuchnode00000000000000' },
      names: { lists: {}, segments: {} },
      emails: {},
      emailRevisions: {},
      calls: [
        { op: 'deleteWorkflowNode', key: 'experiment-unused-1', recursive: true, removes: ['experiment-unused-1'] },
        { op: 'deleteWorkflowNode', key: 'filter', recursive: false, removes: ['filter'] },
      ],
    };
    const impact = await impactOf(clientOf(sandbox), PLAN_KINDS, [workflow]);
    expect(impact).toEqual([
      expect.objectContaining({ node: 'experiment-unused-1', createdByPlan: true }),
      expect.objectContaining({ node: 'filter', error: expect.stringContaining('cnosuchworkflow0000000000') }),
    ]);
    // One question, of the node the account holds (a dry run); then the gate's read of the workflow, whether the plan needs --live.
    expect(sandbox.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      `DELETE /v1/workflows/${workflow.id}/nodes/${workflow.nodes.filter}`,
      `GET /v1/workflows/${workflow.id}`,
    ]);
    expect(renderImpact(impact)).toMatch(
      /^Impact:\n {2}workflows\/gone: deletes experiment-unused-1 and what only it leads to \(experiment-unused-1\): a node this plan creates, where no one waits\n {2}workflows\/gone: deletes node filter: unknown, the API did not answer: .*cnosuchworkflow/,
    );
  });
});
