import { isIP } from 'node:net';
import { describe, expect, it } from 'vitest';
import { pageOf } from '../../../src/base/shapes.js';
import type * as z from '../../../src/base/zod.js';
import { seedId } from '../../../src/emulator/module.js';
import { components } from '../../../src/emulator/routes/components.js';
import { emailMessages } from '../../../src/emulator/routes/email-message-records.js';
import { strictFormOf } from '../../../src/emulator/strict.js';
import { checkLmx } from '../../../src/lmx/index.js';
import { group, RESERVED_GROUP_NAME } from '../../../src/platform/groups/schemas.js';
import { dedicatedSendingIps } from '../../../src/platform/ips/schemas.js';
import { audienceSegment } from '../../../src/platform/segments/schemas.js';
import { theme as themeSchema } from '../../../src/platform/themes/schemas.js';
import { transactionalEmail, transactionalMetrics } from '../../../src/platform/transactional/schemas.js';
import { workflowNode, workflow as workflowSchema, workflowSummary } from '../../../src/platform/workflows/schemas.js';
import { SEED_IDS, sandboxCaller, seedState } from '../../support/sandbox.js';

const seed = seedState();

function expectStrict(schema: z.ZodMiniType, value: unknown, what: string): void {
  const result = strictFormOf(schema).safeParse(value);
  expect(result.success ? 'ok' : `${what}: ${result.error.message}`).toBe('ok');
}

describe('strict forms of the client schemas', () => {
  it('refuse unknown keys at any depth, also in the fields of a node type', () => {
    const theme = seed.themes[0]!;
    expect(strictFormOf(themeSchema).safeParse({ ...theme, extra: 1 }).success).toBe(false);
    expect(strictFormOf(themeSchema).safeParse({ ...theme, styles: { ...theme.styles, glow: '#fff' } }).success).toBe(false);
    expect(
      strictFormOf(pageOf(group)).safeParse({
        pagination: { totalResults: 0, returnedResults: 0, perPage: 20, totalPages: 0, nextCursor: null, nextPage: null, more: true },
        data: [],
      }).success,
    ).toBe(false);
    const node = { id: 'n', workflowId: 'w', typeName: 'TimerAction', nextNodeIds: [], amount: 1, unit: 'd' };
    expect(strictFormOf(workflowNode).safeParse(node).success).toBe(true);
    expect(strictFormOf(workflowNode).safeParse({ ...node, subject: 'not a timer field' }).success).toBe(false);
    expect(strictFormOf(workflowNode).safeParse({ ...node, unit: 'weeks' }).success).toBe(false);
    const simplified = { typeName: 'SendEmailAction', nextNodeIds: [], subject: 'Hi' };
    expect(strictFormOf(workflowSchema).safeParse({ id: 'w', rootNodeId: null, nodes: { a: simplified } }).success).toBe(true);
    expect(strictFormOf(workflowSchema).safeParse({ id: 'w', rootNodeId: null, nodes: { a: { ...simplified, amount: 3 } } }).success).toBe(false);
  });
});

