/**
 * The sandbox's audience: contacts with their custom properties and list memberships, and the
 * suppression list with its removal quota. Create refuses a duplicate (409), update is an upsert,
 * and events (src/emulator/routes/events.ts) find or create contacts through `upsertContact`.
 */
import { EMAIL_ADDRESS } from '../../base/email.js';
import { madeOnUse, z } from '../../base/shapes.js';
import type { ContactProperty } from '../../platform/contact-properties/schemas.js';
import { isStandardField, typeProblem } from '../../platform/contact-properties/typing.js';
import * as s from '../../platform/contacts/schemas.js';
import { discardJourneys, journeysOf } from '../journey-records.js';
import { ApiFailure, answer, badRequest, conflict, flaggedFailures, later, notFound, type RouteContext, type SandboxModule, slice } from '../module.js';
import { blankContact, type ContactTable, contactCopy, contacts, contactTable, type StoredContact } from './contact-records.js';
import { journeyEngine } from './journey-starts.js';

// The journeys' engine and the webhooks' routes (with what they reach: workflows, segments, email
// messages) serve the writes alone: a contact's look-up, the commonest request, loads neither.
const webhookReports = later(() => import('./webhooks.js'));
// Nor the custom properties and mailing lists that a write's fields are checked against (their
// route modules, with their areas' schemas in bundles of their own).
const propertyRecords = later(() => import('./contact-properties.js'));
const listRecords = later(() => import('./lists.js'));

/** What an operation that creates, changes or deletes contacts (through upsertContact too) lists in `uses`. */
export const CONTACT_WRITES = [journeyEngine, webhookReports, propertyRecords, listRecords];

// Made when the quota is first read: a find makes no number schema but this one.
const quota = madeOnUse(() => z.object({ limit: z.number(), remaining: z.number() }));
export const suppressionQuota = slice('suppressionQuota', quota, () => ({ limit: 5, remaining: 4 }));

/** The contact as find shows it: the stored fields, with the custom properties at the top level. */
function shown(contact: StoredContact): s.Contact {
  const { properties, suppressed: _suppressed, createdAt: _createdAt, ...fields } = contact;
  return { ...fields, ...properties };
}

const sameEmail = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export function checkEmail(email: string): void {
  if (!EMAIL_ADDRESS.test(email)) throw badRequest('Invalid email address.');
}

/** Exactly one of email and userId, from the query or the body. */
function oneRef(source: { email?: unknown; userId?: unknown }): { email: string } | { userId: string } {
  const hasEmail = source.email !== undefined && source.email !== null;
  const hasUserId = source.userId !== undefined && source.userId !== null;
  if (hasEmail === hasUserId) throw badRequest('Provide either an email or a userId, not both.');
  if (hasEmail) {
    if (typeof source.email !== 'string') throw badRequest('email must be a string.');
    checkEmail(source.email);
    return { email: source.email };
  }
  if (typeof source.userId !== 'string' || source.userId === '') throw badRequest('userId must be a non-empty string.');
  return { userId: source.userId };
}

function queryRef(query: URLSearchParams) {
  return oneRef({ email: query.get('email') ?? undefined, userId: query.get('userId') ?? undefined });
}

function mustFind(all: ContactTable, ref: { email: string } | { userId: string }): StoredContact {
  const found = all.find(ref);
  if (found === undefined) throw notFound('Contact not found.');
  return found;
}

function bodyObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('The request body must be a JSON object.');
  return body as Record<string, unknown>;
}

/**
 * The text fields of a contact, and what null resets each to. The description types them as strings,
 * but the platform's SDKs send null to reset a property (their ContactProperties allow it), as
 * custom properties are reset: first and last names become null, as a contact made from an email
 * alone has them, and the source and user group (never null in an answer) become empty.
 */
const RESETS: Record<string, string | null> = { firstName: null, lastName: null, source: '', userGroup: '' };

/**
 * Checks and applies contact fields (standard ones, mailingLists, custom properties) to a contact;
 * every field is checked before any is applied, so a refused request changes nothing.
 */
