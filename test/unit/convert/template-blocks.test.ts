/**
 * The blocks of template languages in an email's text: each listed at its opening tag with what
 * convert kept of it (LMX has no loops or conditions), wherever it stands (between a list's items,
 * a table's rows); a `{{#with}}` gives the variables inside it their full paths.
 */
import { describe, expect, it } from 'vitest';
import { convertDocument } from '../../../src/convert/document.js';
import { measureFidelity } from '../../../src/convert/fidelity.js';
import { Findings } from '../../../src/convert/model.js';
import { readHtml } from '../../../src/convert/sources/html-source.js';
import { readMjml } from '../../../src/convert/sources/mjml-source.js';

const noIncludes = { readInclude: () => ({ file: '', source: '' }) };
const mjml = (text: string) => `<mjml><mj-body><mj-section><mj-column>\n${text}\n</mj-column></mj-section></mj-body></mjml>`;

function convertMjml(source: string) {
  const findings = new Findings();
  const document = readMjml(source, 'email.mjml', findings, noIncludes);
  const { lmx } = convertDocument(document, 'transactional', findings);
  return { lmx, findings, fidelity: measureFidelity(document, lmx, findings) };
}

function convertHtml(source: string) {
  const findings = new Findings();
  const document = readHtml(source, 'email.html', findings);
  const { lmx } = convertDocument(document, 'transactional', findings);
  return { lmx, findings, fidelity: measureFidelity(document, lmx, findings) };
}

const listed = (findings: Findings) => findings.remediation.map((item) => `${item.line}:${item.column} ${item.construct}: ${item.done}`);
const variables = (findings: Findings) => [...findings.variables.values()].map((item) => `${item.source} -> ${item.lmx}`);

