/**
 * What a push would do with the audience half of a tree, decided before anything is sent: each
 * record paired with the account's (by the id the state keeps, the id its directory ends in, then
 * by name), how it stands, and the writes the API has for it. What the API cannot do (change a
 * segment, change a property's type or label, delete anything) is said, with what to do instead,
 * and never sent; what only the app can make (a mailing list, an event pattern) is a step in the app.
 */

import type { PropertyType } from '../../../platform/contact-properties/schemas.js';
import { isReservedGroupName, RESERVED_GROUP_NAME } from '../../../platform/groups/names.js';
import type { AudienceFilterRequest } from '../../../platform/segments/filter.js';
import { namesakes } from '../../change/namesakes.js';
import { type AudienceKind, directoryIdOf, type SyncedAudience } from '../shared/audience-state.js';
import { type Standing, standingOf } from '../shared/standing.js';
import { type AudienceRecord, DIRECTORY_KINDS, fileOf } from './files.js';
import type { AudienceWrite, RemoteAudience } from './remote.js';
import type { AudienceTree } from './rules.js';

/** A record of the tree beside the account's. */
export interface AudienceSide {
  kind: AudienceKind;
  path: string;
  name: string;
  local?: AudienceRecord;
  remote?: RemoteAudience;
  synced?: SyncedAudience;
  /** Written by hand (no id known for it), with a name several of the account's records of its kind have: it is none of them. */
  ambiguous?: boolean;
  standing: Standing;
}

/** What a push does with one record: the writes it sends, and what it cannot do, in words. */
export interface AudienceTask {
  side: AudienceSide;
  action: 'create' | 'update' | 'skip';
  writes: AudienceWrite[];
  why?: string;
  /** What the API cannot do that the files ask for, each with what to do instead: the push exits 5 for it. */
  cannot: string[];
  /** A conflict the person settles (pull, or --force where the API can write): the push exits 5 for it. */
  held?: boolean;
  /** What only the app can make of it: left to do by hand. */
  app?: string;
}

/** The activity conditions of a filter that name a campaign or workflow by an id this account is not known to hold: `conditions[2] names a campaign`. */
function foreignActivity(filter: unknown, accountIds: ReadonlySet<string>): string[] {
  const conditions = (filter as { conditions?: { type?: string; target?: string; id?: string }[] } | undefined)?.conditions ?? [];
  return conditions.flatMap((condition, index) =>
    condition.type === 'activity' && typeof condition.id === 'string' && !accountIds.has(condition.id)
      ? [`conditions[${index}] names a ${condition.target ?? 'record'}`]
      : [],
  );
}

/**
 * The tree's records paired with the account's: by the id the state keeps for the path, else the
 * id the directory's name ends in, else by name among the kind (a tree from another account): one
 * of that name only, since a name several records have names none of them (ambiguous); the
 * account's records nothing matched come last, without files.
 */
export function pairAudience(
  locals: AudienceRecord[],
  remotes: RemoteAudience[],
  synced: Record<string, SyncedAudience>,
  names: AudienceTree['fields'],
): AudienceSide[] {
  const claimed = new Set<RemoteAudience>();
  const sides: AudienceSide[] = [];
  const byId = (kind: AudienceKind, id: string | undefined) => remotes.find((remote) => remote.kind === kind && remote.id === id && !claimed.has(remote));
  const unmatched: AudienceRecord[] = [];
  const take = (local: AudienceRecord, remote: RemoteAudience | undefined, ambiguous = false) => {
    if (remote !== undefined) claimed.add(remote);
    const name = names.get(local.path)?.name ?? local.name;
    sides.push({ kind: local.kind, path: local.path, name, local, remote, synced: synced[local.path], ...(ambiguous ? { ambiguous } : {}), standing: 'same' });
  };
  for (const local of locals) {
    if (!(DIRECTORY_KINDS as string[]).includes(local.kind))
      take(
        local,
        remotes.find((remote) => remote.kind === local.kind),
      );
    else {
      const remote = byId(local.kind, synced[local.path]?.id) ?? byId(local.kind, directoryIdOf(local.path));
      if (remote !== undefined) take(local, remote);
      else unmatched.push(local);
    }
  }
  for (const local of unmatched) {
    const name = names.get(local.path)?.name ?? local.name;
    const named = namesakes(remotes, { kind: local.kind, name }).filter((remote) => !claimed.has(remote));
    const unknown = synced[local.path] === undefined;
    take(local, named.length === 1 && unknown ? named[0] : undefined, named.length > 1 && unknown);
  }
  for (const remote of remotes) {
    if (claimed.has(remote)) continue;
    // A record the state knew under a path the tree no longer has: removed here.
    const known = Object.entries(synced).find(
      ([path, record]) => record.id !== undefined && record.id === remote.id && !sides.some((side) => side.path === path),
    );
    sides.push({ kind: remote.kind, path: known?.[0] ?? remote.path, name: remote.name, remote, synced: known?.[1], standing: 'same' });
  }
  for (const side of sides) side.standing = standingOf(side);
  return sides;
}

