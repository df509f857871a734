import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { renderOutbox } from '../../../../src/areas/sandbox/render.js';
import type { EventOutboxEntry } from '../../../../src/emulator/routes/sandbox.js';
import { Output } from '../../../../src/render/output.js';

const sink = () => new Writable({ write: (_chunk, _encoding, done) => done() });
const out = new Output({ json: false, color: false, stdout: sink(), stderr: sink(), env: {} });

const event: EventOutboxEntry = {
  kind: 'event',
  at: '2026-11-23T10:00:00.000Z',
  idempotencyKey: null,
  eventName: 'plan_upgraded',
  email: 'ada@example.com',
  userId: null,
  eventProperties: {},
  workflows: [{ id: 'cwf1', name: 'Upgrade thank-you', status: 'Sending' }],
};

describe("the sandbox outbox's text view", () => {
  it('names the emails the workflows an event started sent at once', () => {
    const sent = { loopId: 'cwf1', loopName: 'Upgrade thank-you', emailMessageId: 'cem1', subject: 'Thank you for upgrading', contact: {} };
    expect(renderOutbox(out, [{ ...event, emails: [sent] }])).toBe(
      [
        '2026-11-23T10:00:00.000Z  event plan_upgraded for ada@example.com',
        '  starts: Upgrade thank-you (cwf1, Sending)',
        '  sent at once: "Thank you for upgrading" (Upgrade thank-you)',
        '',
      ].join('\n'),
    );
  });

  it('says why no email came when the workflows wait first, and nothing of emails for an older outbox', () => {
    expect(renderOutbox(out, [{ ...event, emails: [] }])).toContain(
      '\n  no email at once: each workflow it starts waits, or filters, first (see `loopsctl sandbox journeys`)\n',
    );
    expect(renderOutbox(out, [event])).not.toMatch(/email yet|sent at once/);
    expect(renderOutbox(out, [{ ...event, workflows: [], emails: [] }])).not.toMatch(/email yet|sent at once/);
  });
});