export function applyContactFields(context: RouteContext, contact: StoredContact, fields: Record<string, unknown>, skip: string[] = []): void {
  const { state } = context;
  // The team's properties by key, made only for a request that sets one.
  let types: Map<string, ContactProperty> | undefined;
  const typesOf = () =>
    (types ??= new Map(
      propertyRecords
        .get()
        .customProperties.of(state)
        .map((property) => [property.key, property]),
    ));
  const entries = Object.entries(fields).filter(([key]) => !skip.includes(key) && key !== 'email' && key !== 'userId');
  for (const [key, value] of entries) {
    if (Object.hasOwn(RESETS, key)) {
      if (typeof value !== 'string' && value !== null) throw badRequest(`${key} must be a string, or null to reset it.`);
    } else if (key === 'subscribed') {
      if (typeof value !== 'boolean') throw badRequest('subscribed must be a boolean.');
    } else if (key === 'mailingLists') {
      checkMailingLists(state, value);
    } else {
      const problem = isStandardField(key) ? `${key} cannot be set here.` : typeProblem(typesOf(), key, value);
      if (problem !== undefined) throw badRequest(problem);
    }
  }
  for (const [key, value] of entries) {
    if (key === 'mailingLists') {
      for (const [id, on] of Object.entries(value as Record<string, boolean>)) {
        if (on) contact.mailingLists[id] = true;
        else delete contact.mailingLists[id];
      }
    } else if (Object.hasOwn(RESETS, key)) {
      (contact as Record<string, unknown>)[key] = value ?? RESETS[key];
    } else if (key === 'subscribed') {
      (contact as Record<string, unknown>)[key] = value;
    } else {
      contact.properties[key] = value as z.infer<typeof s.propertyValue>;
    }
  }
}

function checkMailingLists(state: RouteContext['state'], value: unknown): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badRequest('mailingLists must be an object of list ids and booleans.');
  const { mailingLists } = listRecords.get();
  const known = new Set(mailingLists.of(state).map((list) => list.id));
  for (const [id, on] of Object.entries(value)) {
    if (typeof on !== 'boolean') throw badRequest(`mailingLists.${id} must be true or false.`);
    if (!known.has(id)) throw badRequest(`Mailing list ${id} does not exist.`);
  }
}

function newContact(context: RouteContext, email: string, userId: string | null): StoredContact {
  checkEmail(email);
  const contact = blankContact(context.newId(), email, context.now().toISOString());
  contact.userId = userId;
  return contact;
}

