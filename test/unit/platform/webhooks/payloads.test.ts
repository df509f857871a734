/**
 * The webhook payload schemas (src/areas/webhooks/payloads.ts) against the published description's
 * `webhooks` section (in the contract it derives, test/contract): the same 17 event types, the same
 * fields, required the same way, of the same types; and what `webhooks trigger` builds fits the
 * description, whatever fields are set.
 */

import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { buildPayload } from '../../../../src/areas/webhooks/build.js';
import { examplePayload } from '../../../../src/platform/webhooks/examples.js';
import { payloadProblem, WEBHOOK_EVENT_NAMES, WEBHOOK_EVENTS, type WebhookEventName } from '../../../../src/platform/webhooks/payloads.js';
import { type OpenApi, publishedDescriptionAsWritten, type Schema, validate } from '../../../support/openapi.js';

const doc = publishedDescriptionAsWritten() as OpenApi & {
  webhooks: Record<string, { post: { requestBody: { content: { 'application/json': { schema: Schema } } } } }>;
};

/** Each webhook of the description by the eventName its payload carries. */
function describedEvents(): Map<string, { schema: Schema }> {
  const events = new Map<string, { schema: Schema }>();
  for (const entry of Object.values(doc.webhooks)) {
    const { schema } = entry.post.requestBody.content['application/json'];
    const merged = canonical(schema);
    events.set(String(merged.properties!.eventName!.const), { schema });
  }
  return events;
}

interface Canon {
  types: string[];
  const?: unknown;
  values?: unknown[];
  properties?: Record<string, Canon>;
  required?: string[];
  items?: Canon;
  /** Fields beyond the named ones: allowed (and of what shape), or not said. */
  additional?: Canon | 'any';
  [key: string]: any;
}

/** A JSON schema (the description's, or zod's as JSON Schema) reduced to what both can say: refs resolved, allOf merged, nullable as a type. */
function canonical(schema: Schema): Canon {
  if (schema.$ref !== undefined) return canonical(doc!.components.schemas[schema.$ref.replace('#/components/schemas/', '')]!);
  if (schema.allOf !== undefined) {
    const parts = (schema.allOf as Schema[]).map(canonical);
    return parts.reduce((merged, part) => ({
      // biome-ignore lint/performance/noAccumulatingSpread: a handful of parts, merged once per schema
      ...merged,
      ...part,
      properties: { ...merged.properties, ...part.properties },
      required: [...new Set([...(merged.required ?? []), ...(part.required ?? [])])].sort(),
    }));
  }
  if (schema.anyOf !== undefined) {
    const options = (schema.anyOf as Schema[]).map(canonical);
    const nonNull = options.find((option) => !option.types.includes('null'))!;
    return { ...nonNull, types: [...nonNull.types, 'null'].sort() };
  }
  const types = (Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type]).slice().sort();
  const result: Canon = { types };
  if (schema.const !== undefined) result.const = schema.const;
  if (schema.enum !== undefined) result.values = schema.enum.filter((value: unknown) => value !== null);
  if (schema.properties !== undefined) {
    result.properties = Object.fromEntries(Object.entries(schema.properties as Record<string, Schema>).map(([key, field]) => [key, canonical(field)]));
    result.required = [...(schema.required ?? [])].sort();
  }
  if (schema.items !== undefined) result.items = canonical(schema.items);
  if (schema.additionalProperties === true || (typeof schema.additionalProperties === 'object' && Object.keys(schema.additionalProperties).length === 0))
    result.additional = 'any';
  else if (typeof schema.additionalProperties === 'object') result.additional = canonical(schema.additionalProperties);
  return result;
}

/** Where ours says other than the description: different fields, requirements or types, or a value the description does not allow. */
function differences(ours: Canon, described: Canon, at: string): string[] {
  const found: string[] = [];
  if (!ours.types.every((type) => described.types.includes(type))) found.push(`${at}: type ${ours.types} where the description has ${described.types}`);
  const allowed = described.values ?? (described.const === undefined ? undefined : [described.const]);
  const given = ours.values ?? (ours.const === undefined ? undefined : [ours.const]);
  if (allowed !== undefined && (given === undefined || !given.every((value) => allowed.includes(value))))
    found.push(`${at}: values ${JSON.stringify(given)} where the description allows ${JSON.stringify(allowed)}`);
  if (described.properties !== undefined) {
    const mine = Object.keys(ours.properties ?? {}).sort();
    const theirs = Object.keys(described.properties).sort();
    if (JSON.stringify(mine) !== JSON.stringify(theirs)) found.push(`${at}: fields ${mine} where the description has ${theirs}`);
    if (JSON.stringify(ours.required) !== JSON.stringify(described.required))
      found.push(`${at}: requires ${ours.required} where the description requires ${described.required}`);
    for (const key of theirs)
      if (ours.properties?.[key] !== undefined) found.push(...differences(ours.properties[key], described.properties[key]!, `${at}.${key}`));
  }
  if (described.additional === 'any' && ours.additional !== 'any') found.push(`${at}: refuses fields the description allows`);
  if (typeof described.additional === 'object') {
    if (typeof ours.additional !== 'object') found.push(`${at}: no shape for further fields`);
    else found.push(...differences(ours.additional, described.additional, `${at}.*`));
  }
  if (described.items !== undefined)
    found.push(...(ours.items === undefined ? [`${at}: not an array of items`] : differences(ours.items, described.items, `${at}[]`)));
  return found;
}

