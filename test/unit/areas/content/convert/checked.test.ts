/**
 * Every converted record passes `content check`: links to the pages Loops gives every email
 * itself (Mailchimp's and Campaign Monitor's unsubscribe, preferences and web version) go with
 * their text, a link to an address computed when the app runs keeps its text, and an image over
 * http:// is listed, as content check warns of it.
 */
import { describe, expect, it } from 'vitest';
import { checkSource } from '../../../../../src/areas/content/check.js';
import { fromHtml } from './layout-support.js';

const page = (body: string) => `<!doctype html><html><head><title>News</title></head><body>${body}</body></html>`;

describe('a converted record content check takes', () => {
  it('drops the links to *|UNSUB|*, *|UPDATE_PROFILE|* and *|ARCHIVE|* with their text, each listed, never <Link href="">', () => {
    const { lmx, findings } = fromHtml(
      page(`<p>Spring sale, all week.</p>
        <p><a href="*|ARCHIVE|*">View this email in your browser</a></p>
        <p>You signed up at our shop. <a href="*|UPDATE_PROFILE|*">Update your preferences</a> or <a href="*|UNSUB|*">unsubscribe from this list</a>.</p>`),
    );
    expect(lmx).not.toContain('href=""');
    expect(lmx).not.toMatch(/View this email|Update your preferences|unsubscribe from this list/);
    expect(lmx).toContain('<Paragraph>You signed up at our shop.  or .</Paragraph>');
    expect(
      findings.remediation.filter((item) => item.outcome === 'dropped').map((item) => `${item.line}:${item.column} ${item.construct}: ${item.done}`),
    ).toEqual([
      '2:12 the link to *|ARCHIVE|*: dropped with its text "View this email in your browser"',
      '3:39 the link to *|UPDATE_PROFILE|*: dropped with its text "Update your preferences"',
      '3:99 the link to *|UNSUB|*: dropped with its text "unsubscribe from this list"',
    ]);
    expect(checkSource('draft.lmx', lmx, 'campaign', new Map()).errors).toEqual([]);
  });

  it('drops Campaign Monitor’s <unsubscribe>, <webversion> and [preferences] links with their text', () => {
    const { lmx, findings } = fromHtml(
      page(`<p><webversion>View it online</webversion></p><p>Thanks for reading.</p>
        <p><unsubscribe>Unsubscribe</unsubscribe> | <a href="[preferences]">Preferences</a></p>`),
    );
    expect(lmx).not.toMatch(/View it online|Unsubscribe|Preferences/);
    expect(findings.remediation.map((item) => item.construct)).toEqual(
      expect.arrayContaining(['the link to <webversion>', 'the link to <unsubscribe>', 'the link to [preferences]']),
    );
    expect(checkSource('draft.lmx', lmx, 'campaign', new Map()).errors).toEqual([]);
  });

  it('keeps the text of a link to an address computed when the app runs, listed', () => {
    const { lmx, findings } = fromHtml(
      page(
        `<p>Read <a href="{% url 'guide' %}">the guide</a> today.</p><p><a href="{% url 'home' %}"><img src="https://acme.example/logo.png" alt="Acme"></a></p>`,
      ),
    );
    expect(lmx).toContain('<Paragraph>Read the guide today.</Paragraph>');
    expect(lmx).not.toContain('href=""');
    expect(findings.remediation.filter((item) => item.outcome === 'kept as text').map((item) => item.construct)).toEqual([
      "a link to {% url 'guide' %}",
      "a link to {% url 'home' %}",
    ]);
    expect(checkSource('draft.lmx', lmx, 'transactional', new Map()).errors).toEqual([]);
  });

  it('lists an image over http://, and content check warns of it', () => {
    const { lmx, findings } = fromHtml(page('<p>Hello.</p><img src="http://acme.example/logo.png" alt="Acme">'));
    expect(findings.remediation.map((item) => `${item.construct}: ${item.done}`)).toContain(
      '<img src="http://acme.example/logo.png">: kept at its http:// address, which some mail clients do not load (content check warns of it)',
    );
    const check = checkSource('draft.lmx', lmx, 'transactional', new Map());
    expect(check.errors).toEqual([]);
    expect(check.warnings.map((warning) => warning.message)).toContain(
      'src="http://acme.example/logo.png" on <Image>: an image over http://, which some mail clients do not load',
    );
  });
});
