/** The call shapes of each provider's SDK, as their public docs write them (the list in src/areas/migrate/sends.ts). */
import { parse } from '@babel/parser';
import { describe, expect, it } from 'vitest';
import { mayHoldSends, providerSends } from '../../../../src/areas/migrate/sends.js';

function sends(text: string, file = 'src/app.tsx') {
  expect(mayHoldSends(text)).toBe(true);
  return providerSends(parse as never, file, text).sends.map(({ provider, call, kind, template, variables, event }) => ({
    provider,
    call,
    kind,
    template,
    variables,
    event,
  }));
}

describe('providerSends', () => {
  it('reads Postmark sends by template and with HTML', () => {
    expect(
      sends(`client.sendEmailWithTemplate({ From: 'a@x.example', To: to, TemplateAlias: 'welcome', TemplateModel: { name, action_url } });
client.sendEmail({ From: 'a@x.example', To: to, Subject: 'Hi', HtmlBody: html });`),
    ).toEqual([
      {
        provider: 'Postmark',
        call: 'client.sendEmailWithTemplate',
        kind: 'email',
        template: { kind: 'provider', id: 'welcome' },
        variables: ['name', 'action_url'],
        event: undefined,
      },
      { provider: 'Postmark', call: 'client.sendEmail', kind: 'email', template: { kind: 'inline' }, variables: undefined, event: undefined },
    ]);
  });

  it("reads Mailgun's template and its variables from the JSON it sends", () => {
    expect(
      sends(`await mg.messages.create('mg.example.com', { from, to, template: 'receipt', 't:variables': JSON.stringify({ total, items }) });
await mg.messages.create(domain, { from, to, template: 'old', 'h:X-Mailgun-Variables': JSON.stringify({ code }) });`),
    ).toEqual([
      {
        provider: 'Mailgun',
        call: 'mg.messages.create',
        kind: 'email',
        template: { kind: 'provider', id: 'receipt' },
        variables: ['total', 'items'],
        event: undefined,
      },
      { provider: 'Mailgun', call: 'mg.messages.create', kind: 'email', template: { kind: 'provider', id: 'old' }, variables: ['code'], event: undefined },
    ]);
  });

  it("reads Resend's React element, a component called, and a template kept at Resend", () => {
    const found = providerSends(
      parse as never,
      'app/api/send/route.tsx',
      `import { EmailTemplate } from '../../../components/email-template';
import Invite from '../../../emails/invite';
await resend.emails.send({ from, to, subject, react: <Invite teamName={team} inviteLink={link} /> });
await resend.emails.send({ from, to, subject, react: EmailTemplate({ firstName: 'John' }) });
await resend.emails.send({ from, to, template: { id: 'order-confirmation', variables: { PRODUCT: p, PRICE: 499 } } });`,
    ).sends;
    expect(found.map((send) => [send.provider, send.template, send.variables])).toEqual([
      ['Resend', { kind: 'file', name: 'Invite', file: 'emails/invite' }, ['teamName', 'inviteLink']],
      ['Resend', { kind: 'file', name: 'EmailTemplate', file: 'components/email-template' }, ['firstName']],
      ['Resend', { kind: 'provider', id: 'order-confirmation' }, ['PRODUCT', 'PRICE']],
    ]);
  });

  it('reads Customer.io, Mailchimp Transactional and Segment', () => {
    expect(
      sends(`await api.sendEmail(new SendEmailRequest({ to, transactional_message_id: 3, message_data: { password_reset_token: token }, identifiers: { id } }));
await mailchimp.messages.sendTemplate({ template_name: 'welcome', template_content: [], message: { to, global_merge_vars: [{ name: 'FNAME', content: first }] } });
analytics.track({ userId, event: 'Signed Up', properties: { plan } });`),
    ).toEqual([
      {
        provider: 'Customer.io',
        call: 'api.sendEmail',
        kind: 'email',
        template: { kind: 'provider', id: '3' },
        variables: ['password_reset_token'],
        event: undefined,
      },
      {
        provider: 'Mailchimp Transactional',
        call: 'mailchimp.messages.sendTemplate',
        kind: 'email',
        template: { kind: 'provider', id: 'welcome' },
        variables: ['FNAME'],
        event: undefined,
      },
      { provider: 'Segment', call: 'analytics.track', kind: 'event', template: undefined, variables: ['plan'], event: 'Signed Up' },
    ]);
  });

  it('leaves alone a send of no provider it knows', () => {
    // A socket's send and a queue's are not emails: no template, no recipient.
    expect(sends(`socket.send({ type: 'ping' }); queue.send({ to: 'worker', body });`)).toEqual([]);
  });
});