const apiCannot = (what: string) => `the API cannot ${what}`;

/** contact-properties.json: each property the account lacks created; a type or label that differs, and one removed here, said. */
function propertiesTask(side: AudienceSide, tree: AudienceTree): AudienceTask {
  const task: AudienceTask = { side, action: 'skip', writes: [], cannot: [] };
  const account = side.remote?.properties ?? new Map();
  const before = new Set(side.synced?.keys ?? []);
  for (const property of tree.properties?.values() ?? []) {
    const there = account.get(property.key);
    if (there === undefined) {
      task.writes.push({ op: 'createContactProperty', name: property.key, type: property.type as PropertyType });
      continue;
    }
    if (there.type !== property.type)
      task.cannot.push(
        `"${property.key}" is ${there.type} in the account and ${property.type} here: ${apiCannot("change a property's type")}; add a property under a new key and move the values to it (loopsctl contacts update), or change it in the app`,
      );
    else if (property.label !== undefined && there.label !== property.label)
      task.cannot.push(
        `"${property.key}" is labelled "${there.label}" in the account and "${property.label}" here: ${apiCannot("set a property's label")}; change it in the app, then pull`,
      );
  }
  for (const key of account.keys()) {
    if (tree.properties?.has(key) || !before.has(key)) continue;
    task.cannot.push(`"${key}" was removed here: ${apiCannot('delete a contact property')}; delete it in the app, or put it back in the file`);
  }
  if (task.writes.length > 0) {
    task.action = side.remote === undefined ? 'create' : 'update';
    task.why = `${task.writes.length} ${task.writes.length === 1 ? 'property' : 'properties'} the account lacks`;
  }
  return task;
}

/** A segment: created when the account lacks it; any change to one the account holds is the app's to make. */
function segmentTask(side: AudienceSide, tree: AudienceTree, force: boolean, accountIds: ReadonlySet<string>): AudienceTask {
  if (side.standing === 'ambiguous') return ambiguousTask(side, 'segment');
  const task: AudienceTask = { side, action: 'skip', writes: [], cannot: [] };
  const fields = side.local === undefined ? undefined : tree.fields.get(side.local.path);
  if (side.standing === 'missing' && fields !== undefined) {
    const foreign = foreignActivity(fields.filter, accountIds);
    if (foreign.length > 0) {
      // The API takes a campaign or workflow by its id, which differs in every account: the app's to choose.
      task.app = `create the segment "${fields.name}" in the app: its filter's ${foreign.join(', ')} by ${foreign.length === 1 ? 'its id' : 'their ids'} in another account, and the API takes ids only`;
      return task;
    }
    task.action = 'create';
    task.why = side.synced === undefined ? 'not in the account yet' : 'deleted in the account since the last pull';
    const description = typeof fields.description === 'string' && fields.description !== '' ? { description: fields.description } : {};
    task.writes.push({ op: 'createAudienceSegment', name: fields.name, ...description, filter: fields.filter as AudienceFilterRequest });
    return task;
  }
  const instead = `${apiCannot('change a segment')}: to change it, write it as a new segment under a new name (a new directory under segments/), point the workflows that name it at the new name, and delete the old one in the app; or change it in the app and pull`;
  if (side.standing === 'local' || (side.standing === 'conflict' && force)) task.cannot.push(`changed here: ${instead}`);
  else if (side.standing === 'conflict')
    task.cannot.push(
      side.synced === undefined
        ? `the account has a segment of this name whose fields differ, which these files were never pulled from: ${instead}`
        : `changed here and in the account since the last pull: ${instead}`,
    );
  else if (side.standing === 'only-remote' && side.synced !== undefined) task.cannot.push(removedHere('segment'));
  else if (side.standing === 'remote') task.why = 'changed in the account only; pull to update the files';
  return task;
}

/** A record written by hand whose name several of the account's records of its kind have: neither paired nor created. */
function ambiguousTask(side: AudienceSide, noun: string): AudienceTask {
  return {
    side,
    action: 'skip',
    writes: [],
    cannot: [
      `several ${noun}s in the account are named "${side.name}", and these files are none of them: rename all but one in the app, or pull and keep the directory of the one they are (its name ends in its id)`,
    ],
  };
}

function removedHere(noun: string): string {
  return `removed here: ${apiCannot(`delete a ${noun}`)}; delete it in the app, or restore its directory (git checkout)`;
}

