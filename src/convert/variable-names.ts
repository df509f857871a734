/**
 * The variables of other template languages named as LMX's, by the kind of email they are the body
 * of (a path from Handlebars, Liquid, a merge tag or a React prop). LMX has one namespace per source
 * of values (the specification's "Email-type rules"): a transactional email takes `{data.*}` only, a
 * campaign `{contact.*}` only, a workflow email `{contact.*}` and `{event.*}`.
 */
import { camelCaseName, DEFAULT_PROPERTY_NAMES } from '../platform/contact-properties/typing.js';
import type { ConvertKind, Findings, Place } from './model.js';

export type Namespace = 'contact' | 'event' | 'data';

/** The first segment of a path that names the person an email goes to. */
const PERSON_ROOTS = new Set(['customer', 'contact', 'user', 'subscriber', 'recipient', 'person', 'member', 'profile']);

/** Names other providers give the default contact properties (the specification lists them). */
const CONTACT_ALIASES: Record<string, string> = {
  fname: 'firstName',
  first_name: 'firstName',
  firstname: 'firstName',
  lname: 'lastName',
  last_name: 'lastName',
  lastname: 'lastName',
  email: 'email',
  email_address: 'email',
  emailaddress: 'email',
  user_id: 'userId',
  userid: 'userId',
  user_group: 'userGroup',
  usergroup: 'userGroup',
  source: 'source',
  notes: 'notes',
  created_at: 'createdAt',
  createdat: 'createdAt',
};

/** `company_name` -> `companyName`: contact properties are written in camel case. */
function camelCase(name: string): string {
  return CONTACT_ALIASES[name.toLowerCase()] ?? (camelCaseName(name.replace(/[^A-Za-z0-9]+/g, ' ')) || 'value');
}

/** A name a data variable may have: letters, numbers, underscores and dashes (the specification's rule). */
function dataName(segments: string[]): string {
  return segments.join('_').replace(/[^A-Za-z0-9_-]+/g, '_') || 'value';
}

/**
 * The LMX variable a source's path becomes in an email of this kind, and why. `merge` says the
 * path is a Mailchimp merge tag, which always names a contact property.
 */
export function lmxVariable(path: string[], kind: ConvertKind, merge = false): { namespace: Namespace; name: string; reason: string; crossed?: string } {
  const [first = '', ...rest] = path;
  const root = first.toLowerCase();
  const person = merge || (PERSON_ROOTS.has(root) && rest.length > 0);
  const fromEvent = root === 'event' && rest.length > 0;
  const named = person || fromEvent || root === 'data' ? (merge ? path : rest) : path;
  if (kind === 'transactional') {
    return {
      namespace: 'data',
      name: merge ? camelCase(path[0]!) : dataName(named),
      reason: 'a transactional email takes the values of its send (dataVariables) only',
    };
  }
  if (kind === 'campaign') {
    const crossed = fromEvent ? 'a campaign has no triggering event: the value must be a contact property' : undefined;
    return { namespace: 'contact', name: camelCase(named.join('_')), reason: 'a campaign takes contact properties only', crossed };
  }
  const contactName = camelCase(named.join('_'));
  if (person || (!fromEvent && root !== 'data' && DEFAULT_PROPERTY_NAMES.has(contactName) && path.length === 1))
    return { namespace: 'contact', name: contactName, reason: 'a property of the contact' };
  return { namespace: 'event', name: dataName(named), reason: 'a property of the event that triggers the workflow' };
}

/** Records a variable in the findings and returns its LMX form (`data.resetLink`). */
export function mapVariable(findings: Findings, path: string[], source: string, kind: ConvertKind, at: Place, merge = false): string {
  const { namespace, name, reason, crossed } = lmxVariable(path, kind, merge);
  const lmx = `${namespace}.${name}`;
  // One line per LMX variable, with the first way the source wrote it.
  if (!findings.variables.has(lmx)) {
    findings.variables.set(lmx, { source: findings.spellings.get(source) ?? source, lmx: `{${lmx}}`, reason });
    const fallback = findings.defaults.get(path.join('.'));
    if (fallback !== undefined) {
      findings.fallbacks[namespace][name] = fallback.value;
      findings.add(
        fallback.at,
        `the default ${path.join('.')} = ${JSON.stringify(fallback.value)}`,
        'approximated',
        `made the message's fallback for {${lmx}}`,
        namespace === 'data' ? 'send the value with every send: Loops requires each data variable an email uses' : 'check the fallback in the message fields',
      );
    }
  }
  if (crossed !== undefined) findings.add(at, source, 'approximated', `written as {${lmx}}`, crossed);
  return lmx;
}
