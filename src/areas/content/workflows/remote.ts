/**
 * The account's side of workflows as code: each workflow read from the API (its graph, the nodes
 * whose fields the graph's view leaves out, its emails), the names of the lists and segments it
 * refers to, and the files a pull writes of it, with a stable key for every node.
 */
import type { ApiClient } from '../../../api/client.js';
import { everyItem } from '../../../api/client.js';
import { settled } from '../../../api/concurrency.js';
import type { EmailMessage } from '../../../platform/email-messages/schemas.js';
import { type FileNode, pathsOrderedLike, WORKFLOW_FILE, type WorkflowFile, workflowFile } from '../../../platform/workflows/file.js';
import { type FileNames, needsFullView, toFileNode } from '../../../platform/workflows/file-nodes.js';
import { depthFirstFrom, graphOf } from '../../../platform/workflows/graph.js';
import type { Workflow } from '../../../platform/workflows/schemas.js';
import { listContactProperties } from '../../contact-properties/client.js';
import { getEmailMessage } from '../../email-messages/client.js';
import { eventPatterns } from '../../event-patterns/client.js';
import { listMailingLists } from '../../lists/client.js';
import { segments } from '../../segments/client.js';
import { getWorkflow, getWorkflowNode, workflows } from '../../workflows/client.js';
import { type Files, jsonFile } from '../shared/files.js';
import { fieldsOf } from '../shared/message-fields.js';
import { workflowYaml } from '../shared/workflow-files.js';

/** A workflow as the account holds it: the graph, each node with every field the files keep, the email behind each send-email node. */
export interface RemoteWorkflow {
  id: string;
  name: string;
  revision: string | null;
  graph: Workflow;
  /** By node id: the graph's node with the fields of its full view. */
  nodes: Map<string, Record<string, unknown> & { typeName: string; nextNodeIds: string[] }>;
  /** By send-email node id. */
  messages: Map<string, EmailMessage>;
}

/** The names of what workflows refer to: lists and segments by id, the events with a pattern, the contact properties' types by key. */
export interface AccountNames {
  lists: Map<string, string>;
  segments: Map<string, string>;
  events: Set<string>;
  properties: Map<string, string>;
}

/** One workflow with what its files need, read side by side. */
export async function fetchWorkflow(api: ApiClient, id: string): Promise<RemoteWorkflow> {
  const graph = await getWorkflow(api, id);
  const entries = Object.entries(graph.nodes) as [string, Record<string, unknown> & { typeName: string; nextNodeIds: string[] }][];
  const full = await settled(
    entries.filter(([, node]) => needsFullView(node.typeName)),
    async ([nodeId, node]) => {
      const { id: _id, workflowId: _workflow, workflowRevisionId: _revision, ...fields } = await getWorkflowNode(api, id, nodeId);
      return [nodeId, { ...node, ...fields }] as const;
    },
  );
  const nodes = new Map([...entries, ...full]);
  const emails = [...nodes].filter(([, node]) => node.typeName === 'SendEmailAction' && typeof node.emailMessageId === 'string');
  const messages = new Map(await settled(emails, async ([nodeId, node]) => [nodeId, await getEmailMessage(api, node.emailMessageId as string)] as const));
  return { id: graph.id, name: graph.name ?? '', revision: graph.workflowRevisionId ?? null, graph, nodes, messages };
}

export async function fetchWorkflows(api: ApiClient): Promise<RemoteWorkflow[]> {
  const listed = await everyItem(api, workflows);
  return settled(listed, (summary) => fetchWorkflow(api, summary.id));
}

export async function fetchNames(api: ApiClient): Promise<AccountNames> {
  const [lists, segmentList, patterns, properties] = await Promise.all([
    listMailingLists(api),
    everyItem(api, segments),
    everyItem(api, eventPatterns),
    listContactProperties(api, 'all'),
  ]);
  return {
    lists: new Map(lists.map((list) => [list.id, list.name])),
    segments: new Map(segmentList.map((segment) => [segment.id, segment.name])),
    events: new Set(patterns.map((pattern) => pattern.eventName)),
    properties: new Map(properties.map((property) => [property.key, property.type])),
  };
}

/**
 * Every name of the account a workflow file may refer to, as `content check` writes them:
 * `list:Product updates`, `event:trial_started`, `property:plan`, and each property's type
 * (`property:plan:string`), which decides the operators a trigger's query may use.
 */
export function referenceNamesOf(names: AccountNames): Set<string> {
  return new Set([
    ...[...names.lists.values()].map((name) => `list:${name}`),
    ...[...names.segments.values()].map((name) => `segment:${name}`),
    ...[...names.events].map((name) => `event:${name}`),
    ...[...names.properties.keys()].map((name) => `property:${name}`),
    ...[...names.properties].map(([name, type]) => `property:${name}:${type}`),
  ]);
}

/** A slug of a node's words: `Welcome aboard, {contact.firstName}` -> `welcome-aboard-contact-firstname`. */
function slug(words: string, fallback: string): string {
  const made = words
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return made === '' ? fallback : made;
}

