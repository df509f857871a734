/** Other template languages' variables as LMX's, by the kind of email (the LMX specification's namespace rules). */
import { describe, expect, it } from 'vitest';
import { Findings } from '../../../src/convert/model.js';
import { lmxVariable } from '../../../src/convert/variable-names.js';
import { templatePieces } from '../../../src/convert/variables.js';

const at = { file: 'welcome.html', line: 3, column: 5 };
const lmx = (path: string, kind: 'transactional' | 'campaign' | 'workflow', merge = false) => {
  const { namespace, name } = lmxVariable(path.split('.'), kind, merge);
  return `${namespace}.${name}`;
};

describe('lmxVariable', () => {
  it('gives a transactional email the send’s data only, names kept', () => {
    expect(['firstName', 'customer.first_name', 'order.total', 'event.plan', 'data.resetLink'].map((path) => lmx(path, 'transactional'))).toEqual([
      'data.firstName',
      'data.first_name',
      'data.order_total',
      'data.plan',
      'data.resetLink',
    ]);
    expect(lmx('FNAME', 'transactional', true)).toBe('data.firstName');
  });

  it('gives a campaign contact properties only, in camel case, the default ones by their names', () => {
    expect(['first_name', 'customer.last_name', 'user.email_address', 'company_name', 'event.plan'].map((path) => lmx(path, 'campaign'))).toEqual([
      'contact.firstName',
      'contact.lastName',
      'contact.email',
      'contact.companyName',
      'contact.plan',
    ]);
    expect(lmx('FNAME', 'campaign', true)).toBe('contact.firstName');
    expect(lmxVariable(['event', 'plan'], 'campaign').crossed).toContain('a campaign has no triggering event');
  });

  it('gives a workflow email the contact’s properties and the event’s', () => {
    expect(['customer.first_name', 'email', 'event.plan', 'plan_name', 'order.total'].map((path) => lmx(path, 'workflow'))).toEqual([
      'contact.firstName',
      'contact.email',
      'event.plan',
      'event.plan_name',
      'event.order_total',
    ]);
  });
});

describe('templatePieces', () => {
  const pieces = (text: string, kind: 'transactional' | 'campaign' | 'workflow' = 'transactional') => {
    const findings = new Findings();
    return { pieces: templatePieces(text, at, kind, findings), findings };
  };

  it('reads Handlebars, Liquid and Mailchimp variables, with the place of each tag', () => {
    const { pieces: read, findings } = pieces('Hi {{name}}, {{{ link }}} and *|FNAME|*\n{{ total | money }}', 'campaign');
    expect(read).toEqual([
      { text: 'Hi ' },
      { variable: 'contact.name' },
      { text: ', ' },
      { variable: 'contact.link' },
      { text: ' and ' },
      { variable: 'contact.firstName' },
      { text: '\n' },
      { variable: 'contact.total' },
    ]);
    expect(findings.remediation.map((item) => `${item.line}:${item.column} ${item.construct} ${item.outcome}`)).toEqual(['4:1 {{ total | money }} dropped']);
    expect([...findings.variables.values()].map((variable) => `${variable.source} ${variable.lmx}`)).toEqual([
      '{{name}} {contact.name}',
      '{{{ link }}} {contact.link}',
      '*|FNAME|* {contact.firstName}',
      '{{ total | money }} {contact.total}',
    ]);
  });

  it('drops logic with its text kept, lists it once, and makes a default the fallback', () => {
    const { pieces: read, findings } = pieces('{% if paid %}Paid{% else %}Due{% endif %} {{ name | default: "friend" }}');
    // The branches kept apart by a space, as two sentences.
    expect(read).toEqual([{ text: 'Paid' }, { text: ' ' }, { text: 'Due' }, { text: ' ' }, { variable: 'data.name' }]);
    expect(pieces('*|IF:PAID|*Paid.*|ELSE:|*Due.*|END:IF|*').pieces).toEqual([{ text: 'Paid.' }, { text: ' ' }, { text: 'Due.' }]);
    expect(pieces('{{#if paid}}Paid. {{else}}Due.{{/if}}').pieces).toEqual([{ text: 'Paid. ' }, { text: 'Due.' }]);
    expect(findings.remediation.map((item) => `${item.column} ${item.outcome}`)).toEqual(['5 flattened', '47 approximated']);
    expect(findings.fallbacks.data).toEqual({ name: 'friend' });
  });

  it('reads a helper that gives a variable a default, and a quoted default after a bar, as the variable and its fallback', () => {
    // SendGrid's dynamic templates: `{{insert name "default=Customer"}}` shows the name, or Customer where none is sent.
    const { pieces: read, findings } = pieces('Hi {{insert name "default=Customer"}}, {{insert code}}; {{default title "No title"}} {{ city | "Lisbon" }}');
    expect(read).toEqual([
      { text: 'Hi ' },
      { variable: 'data.name' },
      { text: ', ' },
      { variable: 'data.code' },
      { text: '; ' },
      { variable: 'data.title' },
      { text: ' ' },
      { variable: 'data.city' },
    ]);
    expect(findings.fallbacks.data).toEqual({ name: 'Customer', title: 'No title', city: 'Lisbon' });
    expect(findings.remediation.map((item) => `${item.column} ${item.construct}`)).toEqual([
      '8 {{insert name "default=Customer"}}',
      '61 {{default title "No title"}}',
      '90 {{ city | "Lisbon" }}',
    ]);
  });

  it('keeps what it cannot read as written, and drops the platform’s own merge tags', () => {
    const { pieces: read, findings } = pieces('{{> footer}} {{formatDate date "long"}} [[HEADLINE]] *|UNSUB|*');
    expect(read).toEqual([
      { text: '{{> footer}}' },
      { text: ' ' },
      { text: '{{formatDate date "long"}}' },
      { text: ' ' },
      { text: '[[HEADLINE]]' },
      { text: ' ' },
    ]);
    expect(findings.remediation.map((item) => item.outcome)).toEqual(['kept as text', 'kept as text', 'kept as text', 'dropped']);
  });
});
