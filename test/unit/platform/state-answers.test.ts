/**
 * The answers that give a record's state as its own read does (src/platform/state-answers.ts),
 * which the write gate may take in place of a read: each held to the published description.
 */
import { describe, expect, it } from 'vitest';
import { LISTED_AS_READ, statesAnswered, WORKFLOW_ANSWERED } from '../../../src/platform/state-answers.js';
import { publishedDescriptionAsWritten } from '../../support/openapi.js';

type Schema = Record<string, any>;
const description = publishedDescriptionAsWritten() as unknown as {
  paths: Record<string, Record<string, Schema>>;
  components: { schemas: Record<string, Schema> };
};
const refName = (schema: Schema | undefined) => (schema?.$ref as string | undefined)?.split('/').at(-1);
const answerOf = (operation: Schema) => operation.responses['200'].content['application/json'].schema as Schema;

function operationOf(operationId: string): Schema {
  for (const item of Object.values(description.paths))
    for (const operation of Object.values(item)) if (operation?.operationId === operationId) return operation;
  throw new Error(`${operationId} is not in the description`);
}

describe('the answers that give a record as its read does', () => {
  it('holds to the description: a list item is the record its read answers, a workflow write answers the workflow with its status', () => {
    for (const list of LISTED_AS_READ) {
      const items = description.components.schemas[refName(answerOf(description.paths[list]!.get!))!]!.properties.data.items;
      const record = Object.entries(description.paths).find(
        ([path, item]) => path.startsWith(`${list}/{`) && !path.slice(list.length + 1).includes('/') && item.get,
      )!;
      expect(refName(items)).toBe(refName(answerOf(record[1].get!)));
    }
    const workflowRead = refName(answerOf(operationOf('getWorkflow')));
    expect(workflowRead).toBe('SimplifiedWorkflow');
    expect(description.components.schemas.SimplifiedWorkflow!.required).toEqual(expect.arrayContaining(['id', 'status']));
    for (const [operation, where] of Object.entries(WORKFLOW_ANSWERED)) {
      const answer = answerOf(operationOf(operation));
      if (where === 'answer') expect(refName(answer), operation).toBe(workflowRead);
      else {
        // "The updated workflow node, plus the latest simplified workflow" (UpdateWorkflowNodeResponse), and its like.
        const schema = description.components.schemas[refName(answer)!]!;
        const parts: Schema[] = schema.allOf ?? [schema];
        expect(
          parts.some((part) => refName(part.properties?.workflow) === workflowRead && part.required?.includes('workflow')),
          operation,
        ).toBe(true);
      }
    }
  });

  it('gives a record read without a query, each item of a listed page, and the workflow a write of it answered with', () => {
    const workflow = { id: 'w1', status: 'Draft', nodes: {} };
    expect(statesAnswered({ method: 'GET', path: '/v1/workflows/w1', query: false }, workflow)).toEqual([['/v1/workflows/w1', workflow]]);
    expect(statesAnswered({ method: 'GET', path: '/v1/workflows/w1', query: true }, workflow)).toEqual([]);
    expect(statesAnswered({ method: 'GET', path: '/v1/workflows/w1?fields=x', query: false }, workflow)).toEqual([]);
    const email = { id: 't 1', draftEmailMessageId: 'm1' };
    expect(statesAnswered({ method: 'GET', path: '/v1/transactional-emails', query: true }, { data: [email, { name: 'no id' }] })).toEqual([
      ['/v1/transactional-emails/t%201', email],
    ]);
    // The workflows' list gives no status: no state.
    expect(statesAnswered({ method: 'GET', path: '/v1/workflows', query: true }, { data: [{ id: 'w1' }] })).toEqual([]);
    const node = { method: 'POST', path: '/v1/workflows/w1/nodes/n1', query: false, body: { payload: {} } };
    expect(statesAnswered(node, { id: 'n1', workflow })).toEqual([['/v1/workflows/w1', workflow]]);
    expect(statesAnswered({ method: 'POST', path: '/v1/workflows/w1', query: false, body: { name: 'x' } }, workflow)).toEqual([['/v1/workflows/w1', workflow]]);
  });

  it('gives nothing of a workflow an answer names otherwise, nor of a write whose answer does not hold the workflow', () => {
    const node = { method: 'POST', path: '/v1/workflows/w1/nodes/n1', query: false, body: { payload: {} } };
    expect(statesAnswered(node, { id: 'n1', workflow: { id: 'w2', status: 'Draft' } })).toEqual([]);
    expect(statesAnswered(node, { id: 'n1' })).toEqual([]);
    expect(statesAnswered({ method: 'DELETE', path: '/v1/workflows/w1/nodes/n1', query: false, body: {} }, { workflow: { id: 'w1' } })).toEqual([]);
    expect(statesAnswered({ method: 'POST', path: '/v1/email-messages/m1', query: false, body: {} }, { id: 'm1' })).toEqual([]);
  });
});