/** A readable key for a node, from what it does: `wait-1h`, `branch`, `paying-customers`, the email's subject. */
function keyFor(node: Record<string, unknown> & { typeName: string }, names: AccountNames): string {
  switch (node.typeName) {
    case 'SignupTrigger':
      return 'signup';
    case 'EventTrigger':
      return typeof node.eventName === 'string' && node.eventName !== '' ? slug(`on ${node.eventName}`, 'event') : 'event';
    case 'ContactPropertyTrigger':
      return slug(`when ${(node.contactPropertyQuery as { key?: string } | null)?.key ?? ''}`, 'property-changed');
    case 'AddToListTrigger':
      return 'joined-list';
    case 'BlankTrigger':
      return 'trigger';
    case 'TimerAction':
      return slug(`wait ${String(node.amount)}${String(node.unit)}`, 'wait');
    case 'SendEmailAction':
      // The subject's first words: enough to tell the emails of a workflow apart.
      return slug(typeof node.subject === 'string' ? node.subject.split(/\s+/).slice(0, 4).join(' ') : '', 'email');
    case 'AudienceFilter': {
      const segment = typeof node.audienceSegmentId === 'string' ? names.segments.get(node.audienceSegmentId) : undefined;
      return segment === undefined ? 'filter' : slug(segment, 'filter');
    }
    case 'BranchNode':
      return 'branch';
    case 'ExperimentBranchNode':
      return 'experiment';
    case 'VariantNode':
      return node.isControl === true ? 'control' : 'variant';
    case 'ExitAction':
      return 'exit';
    default:
      return slug(node.typeName.replace(/([a-z])([A-Z])/g, '$1-$2'), 'node');
  }
}

/** The graph's node ids from the root, depth first along next, then any the root does not reach: the order of the file. */
function nodeOrder(remote: RemoteWorkflow): string[] {
  const root = remote.graph.rootNodeId;
  const order =
    root === null
      ? []
      : depthFirstFrom(
          graphOf(
            remote.nodes,
            ([id]) => id,
            ([, node]) => node.nextNodeIds,
          ),
          root,
        );
  const seen = new Set(order);
  for (const id of [...remote.nodes.keys()].sort()) if (!seen.has(id)) order.push(id);
  return order;
}

/**
 * A key for every node: the one the state keeps for its id in this account, else a new one made
 * from the node and kept apart from every key in use (`wait-1d`, `wait-1d-2`).
 */
export function assignKeys(remote: RemoteWorkflow, known: Record<string, string>, names: AccountNames): Map<string, string> {
  const byId = new Map(Object.entries(known).map(([key, id]) => [id, key]));
  const keys = new Map<string, string>();
  const taken = new Set<string>();
  const order = nodeOrder(remote);
  for (const id of order) {
    const key = byId.get(id);
    if (key !== undefined) {
      keys.set(id, key);
      taken.add(key);
    }
  }
  for (const id of order) {
    if (keys.has(id)) continue;
    const base = keyFor(remote.nodes.get(id)!, names);
    let key = base;
    for (let n = 2; taken.has(key); n++) key = `${base}-${n}`;
    keys.set(id, key);
    taken.add(key);
  }
  return keys;
}

/**
 * The workflow with each experiment's paths in the order `like` (the tree's file) gives the same
 * paths: an order the platform gives no meaning (samePaths), which a workflow the API built lists
 * its own way (variants, then the control), so it is no difference between the tree and the account.
 */
function experimentsOrderedLike(remote: RemoteWorkflow, keys: Map<string, string>, like: WorkflowFile | undefined): RemoteWorkflow {
  if (like === undefined) return remote;
  const nodes = new Map(
    [...remote.nodes].map(([id, node]) => {
      const wanted = like.nodes[keys.get(id) ?? id];
      if (wanted === undefined || wanted.type !== node.typeName) return [id, node];
      const ids = new Map(node.nextNodeIds.map((next) => [keys.get(next) ?? next, next]));
      const ordered = pathsOrderedLike(node.typeName, [...ids.keys()], wanted.next).map((key) => ids.get(key)!);
      return [id, { ...node, nextNodeIds: ordered }];
    }),
  );
  return { ...remote, nodes };
}

/** The workflow as its file holds it, with these keys; an experiment's paths in the order `like` (the tree's file) has them. */
export function workflowFileOf(remote: RemoteWorkflow, keys: Map<string, string>, names: AccountNames, like?: WorkflowFile): WorkflowFile {
  remote = experimentsOrderedLike(remote, keys, like);
  const { graph } = remote;
  const nodes: Record<string, FileNode> = {};
  const fileNames: FileNames = { nodeKey: (id) => keys.get(id) ?? id, segmentName: (id) => names.segments.get(id) ?? id };
  for (const id of nodeOrder(remote)) nodes[keys.get(id)!] = toFileNode(remote.nodes.get(id)!, keys.get(id)!, fileNames);
  const list = graph.mailingListId ?? null;
  return workflowFile.parse({
    name: remote.name,
    ...(graph.description === undefined ? {} : { description: graph.description }),
    ...(graph.emoji === undefined ? {} : { emoji: graph.emoji }),
    ...(graph.status === undefined ? {} : { status: graph.status }),
    mailingList: list === null ? null : (names.lists.get(list) ?? list),
    root: graph.rootNodeId === null ? '' : keys.get(graph.rootNodeId)!,
    nodes,
  }) as WorkflowFile;
}

/** The files of a workflow as a pull writes them: workflow.yaml, and each email's fields and LMX. */
export function workflowFilesOf(remote: RemoteWorkflow, keys: Map<string, string>, names: AccountNames, like?: WorkflowFile): Files {
  const files: Files = new Map();
  for (const [nodeId, message] of remote.messages) {
    const key = keys.get(nodeId)!;
    files.set(`emails/${key}/email.json`, jsonFile(fieldsOf(message)));
    files.set(`emails/${key}/email.lmx`, message.lmx);
  }
  files.set(WORKFLOW_FILE, workflowYaml(workflowFileOf(remote, keys, names, like)));
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
