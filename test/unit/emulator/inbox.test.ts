import { describe, expect, it } from 'vitest';
import { SandboxApi } from '../../../src/emulator/api.js';
import { inboxEmails } from '../../../src/emulator/inbox.js';
import { seedId } from '../../../src/emulator/module.js';
import { sandboxCaller, sandboxModules, seedState } from '../../support/sandbox.js';

describe('the inbox', () => {
  it("shows a send's subject as its recipient reads it, with the values it was sent with", () => {
    const state = seedState();
    const call = sandboxCaller(new SandboxApi(state, sandboxModules));
    const receipt = seedId('transactional/Order receipt');
    const dataVariables = { orderNumber: 1042, items: '2 mugs', total: '$24', invoiceUrl: 'https://acme.example/i' };
    expect(call('POST', '/v1/transactional', { body: { transactionalId: receipt, email: 'ada@example.com', dataVariables } }).status).toBe(200);
    // The email message's subject is "Your receipt for order {data.orderNumber}".
    expect(inboxEmails(state).map((email) => email.subject)).toEqual(['Your receipt for order 1042']);
  });
});
