/** The sandbox's contact properties: the standard ones every account has, and custom ones of each type. */
import { z } from '../../base/shapes.js';
import * as s from '../../platform/contact-properties/schemas.js';
import { PROPERTY_NAME, RESERVED_PROPERTY_NAMES } from '../../platform/contact-properties/typing.js';
import { answer, badRequest, fixedAnswer, flaggedFailures, lazily, objectBody, type RouteContext, type SandboxModule, slice, stringField } from '../module.js';

const STANDARD: s.ContactProperty[] = [
  { key: 'firstName', label: 'First Name', type: 'string' },
  { key: 'lastName', label: 'Last Name', type: 'string' },
  { key: 'email', label: 'Email', type: 'string' },
  { key: 'notes', label: 'Notes', type: 'string' },
  { key: 'source', label: 'Source', type: 'string' },
  { key: 'subscribed', label: 'Subscribed', type: 'boolean' },
  { key: 'userGroup', label: 'User Group', type: 'string' },
  { key: 'userId', label: 'User Id', type: 'string' },
];

const seedCustom = lazily((): s.ContactProperty[] => [
  { key: 'plan', label: 'Plan', type: 'string' },
  { key: 'region', label: 'Region', type: 'string' },
  { key: 'seats', label: 'Seats', type: 'number' },
  { key: 'betaOptIn', label: 'Beta Opt In', type: 'boolean' },
  { key: 'trialEndsAt', label: 'Trial Ends At', type: 'date' },
  // What the seed's segments and workflow filters select by.
  { key: 'projectsCreated', label: 'Projects Created', type: 'number' },
  { key: 'lastSignInAt', label: 'Last Sign In At', type: 'date' },
  { key: 'signedUpAt', label: 'Signed Up At', type: 'date' },
]);

export const customProperties = slice('contactProperties', z.array(s.contactProperty), seedCustom);

/** Every property of the account, standard ones first. */
export function allProperties(state: RouteContext['state']): s.ContactProperty[] {
  return [...STANDARD, ...customProperties.of(state)];
}

/** The type of the account's property `key`, as a trigger query's rules read it: undefined when the account has no such property. */
export function propertyTypeOf(state: RouteContext['state'], key: string): s.PropertyType | 'unknown' | undefined {
  const type = allProperties(state).find((property) => property.key === key)?.type;
  return type === undefined ? undefined : (s.PROPERTY_TYPES as readonly string[]).includes(type) ? (type as s.PropertyType) : 'unknown';
}

/** camelCase to words: "trialEndsAt" is labelled "Trial Ends At". */
function labelFor(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Every property created is answered alike. */
const propertyCreated = fixedAnswer(s.propertyCreated, { success: true });

function create(context: RouteContext) {
  const fields = objectBody(context.body, ['name', 'type'], ['name', 'type']);
  const name = stringField(fields, 'name');
  const type = stringField(fields, 'type');
  if (!(s.PROPERTY_TYPES as readonly string[]).includes(type)) throw badRequest(`Invalid type "${type}": use one of ${s.PROPERTY_TYPES.join(', ')}.`);
  if (!PROPERTY_NAME.test(name)) throw badRequest(`Invalid name "${name}": use camelCase, like planName.`);
  if (RESERVED_PROPERTY_NAMES.has(name)) throw badRequest(`"${name}" is a reserved name.`);
  const custom = customProperties.of(context.state);
  if (custom.some((property) => property.key === name)) throw badRequest('Property already exists.');
  custom.push({ key: name, label: labelFor(name), type });
  context.changed();
  return propertyCreated();
}

export const sandbox: SandboxModule = {
  slices: [customProperties],
  routes: [
    {
      operation: 'listContactProperties',
      run: ({ query, state }) => answer(s.contactProperties, query.get('list') === 'custom' ? customProperties.of(state) : allProperties(state)),
    },
    { operation: 'createContactProperty', failures: flaggedFailures, run: create },
  ],
};
