/**
 * A sandbox holding the records of fixtures.ts instead of its seed: short, readable ids and the odd
 * records some tests need (a dangling node id, a node type loopsctl does not know), recording
 * every request it answers. The one stand-in for the API; fault tests keep their own server.
 */
import type { ApiAnswer, ApiRequest } from '../../src/emulator/api.js';
import type { SandboxModule } from '../../src/emulator/module.js';
import { seedState } from '../../src/emulator/state/index.js';
import * as fx from './fixtures.js';
import { startTestSandbox } from './main.js';

/** Keys of the sandbox, each a team with some features turned off. */
export const KEYS = {
  valid: 'sandbox-key',
  noContent: 'sandbox-no-content',
  noWorkflows: 'sandbox-no-workflows',
  noDomain: 'sandbox-no-domain',
};

export const themes = Array.from({ length: 25 }, (_, index) => fx.theme(25 - index));
export const groups = Array.from({ length: 12 }, (_, index) => fx.group(12 - index));

const NOW = '2025-06-29T07:47:39.370Z';

/** Collections are stored oldest first and listed newest first, so each is stored reversed. */
const stored = <T>(listed: T[]) => [...listed].reverse();

function fixtureState(modules: SandboxModule[]) {
  const state = seedState(modules);
  Object.assign(state, {
    teamName: 'Acme Inc',
    themes: stored(themes),
    transactionalGroups: stored([...groups, fx.group(0, 'Default')]),
    defaultTransactionalGroupId: 'grp_0',
    campaignGroups: stored([fx.group(3, 'Unsorted'), fx.group(2), fx.group(1)]),
    segments: [fx.segment],
    sendingIps: ['52.21.45.123', '2600:1f18:4a3::10'],
    transactionalEmails: [
      // Figures where a rate over deliveries would read differently (bounces 25.00%, spam 2.50%).
      { record: withoutRevision(fx.draftRecord), metrics: { sends: 1200, deliveries: 960, spamReports: 24, hardBounces: 150, softBounces: 90 } },
      {
        record: { ...fx.transactionalEmail, id: 'tx_unsent', name: 'Unsent', draftEmailMessageId: null, publishedEmailMessageId: 'em_pub_2' },
        metrics: { sends: 0, deliveries: 0, spamReports: 0, hardBounces: 0, softBounces: 0 },
      },
    ],
    workflows: [fixtureWorkflow()],
    emailMessages: [
      fixtureMessage('tx_welcome', 'em_draft_1', 'rev_abc123', false),
      fixtureMessage('tx_welcome', 'em_pub_1', 'rev_pub_1', true),
      fixtureMessage('tx_unsent', 'em_pub_2', 'rev_pub_2', true),
    ],
  });
  return state;
}

/** The sandbox reads a draft's revision from its email message, not from the record. */
function withoutRevision<T extends { draftEmailMessageContentRevisionId: unknown }>(record: T): Omit<T, 'draftEmailMessageContentRevisionId'> {
  const { draftEmailMessageContentRevisionId: _revision, ...rest } = record;
  return rest;
}

/** A version of a transactional email, as the sandbox keeps email messages. */
function fixtureMessage(transactionalId: string, id: string, contentRevisionId: string, published: boolean) {
  return {
    message: {
      id,
      transactionalId,
      subject: 'Welcome aboard',
      previewText: 'Confirm your address',
      fromName: 'Acme',
      fromEmail: 'hello',
      replyToEmail: 'support@acme.example',
      emailFormat: 'styled',
      lmx: '<Paragraph>Confirm with {data.confirmationUrl}</Paragraph>',
      contentRevisionId,
      updatedAt: NOW,
    },
    parent: { kind: 'transactional', id: transactionalId, published },
  };
}

/** fixtures.ts's workflow with its nodes in full, as the sandbox keeps them, and two trigger nodes to show one by one. */
function fixtureWorkflow() {
  const { id: workflowId, nodes, ...fields } = fx.workflow;
  const full = Object.entries(nodes).map(([id, node]) => ({ id, workflowId, ...node }));
  const { workflowRevisionId: _revision, ...propertyNode } = fx.contactPropertyNode;
  const trigger = full.find((node) => node.id === 'n_trigger')!;
  Object.assign(trigger, { eventProperties: fx.eventTriggerNode.eventProperties });
  return {
    id: workflowId,
    workflowRevisionId: 'wrev_1',
    description: '',
    emoji: '',
    createdAt: NOW,
    updatedAt: NOW,
    ...fields,
    nodes: [...full, propertyNode],
  };
}

export interface FixtureSandbox {
  url: string;
  /** Requests over HTTP always have headers. */
  requests: (ApiRequest & { headers: Record<string, string | undefined>; answer: ApiAnswer })[];
  close(): Promise<void>;
}

export async function startFixtureSandbox(): Promise<FixtureSandbox> {
  const requests: FixtureSandbox['requests'] = [];
  const server = await startTestSandbox({
    initialState: fixtureState,
    onRequest: (request, answer) => requests.push({ ...request, headers: request.headers ?? {}, answer }),
  });
  return { url: server.url, requests, close: () => server.close() };
}

/** The cursor the sandbox hands out for a page that starts at this item. */
export function cursorAt(id: string): string {
  return Buffer.from(id, 'utf8').toString('base64url');
}
