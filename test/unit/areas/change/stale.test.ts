/**
 * Each kind of unit says in one place (its `stale`) how `apply` refuses it when its record changed
 * in the account since the plan was made, and the engine words the refusal from it alone: a
 * conflict (409, exit 5) found before anything of the unit was sent, with the platform's own words
 * after the kind's when the platform refused it.
 */
import { describe, expect, it } from 'vitest';
import { type BoundUnit, staleRefusal } from '../../../../src/areas/change/kinds.js';
import type { PlannedUnit } from '../../../../src/areas/change/plan-file.js';
import { PLAN_KINDS } from '../../../../src/areas/plan-kinds.js';
import { RejectedError } from '../../../../src/base/errors.js';
import { ExitCode } from '../../../../src/base/exit-codes.js';

function boundOf(unit: PlannedUnit): BoundUnit {
  const bound = PLAN_KINDS.bind(unit);
  if (bound === undefined || 'message' in bound) throw new Error(`no kind binds ${unit.record}: ${bound?.message}`);
  return bound;
}

const email = (kind: PlannedUnit['kind'], call: { op: string } & Record<string, unknown>): PlannedUnit => ({
  record: `${kind}/welcome--r1`,
  kind,
  id: 'r1',
  calls: [{ id: 'r1', ...call }],
});

const UNITS: [string, PlannedUnit, string][] = [
  [
    'a transactional email',
    email('transactional email', { op: 'updateTransactionalEmail', body: { name: 'W' } }),
    'the transactional email changed in the account since the plan was made',
  ],
  ['a campaign', email('campaign', { op: 'updateCampaign', body: { name: 'W' } }), 'the campaign changed in the account since the plan was made'],
  [
    'a component',
    email('component', { op: 'updateComponent', expectedDigest: 'd', body: { name: 'W' } }),
    'the component changed in the account since the plan was made',
  ],
  ['a theme', email('theme', { op: 'updateTheme', expectedDigest: 'd', body: { name: 'W' } }), 'the theme changed in the account since the plan was made'],
  [
    "a workflow's edit script",
    {
      record: 'workflows/onboarding',
      kind: 'workflow',
      id: 'w1',
      workflowRevisionId: 'rev1',
      live: false,
      nodes: {},
      names: { lists: {}, segments: {} },
      emails: {},
      emailRevisions: {},
      calls: [{ op: 'updateWorkflowProperties', name: 'Onboarding' }],
    } as PlannedUnit,
    'the workflow changed in the account since the plan was made',
  ],
  [
    "a command's held request",
    {
      record: 'transactional group g1',
      kind: 'transactional group',
      id: 'g1',
      recordPath: '/v1/transactional-groups/g1',
      calls: [{ op: 'request', operation: 'updateTransactionalGroup', method: 'POST', path: '/v1/transactional-groups/g1', body: { name: 'Billing' } }],
    },
    '/v1/transactional-groups/g1 changed in the account since the plan was made',
  ],
];

describe('the refusal of a stale unit', () => {
  it.each(UNITS)('is worded by the kind of %s', (_what, unit, words) => {
    expect(boundOf(unit).stale()).toBe(words);
  });

  it("is a conflict before any write, exit 5, with the platform's words after the kind's when it refused", () => {
    const unit = boundOf(UNITS[0]![1]);
    const own = staleRefusal(unit);
    expect(own).toBeInstanceOf(RejectedError);
    expect(own.status).toBe(409);
    expect((own as { beforeAnyWrite?: boolean }).beforeAnyWrite).toBe(true);
    expect(own.exitCode).toBe(ExitCode.rejected);
    expect(ExitCode.rejected).toBe(5);
    expect(own.message).toBe('the transactional email changed in the account since the plan was made');
    expect(staleRefusal(unit, 'contentRevisionId is stale').message).toBe(
      'the transactional email changed in the account since the plan was made: contentRevisionId is stale',
    );
  });
});