function optionalString(fields: Record<string, unknown>, key: string): string | undefined {
  const value = fields[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw badRequest(`${key} must be a non-empty string.`);
  return value;
}

function create(context: RouteContext) {
  const fields = bodyObject(context.body);
  const email = optionalString(fields, 'email');
  if (email === undefined) throw badRequest('email is required.');
  const userId = optionalString(fields, 'userId') ?? null;
  const all = contactTable(context.state);
  if (all.find({ email }) !== undefined || (userId !== null && all.find({ userId }) !== undefined)) throw conflict('Email or userId already exists.');
  const contact = newContact(context, email, userId);
  applyContactFields(context, contact, fields);
  all.add(contact);
  // A new contact signs up: the workflows that start on sign-up (or on its lists) begin its journeys.
  journeyEngine.get().startJourneys(context, contact, { causes: webhookReports.get().reportContactChange(context, undefined, contact) });
  context.changed();
  return answer(s.contactSaved, { success: true, id: contact.id });
}

/**
 * Finds the contact by email or userId (either may match) and updates it, or creates it with both.
 * Events use this too: sending an event for an unknown contact creates one.
 */
export function upsertContact(context: RouteContext, fields: Record<string, unknown>, skip: string[] = []): StoredContact {
  const email = optionalString(fields, 'email');
  const userId = optionalString(fields, 'userId');
  if (email === undefined && userId === undefined) throw badRequest('Provide an email or a userId.');
  const all = contactTable(context.state);
  const found = (userId === undefined ? undefined : all.find({ userId })) ?? (email === undefined ? undefined : all.find({ email }));
  if (found === undefined) {
    if (email === undefined) throw badRequest('No contact has this userId; an email is needed to create one.');
    const contact = newContact(context, email, userId ?? null);
    applyContactFields(context, contact, fields, skip);
    all.add(contact);
    journeyEngine.get().startJourneys(context, contact, { causes: webhookReports.get().reportContactChange(context, undefined, contact) });
    return contact;
  }
  const before = contactCopy(found);
  if (email !== undefined && !sameEmail(found.email, email)) {
    checkEmail(email);
    const other = all.find({ email });
    if (other !== undefined && other !== found) throw conflict('Another contact has this email address.');
  }
  if (userId !== undefined && found.userId !== userId && all.find({ userId }) !== undefined) throw conflict('Another contact has this userId.');
  applyContactFields(context, found, fields, skip);
  if (email !== undefined) found.email = email;
  if (userId !== undefined) found.userId = userId;
  all.reindex(found, before);
  journeyEngine.get().startJourneys(context, found, { causes: webhookReports.get().reportContactChange(context, before, found) });
  return found;
}

function update(context: RouteContext) {
  const contact = upsertContact(context, bodyObject(context.body));
  context.changed();
  return answer(s.contactSaved, { success: true, id: contact.id });
}

function remove(context: RouteContext) {
  const ref = oneRef(bodyObject(context.body));
  const all = contactTable(context.state);
  const contact = mustFind(all, ref);
  all.remove(contact);
  // A deleted contact leaves every workflow it was in: no node holds it, and no queued count includes it.
  const waiting = journeysOf(context.state, contact.id).filter((journey) => journey.status === 'waiting');
  discardJourneys(context.state, waiting, context.now().toISOString(), 'ended: the contact was deleted');
  webhookReports.get().reportContactDeleted(context, contact);
  context.changed();
  return answer(s.contactDeleted, { success: true, message: 'Contact deleted.' });
}

function suppressionAnswer(context: RouteContext) {
  const contact = mustFind(contactTable(context.state), queryRef(context.query));
  return answer(s.suppressionStatus, {
    contact: { id: contact.id, email: contact.email, userId: contact.userId },
    isSuppressed: contact.suppressed,
    removalQuota: suppressionQuota.of(context.state),
  });
}

function removeSuppression(context: RouteContext) {
  const contact = mustFind(contactTable(context.state), queryRef(context.query));
  if (!contact.suppressed) throw badRequest('Contact is not suppressed.');
  const removals = suppressionQuota.of(context.state);
  if (removals.remaining <= 0) throw new ApiFailure(400, `The removal quota (${removals.limit} in 30 days) is used up.`);
  contact.suppressed = false;
  removals.remaining -= 1;
  context.changed();
  return answer(s.suppressionRemoved, { success: true, message: 'Email removed from suppression list.', removalQuota: removals });
}

export const sandbox: SandboxModule = {
  slices: [contacts, suppressionQuota],
  routes: [
    { operation: 'findContact', failures: flaggedFailures, run: (context) => answer(s.contacts, lookupAll(context)) },
    { operation: 'createContact', failures: flaggedFailures, uses: CONTACT_WRITES, run: create },
    { operation: 'updateContact', failures: flaggedFailures, uses: CONTACT_WRITES, run: update },
    { operation: 'deleteContact', failures: flaggedFailures, uses: CONTACT_WRITES, run: remove },
    { operation: 'getContactSuppression', failures: flaggedFailures, run: suppressionAnswer },
    { operation: 'removeContactSuppression', failures: flaggedFailures, run: removeSuppression },
  ],
};

function lookupAll(context: RouteContext): s.Contact[] {
  const found = contactTable(context.state).find(queryRef(context.query));
  return found === undefined ? [] : [shown(found)];
}
