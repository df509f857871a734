/** What a run keeps of its reads, and what its own writes make it forget (src/api/read-cache.ts). */
import { describe, expect, it } from 'vitest';
import { ApiClient, readListWhenCheaper } from '../../../src/api/client.js';
import type { HttpRequest, HttpResponse, Transport } from '../../../src/api/http.js';
import { freshReads, RunReads } from '../../../src/api/read-cache.js';
import { transactionalEmails } from '../../../src/areas/transactional/client.js';
import * as z from '../../../src/base/zod.js';

/** An account of answers by path, which a test changes as another person would; every request it is sent, in order. */
function account(answers: Record<string, unknown>) {
  const sent: string[] = [];
  const transport: Transport = {
    send: async (req: HttpRequest): Promise<HttpResponse> => {
      sent.push(`${req.method} ${req.path}`);
      const body = req.method === 'GET' ? answers[req.path] : (answers[`${req.method} ${req.path}`] ?? {});
      return { status: 200, headers: {}, contentType: 'application/json', text: JSON.stringify(body), body: structuredClone(body) };
    },
  };
  const client = new ApiClient(new RunReads(transport));
  const read = (path: string, via = client) => via.call({ method: 'GET', idempotent: true, path }, z.unknown());
  const write = (path: string, body: unknown = {}) => client.call({ method: 'POST', idempotent: false, path, body }, z.unknown());
  return { sent, answers, client, read, write };
}

const EMAIL = { id: 'tx1', name: 'Welcome', draftEmailMessageId: 'm1', transactionalGroupId: 'g1' };
const MESSAGE = { id: 'm1', subject: 'Hello', transactionalId: 'tx1', themeId: 'th1' };
const OTHER = { id: 'm2', subject: 'Other', themeId: 'th1' };