describe('webhook payloads against the published description', () => {
  const described = describedEvents();

  it('names the same 17 event types', () => {
    expect(WEBHOOK_EVENT_NAMES).toHaveLength(17);
    expect([...WEBHOOK_EVENT_NAMES].sort()).toEqual([...described.keys()].sort());
    // The names without zod (event-names.ts) list the schemas' events in their order: `webhooks trigger --list`'s.
    expect(WEBHOOK_EVENT_NAMES).toEqual(Object.keys(WEBHOOK_EVENTS));
  });

  it.each(WEBHOOK_EVENT_NAMES)("%s: the schema has the description's fields, requirements and types", (name) => {
    const ours = canonical(z.toJSONSchema(WEBHOOK_EVENTS[name].schema, { io: 'input' }) as Schema);
    expect(differences(ours, canonical(described.get(name)!.schema), '$')).toEqual([]);
  });

  it.each(WEBHOOK_EVENT_NAMES)('%s: what trigger builds fits the description, with fresh ids and the current time', (name) => {
    const now = new Date('2026-11-23T02:00:00Z');
    const payload = buildPayload(name, now, {});
    expect(validate(doc!, described.get(name)!.schema, payload)).toEqual([]);
    expect(payloadProblem(name, payload)).toBeUndefined();
    expect(payload.eventTime).toBe(Math.floor(now.getTime() / 1000));
    const again = buildPayload(name, now, {});
    const identity = (value: Record<string, any>) => value.contactIdentity?.id;
    if (name !== 'testing.testEvent') expect(identity(again)).not.toBe(identity(payload));
  });

  it('builds each source of an email event with the id that source names', () => {
    const opened = buildPayload('email.opened', new Date(), { sourceType: 'loop' });
    expect(opened).toMatchObject({ sourceType: 'loop', loopId: expect.stringMatching(/^c[a-z0-9]{24}$/) });
    expect(opened).not.toHaveProperty('campaignId');
    const delivered = buildPayload('email.delivered', new Date(), { sourceType: 'transactional' });
    expect(validate(doc!, described.get('email.delivered')!.schema, delivered)).toEqual([]);
    expect(delivered).toHaveProperty('transactionalId');
  });

  it('sets fields by dotted path, the contact of contact.created named alike in both places', () => {
    const payload = buildPayload('contact.created', new Date(), {
      'contactIdentity.email': 'ada@example.com',
      'contact.plan': 'business',
      'contact.seats': 12,
    });
    expect(payload).toMatchObject({ contactIdentity: { email: 'ada@example.com' }, contact: { email: 'ada@example.com', plan: 'business', seats: 12 } });
    expect(validate(doc!, described.get('contact.created')!.schema, payload)).toEqual([]);
    const listed = buildPayload('campaign.email.sent', new Date(), { 'mailingLists.0.name': 'Beta testers' });
    expect((listed.mailingLists as { name: string }[])[0]!.name).toBe('Beta testers');
  });

  it.each<[WebhookEventName, Record<string, unknown>, RegExp]>([
    ['email.opened', { sourceType: 'transactional' }, /sourceType/],
    ['contact.created', { 'contact.optInStatus': 'pending' }, /contact\.optInStatus/],
    ['contact.deleted', { 'contactIdentity.emial': 'x@example.com' }, /contactIdentity: Unrecognized key/],
    ['transactional.email.sent', { eventTime: 'now' }, /eventTime/],
    ['testing.testEvent', { message: 'hello' }, /message/],
  ])('refuses a %s payload that does not fit its schema (%j)', (name, sets, problem) => {
    expect(() => buildPayload(name, new Date(), sets)).toThrow(problem);
    expect(() => buildPayload(name, new Date(), sets)).toThrow(/nothing was sent/);
  });

  it('makes realistic examples: the contact of contact.created is the one it identifies', () => {
    const payload = examplePayload('contact.created', new Date()) as Record<string, any>;
    expect(payload.contact.id).toBe(payload.contactIdentity.id);
    expect(payload.contact.email).toBe(payload.contactIdentity.email);
  });
});
