/**
 * The sandbox inbox's page writes what an app sent (data variables, and the subject they fill) into
 * HTML: in the list of emails and in the table of values each was sent with. Hostile values come
 * back as text, exactly as sent, never as markup.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RouteTable, SandboxApi } from '../../../src/emulator/api.js';
import { inboxPage } from '../../../src/emulator/inbox.js';
import { seedId } from '../../../src/emulator/module.js';
import { findMessage } from '../../../src/emulator/routes/email-message-records.js';
import { attribute, type HtmlElement, type HtmlNode, readHtml, textOf } from '../../support/html.js';
import { sandboxCaller, sandboxModules, seedState } from '../../support/sandbox.js';

const PIECES = ['"', "'", '<', '>', '&', '&amp;', '&lt;', '<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '" onmouseover="x', 'a', ' '];
const hostile = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 10 }).map((pieces) => `a${pieces.join('')}z`);

/** The inbox page after one send of the order receipt, whose subject is "Your receipt for order {data.orderNumber}". */
function pageAfterSend(orderNumber: string, total: string) {
  const state = seedState();
  const call = sandboxCaller(new SandboxApi(state, new RouteTable(sandboxModules)));
  const dataVariables = { orderNumber, items: '2 mugs', total, invoiceUrl: 'https://acme.example/i' };
  const sent = call('POST', '/v1/transactional', { body: { transactionalId: seedId('transactional/Order receipt'), email: 'ada@example.com', dataVariables } });
  expect(sent.status).toBe(200);
  return readHtml(inboxPage(state, null));
}

describe('the inbox page, with hostile values', () => {
  it('lists the subject, and shows each value it was sent with, as text', () => {
    fc.assert(
      fc.property(hostile, hostile, (orderNumber, total) => {
        const page = pageAfterSend(orderNumber, total);
        const subject = `Your receipt for order ${orderNumber}`;
        expect(
          page
            .all('span')
            .filter((span) => attribute(span, 'class') === 'subject')
            .map(textOf),
        ).toEqual([subject]);
        expect(page.all('h1').map(textOf)).toContain(subject);
        const rows = page.all('table').filter((table) => attribute(table, 'class') === 'values')[0]!;
        const values = new Map(rowsOf(rows));
        expect(values.get('{data.orderNumber}')).toBe(orderNumber);
        expect(values.get('{data.total}')).toBe(total);
        // The page's own scripts only: none from a value.
        expect(page.all('script').map((script) => attribute(script, 'src'))).toEqual(['/_sandbox/inbox/inbox.js']);
        for (const element of page.all()) for (const { name } of element.attrs) expect(name, `<${element.tagName}>`).not.toMatch(/^on/);
      }),
      { numRuns: 40, examples: [['a<script>alert(1)</script>z', 'a" onmouseover="xz']] },
    );
  });
});

describe('the inbox page, with a hostile fallback', () => {
  it('shows the fallback a value left out was drawn with, as text', () => {
    fc.assert(
      fc.property(hostile, (fallback) => {
        const state = seedState();
        const call = sandboxCaller(new SandboxApi(state, new RouteTable(sandboxModules)));
        // The welcome email's firstName has a fallback, so a send may leave it out; a published message is not edited through the API.
        findMessage(state, seedId('transactional/Welcome/published'))!.message.dataVariablesFallbacks = { firstName: fallback };
        const body = { transactionalId: seedId('transactional/Welcome'), email: 'ada@example.com', dataVariables: { loginUrl: 'https://acme.example/in' } };
        expect(call('POST', '/v1/transactional', { body }).status).toBe(200);
        const page = readHtml(inboxPage(state, null));
        const values = new Map(rowsOf(page.all('table').find((table) => attribute(table, 'class') === 'values')!));
        expect(values.get('{data.firstName}')).toBe(`none; fallback “${fallback}”`);
        for (const element of page.all()) for (const { name } of element.attrs) expect(name, `<${element.tagName}>`).not.toMatch(/^on/);
      }),
      { numRuns: 20, examples: [['a<img src=x onerror=alert(1)>z']] },
    );
  });
});

/** A values table's rows: the variable, as its header, to the value shown. */
function rowsOf(table: HtmlElement): [string, string][] {
  const elements = (node: HtmlNode): HtmlElement[] => ('childNodes' in node ? node.childNodes : []).filter((child): child is HtmlElement => 'tagName' in child);
  // parse5 puts the rows in a <tbody>.
  return elements(table)
    .flatMap((body) => elements(body))
    .filter((row) => row.tagName === 'tr')
    .map((row) => {
      const [header, value] = elements(row);
      return [textOf(header!), textOf(value!)];
    });
}
