import { describe, expect, it } from 'vitest';
import { RouteTable, SandboxApi } from '../../../src/emulator/api.js';
import { freezeClock } from '../../../src/emulator/clock.js';
import { inboxEmails, inboxPage } from '../../../src/emulator/inbox.js';
import { journeyById } from '../../../src/emulator/journey-records.js';
import { seedId } from '../../../src/emulator/module.js';
import { attribute, readHtml, textOf } from '../../support/html.js';
import { sandboxCaller, sandboxModules, seedState } from '../../support/sandbox.js';

describe('the inbox', () => {
  it("shows a send's subject as its recipient reads it, with the values it was sent with", () => {
    const state = seedState();
    const call = sandboxCaller(new SandboxApi(state, new RouteTable(sandboxModules)));
    const receipt = seedId('transactional/Order receipt');
    const dataVariables = { orderNumber: 1042, items: '2 mugs', total: '$24', invoiceUrl: 'https://acme.example/i' };
    expect(call('POST', '/v1/transactional', { body: { transactionalId: receipt, email: 'ada@example.com', dataVariables } }).status).toBe(200);
    // The email message's subject is "Your receipt for order {data.orderNumber}".
    expect(inboxEmails(state).map((email) => email.subject)).toEqual(['Your receipt for order 1042']);
  });

  it("shows a workflow's email beside the journey that sent it, the email's own step marked", () => {
    const state = seedState();
    freezeClock(state);
    const call = sandboxCaller(new SandboxApi(state, new RouteTable(sandboxModules)));
    const newsletter = seedId('mailing-list/Product updates');
    const created = call('POST', '/v1/contacts/create', { body: { email: 'pat@example.com', firstName: 'Pat', mailingLists: { [newsletter]: true } } });
    expect(created.status).toBe(200);
    const [email] = inboxEmails(state);
    expect(email).toMatchObject({ kind: 'workflow', subject: 'Welcome aboard, Pat', to: 'pat@example.com', journeyId: expect.any(String) });
    const page = readHtml(inboxPage(state, email!.key));
    const journey = page.all('section').find((section) => attribute(section, 'id') === 'journey');
    expect(textOf(journey!)).toContain('pat@example.com through “Welcome series”, waiting until 2024-11-03 08:00:00 UTC');
    const steps = page
      .all('li')
      .filter((item) => item.parentNode !== null && 'tagName' in item.parentNode && attribute(item.parentNode, 'class') === 'journey');
    expect(steps.map((step) => textOf(step))).toEqual([
      '2024-11-01 08:00:00 UTC SignupTrigger entered the contact was created',
      '2024-11-01 08:00:00 UTC SendEmailAction sent sent "Welcome aboard, Pat"',
      '2024-11-01 08:00:00 UTC TimerAction waiting waits 2 days, until 2024-11-03 08:00:00 UTC',
    ]);
    expect(steps.map((step) => attribute(step, 'aria-current'))).toEqual([undefined, 'step', undefined]);
  });

  it("writes the time a timer's wait ends as it writes every time, while the journey keeps it exact", () => {
    const state = seedState();
    freezeClock(state);
    const call = sandboxCaller(new SandboxApi(state, new RouteTable(sandboxModules)));
    const newsletter = seedId('mailing-list/Product updates');
    expect(call('POST', '/v1/contacts/create', { body: { email: 'pat@example.com', mailingLists: { [newsletter]: true } } }).status).toBe(200);
    const [email] = inboxEmails(state);
    const timer = journeyById(state, email!.journeyId!)!.steps.at(-1);
    expect(timer).toMatchObject({ outcome: 'waiting', until: '2024-11-03T08:00:00.000Z', why: 'waits 2 days, until 2024-11-03T08:00:00.000Z' });
    const page = readHtml(inboxPage(state, email!.key));
    const journey = textOf(page.all('section').find((section) => attribute(section, 'id') === 'journey')!);
    expect(journey).toContain('waits 2 days, until 2024-11-03 08:00:00 UTC');
    expect(journey).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
  });
});
