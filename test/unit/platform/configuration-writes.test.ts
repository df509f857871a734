import { describe, expect, it } from 'vitest';
import { CONFIGURATION_WRITES, configurationWrite, identifiersOf, OTHER_WRITES } from '../../../src/platform/configuration-writes.js';
import { publishedDescription } from '../../support/openapi.js';

describe('the configuration writes', () => {
  const writes = Object.entries(publishedDescription().paths).flatMap(([path, item]) =>
    ['post', 'put', 'patch', 'delete'].flatMap((method) => {
      const operation = (item as Record<string, { operationId?: string } | undefined>)[method];
      return operation === undefined ? [] : [{ method: method.toUpperCase(), path, operationId: operation.operationId! }];
    }),
  );

  it('place every write of the API in exactly one table: configuration, or not, with its reason', () => {
    expect(writes.length).toBeGreaterThan(30);
    for (const { operationId } of writes) {
      expect(Object.hasOwn(CONFIGURATION_WRITES, operationId) !== Object.hasOwn(OTHER_WRITES, operationId), operationId).toBe(true);
    }
    const known = new Set(writes.map(({ operationId }) => operationId));
    expect([...Object.keys(CONFIGURATION_WRITES), ...Object.keys(OTHER_WRITES)].filter((name) => !known.has(name))).toEqual([]);
  });

  it('match each configuration write by its own method and path template, and nothing else', () => {
    for (const { method, path, operationId } of writes) {
      const concrete = path.replace(/\{(\w+)\}/g, (_whole, name: string) => `${name}-1`);
      const found = configurationWrite(method, `${concrete}?x=1`);
      if (Object.hasOwn(OTHER_WRITES, operationId)) expect(found, operationId).toBeUndefined();
      else {
        expect(found?.operation, operationId).toBe(operationId);
        for (const name of path.match(/\{(\w+)\}/g) ?? []) expect(found?.ids[name.slice(1, -1)]).toBe(`${name.slice(1, -1)}-1`);
      }
    }
    expect(configurationWrite('GET', '/v1/themes/t1')).toBeUndefined();
  });

  it('leave out a write that only asks what would happen (dryRun)', () => {
    expect(configurationWrite('DELETE', '/v1/workflows/w/nodes/n', { expectedRevisionId: 'r', dryRun: true })).toBeUndefined();
    expect(configurationWrite('DELETE', '/v1/workflows/w/nodes/n', { expectedRevisionId: 'r', dryRun: false })?.operation).toBe('deleteWorkflowNode');
  });

  it('keep only the ids, revisions and name of an answer, one object down, never a list', () => {
    const answer = {
      name: 'Welcome',
      subject: 'Hello {firstName}',
      node: { id: 'n1', type: 'sendEmail', emailMessageId: 'em1' },
      workflow: { id: 'w1', workflowRevisionId: 'r2', nodes: [{ id: 'n0' }] },
      emailMessageContentRevisionId: 'c3',
      nodes: [{ id: 'n9' }],
    };
    expect(identifiersOf(answer)).toEqual({
      ids: { 'node.id': 'n1', 'node.emailMessageId': 'em1', 'workflow.id': 'w1' },
      revisions: { 'workflow.workflowRevisionId': 'r2', emailMessageContentRevisionId: 'c3' },
      name: 'Welcome',
    });
    expect(identifiersOf(undefined)).toEqual({ ids: {}, revisions: {} });
  });
});