describe('the reads a run keeps', () => {
  it('asks once for a record or a page, and hands each caller an answer of its own', async () => {
    const { sent, read } = account({ '/v1/email-messages/m1': MESSAGE });
    const first = (await read('/v1/email-messages/m1')) as { subject: string };
    first.subject = 'changed by its caller';
    expect(await read('/v1/email-messages/m1')).toEqual(MESSAGE);
    expect(sent).toEqual(['GET /v1/email-messages/m1']);
  });

  it('forgets, after a write, the record, what is under and above it, and every answer that names it', async () => {
    const { sent, read, write } = account({
      '/v1/email-messages/m1': MESSAGE,
      '/v1/email-messages/m1/guardian': { errors: [] },
      '/v1/email-messages/m2': OTHER,
      '/v1/transactional-emails/tx1': EMAIL,
      '/v1/transactional-groups': { data: [{ id: 'g1' }] },
      '/v1/themes/th1': { id: 'th1' },
      '/v1/themes/th2': { id: 'th2' },
    });
    for (const path of [
      '/v1/email-messages/m1',
      '/v1/email-messages/m1/guardian',
      '/v1/email-messages/m2',
      '/v1/transactional-emails/tx1',
      '/v1/transactional-groups',
      '/v1/themes/th1',
      '/v1/themes/th2',
    ])
      await read(path);
    sent.length = 0;
    await write('/v1/email-messages/m1', { subject: 'New' });
    for (const path of [
      '/v1/email-messages/m2',
      '/v1/transactional-emails/tx1',
      '/v1/transactional-groups',
      '/v1/themes/th1',
      '/v1/themes/th2',
      '/v1/email-messages/m1/guardian',
    ])
      await read(path);
    // The email names its draft; the guardian is under it; the theme is one the message refers to. Another message using that theme is not changed.
    expect(sent).toEqual(['POST /v1/email-messages/m1', 'GET /v1/transactional-emails/tx1', 'GET /v1/themes/th1', 'GET /v1/email-messages/m1/guardian']);
  });

  it("keeps an email message's update as its read, unless the answer holds what only an update's does", async () => {
    const { sent, read, write, answers } = account({ 'POST /v1/email-messages/m1': { ...MESSAGE, subject: 'New' } });
    await write('/v1/email-messages/m1', { subject: 'New' });
    expect(await read('/v1/email-messages/m1')).toEqual({ ...MESSAGE, subject: 'New' });
    expect(sent).toEqual(['POST /v1/email-messages/m1']);
    answers['POST /v1/email-messages/m1'] = { ...MESSAGE, warnings: [{ rule: 'x' }] };
    answers['/v1/email-messages/m1'] = MESSAGE;
    await write('/v1/email-messages/m1', { subject: 'New' });
    expect(await read('/v1/email-messages/m1')).toEqual(MESSAGE);
  });

  it('forgets nothing for a dry run, and everything for a write it does not know', async () => {
    const { sent, read, client, answers } = account({ '/v1/workflows/w1': { id: 'w1' }, '/v1/themes': { data: [] } });
    await read('/v1/workflows/w1');
    await read('/v1/themes');
    await client.call({ method: 'DELETE', idempotent: false, path: '/v1/workflows/w1/nodes/n1', body: { dryRun: true } }, z.unknown());
    await read('/v1/workflows/w1');
    answers['POST /v1/contacts/update'] = { success: true };
    await client.call({ method: 'POST', idempotent: false, path: '/v1/contacts/update', body: { email: 'a@example.com' } }, z.unknown());
    await read('/v1/workflows/w1');
    await read('/v1/themes');
    expect(sent).toEqual([
      'GET /v1/workflows/w1',
      'GET /v1/themes',
      'DELETE /v1/workflows/w1/nodes/n1',
      'POST /v1/contacts/update',
      'GET /v1/workflows/w1',
      'GET /v1/themes',
    ]);
  });

  it("reads a guard's record from the API, and keeps what it found", async () => {
    const { sent, read, client, answers } = account({ '/v1/themes/th1': { id: 'th1', styles: { a: 1 } } });
    await read('/v1/themes/th1');
    answers['/v1/themes/th1'] = { id: 'th1', styles: { a: 2 } };
    expect(await read('/v1/themes/th1', freshReads(client))).toEqual({ id: 'th1', styles: { a: 2 } });
    expect(await read('/v1/themes/th1')).toEqual({ id: 'th1', styles: { a: 2 } });
    expect(sent).toEqual(['GET /v1/themes/th1', 'GET /v1/themes/th1']);
  });

  it("answers an email's read from a page of its list the run holds, never a guard's, and from the API once a write forgot the page", async () => {
    const OTHER_EMAIL = { id: 'tx2', name: 'Receipt', draftEmailMessageId: 'm2' };
    const { sent, read, write, client } = account({
      '/v1/transactional-emails': { data: [EMAIL, OTHER_EMAIL] },
      '/v1/transactional-emails/tx1': EMAIL,
      '/v1/transactional-emails/tx2': OTHER_EMAIL,
      '/v1/transactional-emails/tx3': { id: 'tx3', name: 'Late', draftEmailMessageId: 'm3' },
    });
    await read('/v1/transactional-emails');
    expect(await read('/v1/transactional-emails/tx1')).toEqual(EMAIL);
    expect(await read('/v1/transactional-emails/tx3')).toMatchObject({ id: 'tx3' });
    expect(await read('/v1/transactional-emails/tx2', freshReads(client))).toEqual(OTHER_EMAIL);
    // The page and the email name the draft written: both forgotten.
    await write('/v1/email-messages/m1', { subject: 'New' });
    await read('/v1/transactional-emails/tx1');
    await read('/v1/transactional-emails/tx2');
    expect(sent).toEqual([
      'GET /v1/transactional-emails',
      'GET /v1/transactional-emails/tx3',
      'GET /v1/transactional-emails/tx2',
      'POST /v1/email-messages/m1',
      'GET /v1/transactional-emails/tx1',
    ]);
  });

  it("reads a list's pages when they are no more than the records a run would read one by one", async () => {
    const sent: string[] = [];
    const transport: Transport = {
      send: async (req) => {
        const cursor = req.query?.cursor as string | undefined;
        sent.push(cursor ?? 'first');
        const next = cursor === undefined ? 'c2' : cursor === 'c2' ? 'c3' : null;
        const pagination = { totalResults: 120, returnedResults: 50, perPage: 50, totalPages: 3, nextCursor: next, nextPage: next };
        const body = { pagination, data: [] };
        return { status: 200, headers: {}, contentType: 'application/json', text: JSON.stringify(body), body };
      },
    };
    const client = new ApiClient(transport);
    await readListWhenCheaper(client, transactionalEmails, 2);
    expect(sent).toEqual(['first']);
    sent.length = 0;
    await readListWhenCheaper(client, transactionalEmails, 3);
    expect(sent).toEqual(['first', 'c2', 'c3']);
  });

  it('keeps no read answered while a write was under way', async () => {
    let finish = () => {};
    const sent: string[] = [];
    const transport: Transport = {
      send: (req) => {
        sent.push(`${req.method} ${req.path}`);
        const answer = { status: 200, headers: {}, contentType: 'application/json', text: '{"id":"w1"}', body: { id: 'w1' } };
        return req.method === 'GET' ? Promise.resolve(answer) : new Promise((resolve) => (finish = () => resolve(answer)));
      },
    };
    const reads = new RunReads(transport);
    // A write whose answer is not the workflow (a workflow's own update answers it, and is kept: below).
    const writing = reads.send({
      method: 'POST',
      idempotent: false,
      path: '/v1/workflows/w1/mailing-list',
      body: { expectedRevisionId: 'r', mailingListId: null },
    });
    await reads.send({ method: 'GET', idempotent: true, path: '/v1/workflows/w1' });
    finish();
    await writing;
    await reads.send({ method: 'GET', idempotent: true, path: '/v1/workflows/w1' });
    expect(sent).toEqual(['POST /v1/workflows/w1/mailing-list', 'GET /v1/workflows/w1', 'GET /v1/workflows/w1']);
  });

  it("keeps a workflow as its node write answered it, the latest simplified workflow, in place of its read; another's answer, not", async () => {
    const sent: string[] = [];
    const workflow = { id: 'w1', status: 'Draft', workflowRevisionId: 'r2', nodes: {} };
    const transport: Transport = {
      send: async (req) => {
        sent.push(`${req.method} ${req.path}`);
        const body =
          req.method === 'GET'
            ? { id: 'w2' }
            : { id: 'n1', workflowRevisionId: 'r2', workflow: req.path.startsWith('/v1/workflows/w1/') ? workflow : { id: 'w9' } };
        return { status: 200, headers: {}, contentType: 'application/json', text: JSON.stringify(body), body };
      },
    };
    const reads = new RunReads(transport);
    await reads.send({ method: 'POST', idempotent: false, path: '/v1/workflows/w1/nodes/n1', body: { expectedRevisionId: 'r1', payload: {} } });
    expect((await reads.send({ method: 'GET', idempotent: true, path: '/v1/workflows/w1' })).body).toEqual(workflow);
    await reads.send({ method: 'POST', idempotent: false, path: '/v1/workflows/w2/nodes/n1', body: { expectedRevisionId: 'r1', payload: {} } });
    await reads.send({ method: 'GET', idempotent: true, path: '/v1/workflows/w2' });
    expect(sent).toEqual(['POST /v1/workflows/w1/nodes/n1', 'POST /v1/workflows/w2/nodes/n1', 'GET /v1/workflows/w2']);
  });
});