describe('the seed data', () => {
  it('is valid LMX, each body under the rules of its kind, with no warnings but the button of the draft Guardian refuses', () => {
    const componentIds = new Set(components.of(seed).map((component) => component.id));
    const bodies = [
      ...emailMessages.of(seed).map(({ message, parent }) => ({ what: `${parent.kind} message ${message.id}`, lmx: message.lmx, kind: parent.kind })),
      ...components.of(seed).map((component) => ({ what: `component ${component.name}`, lmx: component.lmx, kind: 'component' as const })),
    ];
    expect(bodies.length).toBeGreaterThan(10);
    // The payment-failed draft's button leads nowhere on purpose: it is the seed's Guardian error.
    const buttonless = `transactional message ${seedId('transactional/Payment failed/draft')}`;
    for (const { what, lmx, kind } of bodies)
      expect({ what, rules: checkLmx(lmx, { kind, componentIds }).problems.map((problem) => `${problem.severity} ${problem.rule}`) }).toEqual({
        what,
        rules: what === buttonless ? ['warning button-href'] : [],
      });
  });

  it('holds against the client schemas in strict mode, record by record', () => {
    for (const theme of seed.themes) expectStrict(themeSchema, theme, `theme ${theme.name}`);
    for (const record of [...seed.transactionalGroups, ...seed.campaignGroups]) expectStrict(group, record, `group ${record.name}`);
    for (const segment of seed.segments) expectStrict(audienceSegment, segment, `segment ${segment.name}`);
    for (const { record, metrics } of seed.transactionalEmails) {
      expectStrict(transactionalEmail, record, `transactional ${record.name}`);
      expectStrict(transactionalMetrics, metrics, `metrics of ${record.name}`);
    }
    expectStrict(dedicatedSendingIps, seed.sendingIps, 'sending IPs');
    for (const workflow of seed.workflows) {
      for (const node of workflow.nodes) expectStrict(workflowNode, node, `${workflow.name} node ${node.typeName}`);
    }
  });

  it('holds in strict mode in every answer built from it', () => {
    const call = sandboxCaller();
    const list = (path: string) => call('GET', path, { query: { perPage: '50' } }).body.data;
    for (const email of list('/v1/transactional-emails')) expectStrict(transactionalEmail, email, email.name);
    for (const workflow of list('/v1/workflows')) {
      expectStrict(workflowSummary, workflow, workflow.name);
      expectStrict(workflowSchema, call('GET', `/v1/workflows/${workflow.id}`).body, workflow.name);
    }
  });

  it('is big enough to page through, and covers every state', () => {
    expect(seed.themes.length).toBeGreaterThanOrEqual(25);
    expect(seed.themes.filter((theme) => theme.isDefault)).toHaveLength(1);
    expect(seed.transactionalGroups.length).toBeGreaterThanOrEqual(25);
    expect(seed.campaignGroups.map((group) => group.name)).toContain(RESERVED_GROUP_NAME);
    expect(seed.campaignGroups).toHaveLength(3);
    expect(seed.segments).toHaveLength(4);
    expect(seed.workflows.length).toBeGreaterThanOrEqual(4);
    const states = seed.transactionalEmails.map(({ record }) => `${record.publishedEmailMessageId !== null}/${record.draftEmailMessageId !== null}`);
    expect(seed.transactionalEmails).toHaveLength(5);
    expect(new Set(states)).toEqual(new Set(['true/true', 'true/false', 'false/true']));
    for (const { record, metrics } of seed.transactionalEmails) {
      expect(metrics.deliveries + metrics.hardBounces + metrics.softBounces, record.name).toBe(metrics.sends);
      if (record.publishedEmailMessageId === null) expect(record.dataVariables, record.name).toEqual([]);
      expect(seed.transactionalGroups.some((group) => group.id === record.transactionalGroupId)).toBe(true);
    }
    expect(new Set(seed.sendingIps.map((ip) => isIP(ip)))).toEqual(new Set([4, 6]));
  });

  it('keeps every collection in creation order, with unique ids', () => {
    const collections = {
      themes: seed.themes,
      transactionalGroups: seed.transactionalGroups,
      campaignGroups: seed.campaignGroups,
      transactionalEmails: seed.transactionalEmails.map(({ record }) => record),
      segments: seed.segments,
      workflows: seed.workflows,
    };
    const ids = new Set<string>();
    for (const [name, items] of Object.entries(collections)) {
      const created = items.map((item) => item.createdAt);
      expect(created, name).toEqual([...created].sort());
      for (const item of items) {
        expect(item.updatedAt >= item.createdAt, `${name} ${item.id}`).toBe(true);
        expect(ids.has(item.id), item.id).toBe(false);
        ids.add(item.id);
      }
    }
  });

  it('is the same every time, so its ids can be named', () => {
    expect(seedState()).toEqual(seed);
    expect(SEED_IDS.welcomeWorkflow).toBe(seed.workflows[0]!.id);
    expect(seed.workflows.map((workflow) => workflow.id)).toContain(SEED_IDS.experimentWorkflow);
    expect(Object.values(SEED_IDS).every((id) => /^c[a-z0-9]{24}$/.test(id))).toBe(true);
  });
});
