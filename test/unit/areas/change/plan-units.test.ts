/**
 * A plan's unit writes only its own record, by ids the account issued, to a path sent as written,
 * guarded as `--plan` wrote it: each case is a bug that would let a forged plan through, named so,
 * checked on the unit alone (its kind's `problem`, change/plan-check.ts), before anything is sent;
 * and a unit whose record is live now is named then too (plan-check's aboveWriteTier, liveSince).
 */
import { describe, expect, it } from 'vitest';
import { aboveWriteTier, liveSince } from '../../../../src/areas/change/plan-check.js';
import type { PlannedUnit } from '../../../../src/areas/change/plan-file.js';
import { PLAN_KINDS } from '../../../../src/areas/plan-kinds.js';
import { WriteGate } from '../../../../src/core/gate.js';

/** Why the plan's unit is none loopsctl wrote, or undefined. */
function problem(unit: PlannedUnit): string | undefined {
  const bound = PLAN_KINDS.bind(unit);
  if (bound === undefined) return 'no kind';
  return 'message' in bound ? `${bound.path.join('.')}: ${bound.message}` : bound.problem();
}

const CAMPAIGN = 'ccampaign1';
const OTHER = 'cother2';
/** A campaign's update as `campaigns update --plan` writes it: its record read, and the digest of what it held. */
const update = (call: Record<string, unknown> = {}, unit: Record<string, unknown> = {}): PlannedUnit => ({
  record: `campaign ${CAMPAIGN}`,
  kind: 'campaign',
  id: CAMPAIGN,
  recordPath: `/v1/campaigns/${CAMPAIGN}`,
  calls: [
    {
      op: 'request',
      operation: 'updateCampaign',
      method: 'POST',
      path: `/v1/campaigns/${CAMPAIGN}`,
      body: { name: 'Renamed' },
      read: `/v1/campaigns/${CAMPAIGN}`,
      expectedDigest: 'd',
      ...call,
    },
  ],
  ...unit,
});

describe("a command's held request in a plan", () => {
  it('is as written by `--plan`', () => {
    expect(problem(update())).toBeUndefined();
  });

  it('labelled with an operation its method and path do not do, is refused', () => {
    expect(problem(update({ operation: 'updateCampaignGroup' }))).toBe(`POST /v1/campaigns/${CAMPAIGN} is updateCampaign, not updateCampaignGroup`);
  });

  it("guarded by another record's read, is refused", () => {
    expect(problem(update({ read: `/v1/campaigns/${OTHER}` }))).toBe(`the call is guarded by /v1/campaigns/${OTHER}, not the record it changes`);
  });

  it('with its guard left out, or its record path left out, is refused (never an exit 70 later)', () => {
    const { read: _read, ...unguarded } = update().calls[0]!;
    expect(problem({ ...update(), calls: [unguarded] })).toBe(
      `updateCampaign of campaign ${CAMPAIGN} takes no revision, and the call is guarded by no read of its record`,
    );
    const { recordPath: _path, ...pathless } = update();
    expect(problem(pathless)).toBe(`the unit reads no record, not the record its call changes (/v1/campaigns/${CAMPAIGN})`);
    expect(problem(update({}, { recordPath: `/v1/campaigns/${OTHER}` }))).toContain(`the unit reads /v1/campaigns/${OTHER}, not the record its call changes`);
  });

  it("written as an edit of a draft's node that the transport would send elsewhere, is refused", () => {
    const node = `/v1/workflows/cdraft/nodes/y\\..\\..\\..\\..\\contacts\\delete`;
    const unit: PlannedUnit = {
      record: 'workflow node cdraft/y',
      kind: 'workflow',
      id: 'cdraft',
      recordPath: '/v1/workflows/cdraft',
      calls: [{ op: 'request', operation: 'updateWorkflowNode', method: 'POST', path: node, body: { expectedRevisionId: 'r1', amount: 2 } }],
    };
    expect(problem(unit)).toContain('is not sent as written: it holds a \\, which is sent as /');
  });

  it('that asks for a dry run, or names another record in its body, is refused', () => {
    expect(problem(update({ body: { name: 'x', dryRun: true } }))).toBe('updateCampaign asks for a dry run, which no plan holds');
    expect(problem(update({ body: { name: 'x', dryRun: false } }))).toBe('updateCampaign asks for a dry run, which no plan holds');
    expect(problem(update({ body: { name: 'x', emailMessageId: 'cmessage9' } }))).toBe(
      `updateCampaign of campaign ${CAMPAIGN} names another record in its body (emailMessageId="cmessage9")`,
    );
    expect(problem(update({ body: { name: 'x', campaignId: CAMPAIGN } }))).toBeUndefined();
    // What its row says an update of a campaign carries: its group, its audience's list and segment.
    expect(problem(update({ body: { campaignGroupId: 'cgroup1', mailingListId: 'clist1', audienceSegmentId: null } }))).toBeUndefined();
    expect(problem(update({ body: { name: 'x', audienceFilter: { workflowId: 'cworkflow1' } } }))).toBe(
      `updateCampaign of campaign ${CAMPAIGN} names another record in its body (workflowId="cworkflow1")`,
    );
  });
});

