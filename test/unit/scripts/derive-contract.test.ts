/**
 * scripts/derive-contract.mjs: what the contract the tests check against keeps of the published
 * description (operations, parameters, schemas, $refs) and what it drops (the prose), and that the
 * committed contract has none of that prose.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const script = resolve(import.meta.dirname, '../../../scripts/derive-contract.mjs');
// A path held in a variable: the script is plain JavaScript, with no declarations for the type checker.
const { deriveContract } = (await import(script)) as { deriveContract: (description: unknown) => Record<string, any> };

const DESCRIPTION = {
  openapi: '3.1.0',
  info: { title: 'Loops OpenAPI Spec', description: 'This is the spec', version: '1.22.1' },
  servers: [{ url: 'https://app.loops.so/api' }],
  tags: [{ name: 'Groups', description: 'Organize things' }],
  paths: {
    '/v1/groups/{groupId}': {
      parameters: [{ name: 'groupId', in: 'path', required: true, description: 'The id', schema: { type: 'string', example: 'c1' } }],
      post: {
        operationId: 'updateGroup',
        summary: 'Update a group',
        description: 'Long prose',
        tags: ['Groups'],
        'x-mint': { href: '/api-reference/groups', metadata: { sidebarTitle: 'Update' } },
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Group' }, example: { name: 'Monthly' } } },
        },
        responses: {
          '200': { description: 'Updated', content: { 'application/json': { schema: { $ref: '#/components/schemas/Group' } } } },
          '405': { description: 'Wrong method' },
        },
        security: [{ apiKey: [] }],
      },
    },
  },
  webhooks: {
    groupChanged: {
      post: {
        operationId: 'webhookGroupChanged',
        'x-excluded': true,
        requestBody: { content: { 'application/json': { schema: { type: 'object' }, example: { eventName: 'group.changed' } } } },
        responses: { '200': { description: 'Received' } },
      },
    },
  },
  components: {
    schemas: {
      Group: {
        type: 'object',
        title: 'A group',
        description: 'A group of emails',
        // Fields named as the prose keys are: they are the contract, not prose.
        properties: {
          name: { type: 'string', description: 'Its name', examples: ['Monthly'] },
          description: { type: ['string', 'null'], description: 'What it is for', default: null },
          title: { type: 'string', enum: ['a', 'b'] },
        },
        required: ['name', 'description'],
        additionalProperties: false,
      },
    },
    securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'Your key' } },
  },
};

describe('the derived contract', () => {
  it('keeps the operations, parameters, bodies, responses and schemas, with their $refs, and none of the prose', () => {
    expect(deriveContract(DESCRIPTION)).toEqual({
      $comment: expect.stringContaining('scripts/derive-contract.mjs'),
      openapi: '3.1.0',
      info: { version: '1.22.1' },
      paths: {
        '/v1/groups/{groupId}': {
          parameters: [{ name: 'groupId', in: 'path', required: true, schema: { type: 'string' } }],
          post: {
            operationId: 'updateGroup',
            requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Group' } } } },
            responses: { '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Group' } } } }, '405': {} },
            security: [{ apiKey: [] }],
          },
        },
      },
      webhooks: {
        groupChanged: {
          post: {
            operationId: 'webhookGroupChanged',
            requestBody: { content: { 'application/json': { schema: { type: 'object' } } } },
            responses: { '200': {} },
          },
        },
      },
      components: {
        schemas: {
          Group: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              description: { type: ['string', 'null'], default: null },
              title: { type: 'string', enum: ['a', 'b'] },
            },
            required: ['name', 'description'],
            additionalProperties: false,
          },
        },
        securitySchemes: { apiKey: { type: 'http', scheme: 'bearer' } },
      },
    });
  });

  it('is committed without prose: no description, summary, title or example where the description has them as keywords', () => {
    const contract = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../contract/loops-1.22.1.json'), 'utf8'));
    const prose: string[] = [];
    const NAMED = new Set(['properties', 'paths', 'webhooks', 'schemas', 'responses', 'content', 'securitySchemes', 'parameters']);
    const visit = (node: unknown, at: string, named: boolean): void => {
      if (Array.isArray(node)) return node.forEach((item, index) => visit(item, `${at}[${index}]`, false));
      if (typeof node !== 'object' || node === null) return;
      for (const [key, value] of Object.entries(node)) {
        if (!named && /^(description|summary|title|examples?|tags|x-.*)$/.test(key)) prose.push(`${at}.${key}`);
        if (!named && ['enum', 'const', 'default', 'required'].includes(key)) continue;
        visit(value, `${at}.${key}`, !named && NAMED.has(key) && !Array.isArray(value));
      }
    };
    visit(contract, '$', false);
    expect(prose).toEqual([]);
    expect(Object.keys(contract.paths).length).toBeGreaterThan(40);
    expect(Object.keys(contract.components.schemas).length).toBeGreaterThan(100);
  });
});