/** A group: created when the account lacks it, updated (its name and description) when the files changed it. */
function groupTask(side: AudienceSide, tree: AudienceTree, force: boolean): AudienceTask {
  if (side.standing === 'ambiguous') return ambiguousTask(side, 'group');
  const task: AudienceTask = { side, action: 'skip', writes: [], cannot: [] };
  const transactional = side.kind === 'groups/transactional';
  const fields = side.local === undefined ? undefined : tree.fields.get(side.local.path);
  const body = fields === undefined ? {} : { name: fields.name, ...(typeof fields.description === 'string' ? { description: fields.description } : {}) };
  if (side.standing === 'missing' && fields !== undefined) {
    if (isReservedGroupName(fields.name)) {
      task.cannot.push(`"${RESERVED_GROUP_NAME}" is reserved: no group may be given that name; rename it in the file`);
      return task;
    }
    task.action = 'create';
    task.why = side.synced === undefined ? 'not in the account yet' : 'deleted in the account since the last pull';
    task.writes.push({ op: transactional ? 'createTransactionalGroup' : 'createCampaignGroup', body: body as { name: string } });
    return task;
  }
  const write = () => {
    if (side.remote !== undefined && isReservedGroupName(side.remote.name)) {
      task.cannot.push(`the group "${RESERVED_GROUP_NAME}" cannot be edited; undo the change, or pull with --force`);
      return;
    }
    task.action = 'update';
    task.writes.push({ op: transactional ? 'updateTransactionalGroup' : 'updateCampaignGroup', id: side.remote!.id!, body });
  };
  if (side.standing === 'local') write();
  else if (side.standing === 'conflict' && force) {
    task.why = 'taking the local side (--force)';
    write();
  } else if (side.standing === 'conflict') {
    task.held = true;
    task.why =
      side.synced === undefined
        ? "the account has a group of this name that these files were never pulled from: pull with --force to take the account's side, or push with --force to replace it"
        : 'changed in the account since the last pull: pull with --force into a clean checkout and merge, or push with --force to take the local side';
  } else if (side.standing === 'only-remote' && side.synced !== undefined) task.cannot.push(removedHere('group'));
  else if (side.standing === 'remote') task.why = 'changed in the account only; pull to update the files';
  return task;
}

/** Each record's task, in the order a push sends them: properties, then segments, then groups. */
export function planAudience(sides: AudienceSide[], tree: AudienceTree, force: boolean, accountIds: ReadonlySet<string>): AudienceTask[] {
  const order: AudienceKind[] = ['contact-properties', 'segments', 'groups/transactional', 'groups/campaigns'];
  return order.flatMap((kind) =>
    sides
      .filter((side) => side.kind === kind)
      .map((side) =>
        kind === 'contact-properties'
          ? propertiesTask(side, tree)
          : kind === 'segments'
            ? segmentTask(side, tree, force, accountIds)
            : groupTask(side, tree, force),
      ),
  );
}

/** A step only the app can take. */
export interface AppStep {
  /** What is missing: `mailing list "Product updates"`. */
  what: string;
  /** Where the tree names it. */
  where: string[];
  /** Whether a record the push would write needs it: the push cannot go on before it is taken. */
  blocks: boolean;
  todo: string;
}

/**
 * The mailing lists and event patterns the tree names (in lists.json and event-patterns.json, and
 * in its workflows) that the account lacks: the API can make neither. One a workflow names stops
 * the push until it is there; the rest are listed as left to do.
 */
export function appSteps(tree: AudienceTree, remotes: RemoteAudience[], workflows: boolean): AppStep[] {
  const lists = new Set(Object.keys(remotes.find((remote) => remote.kind === 'lists')?.ids ?? {}));
  const events = new Set(Object.keys(remotes.find((remote) => remote.kind === 'event-patterns')?.ids ?? {}));
  const steps = new Map<string, AppStep>();
  const need = (what: string, where: string, blocks: boolean, todo: string) => {
    const step = steps.get(what) ?? { what, where: [], blocks: false, todo };
    step.where.push(where);
    step.blocks ||= blocks;
    steps.set(what, step);
  };
  const listTodo = (name: string) => `create the mailing list "${name}" in the app (Audience, Lists)`;
  const eventTodo = (name: string) =>
    `send the event "${name}" once (loopsctl events send ${JSON.stringify(name)} --email <a contact's address>), so that the account has its pattern`;
  for (const name of tree.lists ?? []) if (!lists.has(name)) need(`mailing list "${name}"`, 'lists.json', false, listTodo(name));
  for (const name of tree.events ?? []) if (!events.has(name)) need(`event pattern "${name}"`, 'event-patterns.json', false, eventTodo(name));
  if (workflows) {
    for (const [path, file] of tree.workflows) {
      if (typeof file.mailingList === 'string' && !lists.has(file.mailingList))
        need(`mailing list "${file.mailingList}"`, path, true, listTodo(file.mailingList));
      for (const node of Object.values(file.nodes))
        if (node.type === 'EventTrigger' && typeof node.eventName === 'string' && !events.has(node.eventName))
          need(`event pattern "${node.eventName}"`, path, true, eventTodo(node.eventName));
    }
  }
  return [...steps.values()];
}

/** The file a task is about, for messages. */
export function taskFile(task: AudienceTask): string {
  return fileOf(task.side.local ?? task.side.remote ?? task.side);
}
