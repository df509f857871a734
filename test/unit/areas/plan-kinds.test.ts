/**
 * A plan speaks the rows' words (src/platform/operations.ts): each unit's kind is the noun of its
 * record's row, and each call names an operationId of the rows, whichever command wrote it: a
 * content push's email record and workflow edit script, and a command's held request.
 */
import { describe, expect, it } from 'vitest';
import type { PlannedUnit } from '../../../src/areas/change/plan-file.js';
import { emailUnitShape } from '../../../src/areas/content/emails/plan-unit.js';
import { workflowUnitShape } from '../../../src/areas/content/workflows/plan-unit.js';
import { PLAN_KINDS } from '../../../src/areas/plan-kinds.js';
import type { z } from '../../../src/base/shapes.js';
import { NOUNS, OPERATIONS } from '../../../src/platform/operations.js';
import { directoriesOf, directoryKind } from '../../../src/platform/record-kinds.js';

/** The operation each shape of a discriminated union of calls names. */
function operationsOf(calls: z.ZodMiniType): string[] {
  const union = (
    calls as unknown as { _zod: { def: { element: { _zod: { def: { options: { shape: { op: { _zod: { def: { values: string[] } } } } }[] } } } } } }
  )._zod.def.element;
  return union._zod.def.options.flatMap((option) => option.shape.op._zod.def.values);
}

describe("a plan's vocabulary", () => {
  it("names every call of a content push's units by an operationId of the rows", () => {
    const operations = [...operationsOf(emailUnitShape.shape.calls), ...operationsOf(workflowUnitShape.shape.calls)];
    expect(operations).toContain('createTransactionalEmail');
    expect(operations.filter((operation) => !Object.hasOwn(OPERATIONS, operation))).toEqual([]);
  });

  it('names each unit by the noun of its record: an email record by its directory\'s kind, a workflow as "workflow"', () => {
    const emailNouns = Object.keys((emailUnitShape.shape.kind as unknown as { _zod: { def: { entries: object } } })._zod.def.entries);
    expect(emailNouns).toEqual(directoriesOf('emails').map((directory) => directoryKind(directory)!.noun));
    expect((workflowUnitShape.shape.kind as unknown as { _zod: { def: { values: string[] } } })._zod.def.values).toEqual([
      directoryKind(directoriesOf('workflows')[0])!.noun,
    ]);
    for (const noun of [...emailNouns, 'workflow']) expect(NOUNS).toContain(noun);
  });

  it("names a held request's unit by its row's noun, and refuses one labelled by an operation of no row or by a kind of write", () => {
    const node = (kind: string, operation: string): PlannedUnit =>
      ({
        record: 'workflow node w1/n1',
        kind,
        id: 'w1',
        recordPath: '/v1/workflows/w1',
        calls: [{ op: 'request', operation, method: 'POST', path: '/v1/workflows/w1/nodes/n1', body: { expectedRevisionId: 'r1' } }],
      }) as unknown as PlannedUnit;
    expect(PLAN_KINDS.misshapen(node('workflow', 'updateWorkflowNode'))).toBeUndefined();
    const bound = PLAN_KINDS.bind(node('workflow', 'updateWorkflowNode'));
    expect(bound !== undefined && !('message' in bound) ? bound.problem() : 'unbound').toBeUndefined();
    expect(PLAN_KINDS.misshapen(node('workflow', 'editNode'))?.path).toEqual(['calls', 0, 'operation']);
    expect(PLAN_KINDS.misshapen(node('workflow node', 'updateWorkflowNode'))?.path).toEqual(['kind']);
  });
});
