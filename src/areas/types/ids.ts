/**
 * The records an app's types name, each with a key that is the same in every account: a
 * transactional email's is its directory's name in the content tree where a tree is at hand, else
 * its name's slug; a list's and an event's their names' slugs, a property's its key's. Records whose
 * keys meet are told apart by what names them in every account (`nameDigest`), and a key the file
 * written before gives a record stays its (an app imports it).
 */
import { createHash } from 'node:crypto';
import type { ConstantName } from '../../platform/record-kinds.js';
import { dataVariableVerdict } from '../../platform/transactional/data-variables.js';
import { slugOf } from '../../platform/words.js';
import { compare, quote, type TypesInput, uniqueKeys } from './generate.js';

/**
 * Whether the file written before (the one --out names) names the record of this kind whose
 * constant holds this value (an email's or a list's id, an event's or a property's name) by this
 * key: an app imports that name, so the record keeps it.
 */
export type HeldKey = (kind: ConstantName, key: string, value: string) => boolean;

export interface Keyed {
  /** The record's key: its tree directory's name or slug, with its id when another record's is the same. */
  key: string;
  id: string;
  /** The record as a person knows it, for a message that must name it: `transactional email "Welcome" (c1…)`. */
  label: string;
}

/** A name (an event's, a property's) by key, with what its language needs of it. */
interface Named extends Keyed {
  /** The name itself: the value of its constant. */
  name: string;
}

/** The transactional emails an app can send, the mailing lists, the events and the contact properties, each with a key. */
export interface Ids {
  transactional: (Keyed & { dataVariables: string[]; optionalDataVariables: string[] })[];
  lists: Keyed[];
  events: (Named & { properties: [string, string][] })[];
  contactProperties: (Named & { type: string })[];
}

/** Each transactional email's key from the content tree, by its id in any account the tree was pulled from or pushed to. */
export type TreeKeys = ReadonlyMap<string, string>;

const SLUG_PARTS = { withId: (key: string, id: string) => `${key}--${id}`, numbered: (key: string, number: number) => `${key}--${number}` };

/**
 * What tells apart records whose keys meet, the same in every account: a list and an event are the
 * same record in every account by their names (a push matches lists by name; an app sends an
 * event by it), so a short digest of the exact name (`trial-started--4b1c0e2a`), where their ids
 * would differ from account to account. A transactional email is matched by nothing but its id
 * outside the tree (two may have one name): its id, which a directory of the tree replaces.
 */
export const nameDigest = (name: string) => createHash('sha256').update(name).digest('hex').slice(0, 8);

/** How the records of a kind are keyed: the key they start from, their id, words for a message, what tells apart those whose keys meet, and their constants' value. */
interface Keying<T> {
  name: (record: T) => string;
  id: (record: T) => string;
  label: (record: T) => string;
  apart?: (record: T) => string;
  value: (record: T) => string;
}

function keyed<T>(kind: ConstantName, records: readonly T[], keying: Keying<T>, held: HeldKey | undefined): (Keyed & { record: T })[] {
  const { name, id, label, apart = id, value } = keying;
  const keys = uniqueKeys(records, name, apart, SLUG_PARTS, held && ((record, key) => held(kind, key, value(record))));
  return records.map((record, index) => ({ key: keys[index]!, id: id(record), label: label(record), record })).sort((a, b) => compare(a.key, b.key));
}

/** A property key's words apart before it is slugged: `firstName` → `first-name`. */
const keySlug = (key: string) => slugOf(key.replace(/([a-z0-9])([A-Z])/g, '$1 $2'));
const VALUE_TYPES = new Set(['string', 'number', 'boolean', 'date']);

/** Each record with its key; `held` keeps the keys the file written before gives them. */
export function idsOf(input: TypesInput, tree: TreeKeys, held?: HeldKey): Ids {
  const published = input.transactional.filter((email) => email.publishedEmailMessageId !== null);
  return {
    transactional: keyed(
      'TX',
      published,
      {
        name: (email) => tree.get(email.id) ?? slugOf(email.name),
        id: (email) => email.id,
        label: (email) => `transactional email ${quote(email.name)} (${email.id})`,
        value: (email) => email.id,
      },
      held,
    ).map(({ key, id, label, record }) => ({
      key,
      id,
      label,
      dataVariables: [...record.dataVariables].sort(compare),
      optionalDataVariables: dataVariableVerdict(record.dataVariables, { fallbacks: input.dataVariablesFallbacks[record.id] }).optional.sort(compare),
    })),
    lists: keyed(
      'LIST',
      input.mailingLists,
      {
        name: (list) => slugOf(list.name),
        id: (list) => list.id,
        label: (list) => `mailing list ${quote(list.name)} (${list.id})`,
        apart: (list) => nameDigest(list.name),
        value: (list) => list.id,
      },
      held,
    ).map(({ key, id, label }) => ({ key, id, label })),
    events: keyed(
      'EVENT',
      input.eventPatterns,
      {
        name: (pattern) => slugOf(pattern.eventName),
        id: (pattern) => pattern.id,
        label: (pattern) => `event ${quote(pattern.eventName)}`,
        apart: (pattern) => nameDigest(pattern.eventName),
        value: (pattern) => pattern.eventName,
      },
      held,
    ).map(({ key, id, label, record }) => ({
      key,
      id,
      label,
      name: record.eventName,
      properties: record.eventProperties
        .map((property): [string, string] => [property.name, VALUE_TYPES.has(property.type) ? property.type : 'string'])
        .sort(([a], [b]) => compare(a, b)),
    })),
    contactProperties: keyed(
      'CONTACT_PROPERTY',
      input.contactProperties,
      {
        name: (property) => keySlug(property.key),
        id: (property) => property.key,
        label: (property) => `contact property ${quote(property.key)}`,
        value: (property) => property.key,
      },
      held,
    ).map(({ key, id, label, record }) => ({ key, id, label, name: record.key, type: VALUE_TYPES.has(record.type) ? record.type : 'string' })),
  };
}