describe("a content push's email unit in a plan", () => {
  /** A unit of the record `id`, or, with null, of one it creates. */
  const email = (kind: PlannedUnit['kind'], calls: Record<string, unknown>[], id: string | null = CAMPAIGN): PlannedUnit => ({
    record: `${kind}/november--${id}`,
    kind,
    ...(id === null ? {} : { id }),
    calls: calls as PlannedUnit['calls'],
  });

  it('updating another record than its own, is refused', () => {
    expect(problem(email('campaign', [{ op: 'updateCampaign', id: OTHER, body: { name: 'x' } }]))).toBe(
      `updateCampaign of ${OTHER} in the unit of ${CAMPAIGN}`,
    );
    expect(problem(email('campaign', [{ op: 'updateCampaign', id: CAMPAIGN, body: { name: 'x' } }]))).toBeUndefined();
  });

  it('naming a record by an id the account never issues, is refused', () => {
    expect(problem(email('campaign', [{ op: 'updateEmailMessage', messageId: '../../contacts/delete', expectedRevisionId: 'r', body: {} }]))).toBe(
      '"../../contacts/delete" is no id the account issues',
    );
  });

  it("writing a field to an email message that a push never sends, or a message in a record's create, is refused", () => {
    const message = { op: 'updateEmailMessage', messageId: 'cmessage1', expectedRevisionId: 'r' };
    expect(problem(email('campaign', [{ ...message, body: { subject: 'Hi', lmx: '<Paragraph>x</Paragraph>' } }]))).toBeUndefined();
    expect(problem(email('campaign', [{ ...message, body: { subject: 'Hi', scheduling: { method: 'now' } } }]))).toBe(
      'calls.0.body: sends scheduling, which a content push never sends',
    );
    expect(
      problem(
        email(
          'transactional email',
          [
            { op: 'createTransactionalEmail', body: { name: 'New' } },
            { ...message, body: { subject: 'x' } },
          ],
          null,
        ),
      ),
    ).toBe('updateEmailMessage in the unit of a record it creates');
  });

  it('creating a record in the unit of an existing one, is refused', () => {
    expect(problem(email('transactional email', [{ op: 'createTransactionalEmail', body: { name: 'New' } }]))).toBe(
      'createTransactionalEmail in the unit of an existing record',
    );
  });
});

describe("a content push's workflow unit in a plan", () => {
  /** The unit of workflow w1 that changes its wait's amount, its nodes by these ids. */
  const workflowUnit = (nodes: Record<string, string>) =>
    ({
      record: 'workflows/onboarding',
      kind: 'workflow',
      id: 'w1',
      workflowRevisionId: 'rev1',
      live: false,
      nodes,
      names: { lists: {}, segments: {} },
      emails: {},
      emailRevisions: {},
      calls: [{ op: 'updateWorkflowNode', key: 'wait', payload: { amount: 3 } }],
    }) as unknown as PlannedUnit;

  it('naming a node by an id the account never issues, is refused', () => {
    expect(problem(workflowUnit({ wait: 'n1', exit: 'y\\..\\..\\contacts' }))).toBe('"y\\\\..\\\\..\\\\contacts" is no id the account issues');
    expect(problem(workflowUnit({ wait: 'n1' }))).toBeUndefined();
  });

  it('of a workflow gone live since the yes, is named before anything is sent, and one live at the yes is not', async () => {
    const unit = PLAN_KINDS.bind(workflowUnit({ wait: 'n1' }));
    if (unit === undefined || 'message' in unit) throw new Error('the unit is of no kind');
    // The account now: the workflow a person started in the app since the plan was approved.
    const gate = () => new WriteGate(async (path) => (path === '/v1/workflows/w1' ? { id: 'w1', name: 'Onboarding', status: 'Sending' } : undefined));
    expect(await liveSince(gate(), [unit], [])).toEqual([expect.stringMatching(/^workflows\/onboarding: /)]);
    expect(await liveSince(gate(), [unit], ['workflow w1'])).toEqual([]);
    expect(await aboveWriteTier(gate(), [unit])).toEqual([expect.stringMatching(/^workflows\/onboarding: edits a workflow /)]);
  });
});