describe('template blocks', () => {
  it('lists a loop around a table’s rows and conditions between a list’s items, each with the words it holds', () => {
    const { findings } = convertMjml(
      mjml(
        [
          '<mj-text><ul>',
          '{{#if company}}<li>{{ company }}</li>{{/if}}',
          '{{#unless city}}<li>No city given</li>{{else}}<li>{{ city }}</li>{{/unless}}',
          '</ul></mj-text>',
          '<mj-table>',
          '{{#each lines}}<tr><td>{{ quantity }} of {{ name }}</td></tr>{{/each}}',
          '<tr><td>Total</td></tr>',
          '</mj-table>',
        ].join('\n'),
      ),
    );
    expect(listed(findings).filter((line) => line.includes('{{'))).toEqual([
      '3:1 {{#if company}}: the condition dropped: its text (0 words, 1 variable) kept, shown whether or not the condition holds',
      '4:1 {{#unless city}}: the condition dropped: all 2 branches (3 words, 1 variable) kept, one after another',
      '7:1 {{#each lines}}: the loop dropped: its body (1 word, 2 variables) kept once, as written, for however many items are sent',
    ]);
  });

  it('lists Mustache’s sections, inverted sections and other block helpers, and never leaves their tags in the text', () => {
    const { lmx, findings } = convertHtml(
      '<p>{{#items}}Item {{name}}{{/items}}{{^items}}Nothing yet{{/items}} {{#link url}}here{{/link}}</p>\n<p>{{#if open}}Open',
    );
    expect(lmx).not.toMatch(/\{\{|\}\}/);
    expect(listed(findings)).toEqual([
      '1:4 {{#items}}: the section dropped: its text (1 word, 1 variable) kept once, where Mustache shows it once per item, or not at all for an empty value',
      '1:37 {{^items}}: the inverted section dropped: its text (2 words) kept, though it shows only where "items" is empty or false',
      '1:69 {{#link url}}: the block "link" dropped: its text (1 word) kept once, as written',
      '2:4 {{#if open}}: the condition dropped: its text (1 word) kept, shown whether or not the condition holds; it is never closed, so it was read to the end of the email',
    ]);
  });

  it('lists Liquid’s and Jinja’s loops and conditions across elements, once each', () => {
    const { findings } = convertHtml(
      '<div>{% for item in items %}<p>{{ item.title }}</p>{% endfor %}</div>\n<ul>{% if a %}<li>One</li>{% elsif b %}<li>Two</li>{% else %}<li>Three</li>{% endif %}</ul>',
    );
    expect(listed(findings).filter((line) => line.includes('{%'))).toEqual([
      '1:6 {% for item in items %}: the loop dropped: its body (0 words, 1 variable) kept once, as written, for however many items are sent',
      '2:5 {% if a %}: the condition dropped: all 3 branches (3 words) kept, one after another',
    ]);
  });

  it('says so where a loop’s tags stood between an HTML table’s rows, which a browser reads before the table, and names a loop’s {{else}}', () => {
    const { findings } = convertHtml(
      '<table>{{#each items}}<tr><td>Item {{name}}</td></tr>{{/each}}</table>\n<div>{{#each items}}<p>Item {{name}}</p>{{else}}<p>None yet</p>{{/each}}</div>',
    );
    expect(listed(findings).filter((line) => line.includes('{{#each'))).toEqual([
      expect.stringMatching(
        /^1:\d+ \{\{#each items\}\}: the loop dropped: its tags stood where HTML keeps no text \(between a table's rows\), so what it enclosed is not known; the rows around it are kept once$/,
      ),
      '2:6 {{#each items}}: the loop dropped: its body (3 words, 1 variable) kept once, as written, for however many items are sent, and the text for an empty list after it',
    ]);
  });

  it('names a variable inside {{#with}} by its full path, as other dotted paths are named, quoting the source', () => {
    const { lmx, findings } = convertHtml(
      [
        '<p>{{#with order.shippingAddress}}Shipping to {{ fullName }}, <a href="{{ this.mapUrl }}">map</a> of {{ ../order.code }}',
        '{{#with country as |land|}}{{ land.name }}{{/with}}{{#with zip}}{{this}}{{/with}}{{/with}}</p>',
        '<p>{{#each lines}}{{ quantity }} {{ ../currency }}{{/each}} {{ fullName }}</p>',
      ].join('\n'),
    );
    expect(lmx).toContain(
      'Shipping to {data.order_shippingAddress_fullName}, <Link href="{data.order_shippingAddress_mapUrl}">map</Link> of {data.order_code}',
    );
    expect(lmx).toContain('{data.order_shippingAddress_country_name}{data.order_shippingAddress_zip}');
    // Inside a loop a variable names an item's value, which has no path of its own: named as written.
    expect(lmx).toContain('{data.quantity} {data.currency} {data.fullName}');
    expect(variables(findings)).toEqual([
      '{{ fullName }} -> {data.order_shippingAddress_fullName}',
      '{{ this.mapUrl }} -> {data.order_shippingAddress_mapUrl}',
      '{{ ../order.code }} -> {data.order_code}',
      '{{ land.name }} -> {data.order_shippingAddress_country_name}',
      '{{this}} -> {data.order_shippingAddress_zip}',
      '{{ quantity }} -> {data.quantity}',
      '{{ ../currency }} -> {data.currency}',
      '{{ fullName }} -> {data.fullName}',
    ]);
    expect(listed(findings)[0]).toBe(
      '1:4 {{#with order.shippingAddress}}: the block dropped: its text (4 words, 4 variables) kept, each variable in it named by its full path (order.shippingAddress.…)',
    );
  });

  it('says of a {{#with}} between MJML’s elements that the variables inside keep the names written', () => {
    const { findings } = convertMjml(mjml('{{#with order}}<mj-text>Total {{ total }}</mj-text>{{/with}}'));
    expect(listed(findings)).toContain(
      '2:1 {{#with order}} between MJML elements: the block dropped: the elements inside written, their variables named as written, not by the block’s path',
    );
  });

  it('quotes an address that was not carried as the source writes it, its tags as written', () => {
    const { findings, fidelity } = convertMjml(
      mjml('<mj-table><tr><td><img alt="x" src="{{ featuredAsset.preview }}?w=50&h=50" /></td><td>One</td></tr></mj-table>'),
    );
    expect(fidelity.images).toEqual({ source: 1, kept: 0 });
    expect(listed(findings)).toContain('2:19 the image {{ featuredAsset.preview }}?w=50&h=50: the image is not in the LMX');
  });
});
