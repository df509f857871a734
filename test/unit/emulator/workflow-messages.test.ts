/**
 * A send-email node and its email message are one record: "Shared resources such as email messages
 * and audience segments should be updated through their own APIs" (the description), so what the
 * email-messages API changes is what the node, the journeys, the outbox and the inbox show.
 */
import { describe, expect, it } from 'vitest';
import { RouteTable, SandboxApi } from '../../../src/emulator/api.js';
import { freezeClock } from '../../../src/emulator/clock.js';
import { inboxEmails } from '../../../src/emulator/inbox.js';
import { allJourneys } from '../../../src/emulator/journey-records.js';
import { seedId } from '../../../src/emulator/module.js';
import { emailMessages } from '../../../src/emulator/routes/email-message-records.js';
import { outbox } from '../../../src/emulator/routes/sandbox.js';
import { workflows } from '../../../src/emulator/routes/workflow-records.js';
import { sandboxCaller, sandboxModules, seedState } from '../../support/sandbox.js';

const WELCOME = seedId('workflow/Welcome series');
const WELCOME_NODE = seedId('workflow/Welcome series/welcome');
const WELCOME_MESSAGE = seedId('email-message/welcome-1');

describe('a send-email node and its email message', () => {
  it('show the subject the email-messages API set: in the node, the workflow, the journey, the outbox and the inbox', () => {
    const state = seedState();
    freezeClock(state);
    const call = sandboxCaller(new SandboxApi(state, new RouteTable(sandboxModules)));
    const changed = call('POST', `/v1/email-messages/${WELCOME_MESSAGE}`, {
      body: { subject: 'Hello {contact.firstName}, glad you came', contactPropertiesFallbacks: { firstName: 'friend' } },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((call('GET', `/v1/workflows/${WELCOME}/nodes/${WELCOME_NODE}`).body as { subject: string }).subject).toBe(
      'Hello {contact.firstName}, glad you came',
    );
    const graph = call('GET', `/v1/workflows/${WELCOME}`).body as { nodes: Record<string, { subject?: string }> };
    expect(graph.nodes[WELCOME_NODE]!.subject).toBe('Hello {contact.firstName}, glad you came');

    const newsletter = seedId('mailing-list/Product updates');
    for (const contact of [{ email: 'pat@example.com', firstName: 'Pat' }, { email: 'anon@example.com' }])
      expect(call('POST', '/v1/contacts/create', { body: { ...contact, mailingLists: { [newsletter]: true } } }).status).toBe(200);
    // Filled as LMX fills it: the contact's value, else the message's fallback.
    const sent = ['Hello Pat, glad you came', 'Hello friend, glad you came'];
    expect(outbox.of(state).flatMap((entry) => (entry.kind === 'workflow' ? [entry.subject] : []))).toEqual(sent);
    expect(allJourneys(state).flatMap((journey) => journey.steps.filter((step) => step.outcome === 'sent').map((step) => step.subject))).toEqual(sent);
    expect(inboxEmails(state).map((email) => email.subject)).toEqual([...sent].reverse());
  });

  it("the seed's workflow subjects are valid LMX: every variable names its namespace", () => {
    const state = seedState();
    const ids = new Set(
      workflows.of(state).flatMap((workflow) => workflow.nodes.flatMap((node) => (typeof node.emailMessageId === 'string' ? [node.emailMessageId] : []))),
    );
    const subjects = emailMessages
      .of(state)
      .filter((stored) => ids.has(stored.message.id))
      .map((stored) => stored.message.subject);
    expect(subjects).toContain('Welcome aboard, {contact.firstName}');
    for (const subject of subjects)
      expect(subject.match(/\{[^}]*\}/g)?.filter((variable) => !/^\{(contact|event)\.\w+\}$/.test(variable)) ?? [], subject).toEqual([]);
  });
});
