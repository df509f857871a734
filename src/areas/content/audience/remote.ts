/**
 * The account's side of the audience half of a tree: its segments, groups, custom contact
 * properties, mailing lists and event patterns, read side by side and turned into the files a
 * pull writes; and the writes the API has for them (create a segment, a group, a property; update
 * a group), nothing more.
 */
import { type ApiClient, everyItem } from '../../../api/client.js';
import { CAMPAIGN_GROUP } from '../../../platform/campaign-groups/resource.js';
import type { ContactProperty, PropertyType } from '../../../platform/contact-properties/schemas.js';
import { type Group, group } from '../../../platform/groups/schemas.js';
import type { AudienceFilterRequest } from '../../../platform/segments/filter.js';
import type { AudienceSegment } from '../../../platform/segments/schemas.js';
import { recordRow } from '../../../platform/whole-rows.js';
import { createContactProperty, listContactProperties } from '../../contact-properties/client.js';
import { eventPatterns } from '../../event-patterns/client.js';
import { listMailingLists } from '../../lists/client.js';
import { recordClient } from '../../records/client.js';
import { createSegment, segments } from '../../segments/client.js';
import { transactionalGroups } from '../../transactional/groups.js';
import { type AudienceRecord, audienceJson, audiencePath, type DirectoryKind, RECORD_FILE, SINGLE_FILE } from './files.js';

/** The campaign groups' operations, made from their row (platform/campaign-groups/resource.ts). */
const campaignGroups = recordClient(recordRow(CAMPAIGN_GROUP), group);

/** A record as the account holds it: its files, and its id (the single files have none; lists and patterns keep theirs by name). */
export interface RemoteAudience extends AudienceRecord {
  id?: string;
  /** For lists.json and event-patterns.json: each one's id by its name. */
  ids?: Record<string, string>;
  /** For contact-properties.json: the custom properties, by key. */
  properties?: Map<string, ContactProperty>;
}

/** A segment's file: its name, description and filter, as the API gives them. */
export function segmentFile(segment: Pick<AudienceSegment, 'name' | 'description' | 'filter'>): string {
  return audienceJson({ name: segment.name, description: segment.description, filter: segment.filter });
}

/**
 * A group's file: its fields as the API gives them, but for its id and times (the state keeps the
 * id), and an empty description left out, as a file written by hand leaves it: the API gives a
 * group created without one an empty one, which would otherwise differ from that file at every push.
 */
export function groupFile(group: Group): string {
  const { id: _id, createdAt: _created, updatedAt: _updated, description, ...fields } = group;
  return audienceJson(description === '' || description === null || description === undefined ? fields : { ...fields, description });
}

/** contact-properties.json: each custom property (key, label, type), by key, so a second pull writes the same file. */
export function propertiesFile(properties: readonly ContactProperty[]): string {
  const sorted = [...properties].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return audienceJson(sorted.map(({ key, label, type }) => ({ key, label, type })));
}

function directoryRecord(kind: DirectoryKind, record: { id: string; name: string }, text: string): RemoteAudience {
  return { kind, id: record.id, name: record.name, path: audiencePath(kind, record.name, record.id), files: new Map([[RECORD_FILE[kind], text]]) };
}

function singleRecord(kind: keyof typeof SINGLE_FILE, text: string, extra: Partial<RemoteAudience> = {}): RemoteAudience {
  const file = SINGLE_FILE[kind];
  return { kind, name: file, path: file, files: new Map([[file, text]]), ...extra };
}

const byName = <T extends { name: string }>(items: T[]) => [...items].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

/** Every audience record of the account, read side by side (six list calls). */
export async function fetchAudience(api: ApiClient): Promise<RemoteAudience[]> {
  const [segmentList, transactional, campaign, properties, lists, patterns] = await Promise.all([
    everyItem(api, segments),
    everyItem(api, transactionalGroups.list),
    everyItem(api, campaignGroups.list),
    listContactProperties(api, 'custom'),
    listMailingLists(api),
    everyItem(api, eventPatterns),
  ]);
  const events = [...patterns].sort((a, b) => (a.eventName < b.eventName ? -1 : a.eventName > b.eventName ? 1 : 0));
  return [
    singleRecord('contact-properties', propertiesFile(properties), { properties: new Map(properties.map((property) => [property.key, property])) }),
    ...segmentList.map((segment) => directoryRecord('segments', segment, segmentFile(segment))),
    ...transactional.map((group) => directoryRecord('groups/transactional', group, groupFile(group))),
    ...campaign.map((group) => directoryRecord('groups/campaigns', group, groupFile(group))),
    singleRecord('lists', audienceJson(byName(lists).map(({ id: _id, ...fields }) => fields)), {
      ids: Object.fromEntries(lists.map((list) => [list.name, list.id])),
    }),
    singleRecord('event-patterns', audienceJson(events.map(({ id: _id, ...fields }) => fields)), {
      ids: Object.fromEntries(events.map((pattern) => [pattern.eventName, pattern.id])),
    }),
  ];
}

/** What a group is created with: the campaign and transactional group operations take the same. */
type GroupBody = { name: string; description?: string };

/** The writes a push makes, one API operation each. */
export type AudienceWrite =
  | { op: 'createContactProperty'; name: string; type: PropertyType }
  | { op: 'createAudienceSegment'; name: string; description?: string; filter: AudienceFilterRequest }
  | { op: 'createTransactionalGroup' | 'createCampaignGroup'; body: GroupBody }
  | { op: 'updateTransactionalGroup' | 'updateCampaignGroup'; id: string; body: Partial<GroupBody> };

/** Sends one write; returns the id of the record it made or changed (a property has none). */
export async function sendWrite(api: ApiClient, write: AudienceWrite): Promise<string | undefined> {
  switch (write.op) {
    case 'createContactProperty':
      await createContactProperty(api, { name: write.name, type: write.type });
      return undefined;
    case 'createAudienceSegment': {
      const { op: _op, ...body } = write;
      return (await createSegment(api, body)).id;
    }
    case 'createTransactionalGroup':
      return (await transactionalGroups.create(api, write.body)).id;
    case 'createCampaignGroup':
      return (await campaignGroups.create(api, write.body)).id;
    case 'updateTransactionalGroup':
      return (await transactionalGroups.update(api, write.id, write.body)).id;
    case 'updateCampaignGroup':
      return (await campaignGroups.update(api, write.id, write.body)).id;
  }
}
