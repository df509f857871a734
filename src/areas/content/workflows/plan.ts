/**
 * The edit script that turns a workflow as the account holds it into the workflow of a file, in
 * the API's own operations: deletes first (a single node, or a branch with what only it leads
 * to), then inserts from the root down (each `between` a node and where it leads, a branch
 * bringing its default paths, `add-branch` for more), then the fields of each node, then the
 * reroutes, then the emails. The script is played on a copy of the graph as the API would play it,
 * and the result compared with the file: where the two differ (a graph the insert modes cannot
 * build, an exit the API cannot create), the plan says so and offers a new draft (`--recreate`).
 */
import { isDeepStrictEqual } from 'node:util';
import { isFileTrigger, READ_ONLY_FIELDS, type FileNode, type WorkflowFile } from '../../../platform/workflows/file.js';
import { CREATABLE_NODE_TYPES, type CreatableNodeType } from '../../../platform/workflows/node-type-names.js';

/** One operation of the script, by node keys. */
export type WorkflowStep =
  | { op: 'updateWorkflowProperties'; name?: string; description?: string }
  | { op: 'changeWorkflowMailingList'; mailingList: string | null }
  | { op: 'deleteWorkflowNode'; key: string; recursive: boolean; removes: string[] }
  | { op: 'createWorkflowNode'; key: string; nodeTypeName: CreatableNodeType; insertMode: 'between'; from: string; to: string; children: string[] }
  | { op: 'addWorkflowBranch'; key: string; branch: string }
  | { op: 'updateWorkflowNode'; key: string; payload: Record<string, unknown> }
  | { op: 'rerouteNodeConnection'; key: string; to: string }
  | { op: 'updateEmailMessage'; key: string; email: string };

export interface WorkflowPlan {
  steps: WorkflowStep[];
  /** Why no script gets there: the plan offers --recreate. */
  impossible: string[];
  /** What the API cannot set, to set in the app afterwards. */
  leftInApp: string[];
}

type Graph = Map<string, FileNode>;

/** The fields a node of each creatable type starts with, in the file's terms. */
function defaultsOf(type: CreatableNodeType, key: string, isControl: boolean): Record<string, unknown> {
  switch (type) {
    case 'AudienceFilter':
      return { appliesDownstream: false };
    case 'TimerAction':
      return { amount: 1, unit: 'd' };
    case 'SendEmailAction':
      return { email: `emails/${key}/email.json` };
    case 'ExperimentBranchNode':
      return { samplingRate: 50, experimentType: 'autosplit' };
    case 'VariantNode':
      return { isControl };
    default:
      return {};
  }
}

function fieldsOf(node: FileNode): Record<string, unknown> {
  const { type: _type, next: _next, ...fields } = node;
  return fields;
}

const parentsOf = (graph: Graph, key: string) => [...graph].filter(([, node]) => node.next.includes(key)).map(([parent]) => parent);

/** Keys reachable from start, not passing through skip. */
function reachable(graph: Graph, start: string, skip?: string): Set<string> {
  const seen = new Set<string>();
  const pending = start === skip ? [] : [start];
  while (pending.length > 0) {
    const key = pending.pop()!;
    if (seen.has(key) || !graph.has(key)) continue;
    seen.add(key);
    for (const next of graph.get(key)!.next) if (next !== skip) pending.push(next);
  }
  return seen;
}

/** The keys of a file from the root along next, depth first: parents before children on every path. */
function order(file: WorkflowFile): string[] {
  const seen: string[] = [];
  const pending = [file.root];
  while (pending.length > 0) {
    const key = pending.pop()!;
    if (seen.includes(key) || file.nodes[key] === undefined) continue;
    seen.push(key);
    pending.push(...[...file.nodes[key].next].reverse());
  }
  return seen;
}

/**
 * The script from `account` (the workflow as a pull would write it, with the state's keys) to
 * `wanted` (the file). `emails` says which send-email nodes' email files differ from the account's.
 */
export function planWorkflow(account: WorkflowFile, wanted: WorkflowFile, emailsChanged: ReadonlySet<string>): WorkflowPlan {
  const steps: WorkflowStep[] = [];
  const impossible: string[] = [];
  const leftInApp: string[] = [];
  const graph: Graph = new Map(Object.entries(account.nodes).map(([key, node]) => [key, { ...node, next: [...node.next] }]));
  // The trigger and the exits cannot be created or deleted: the account's are the file's, key for key.
  if (account.root !== wanted.root) {
    rename(graph, account.root, wanted.root);
  }
  const exits = (nodes: Iterable<[string, FileNode]>) => [...nodes].filter(([, node]) => node.type === 'ExitAction').map(([key]) => key);
  const accountExits = exits(graph);
  const wantedExits = exits(Object.entries(wanted.nodes));
  for (const [index, exit] of accountExits.entries()) {
    const target = wantedExits[index];
    if (target !== undefined && target !== exit && !graph.has(target)) rename(graph, exit, target);
  }
  if (account.name !== wanted.name || (wanted.description !== undefined && account.description !== wanted.description)) {
    steps.push({
      op: 'updateWorkflowProperties',
      ...(account.name === wanted.name ? {} : { name: wanted.name }),
      ...(wanted.description === undefined || account.description === wanted.description ? {} : { description: wanted.description }),
    });
  }
  if (wanted.emoji !== undefined && account.emoji !== wanted.emoji) leftInApp.push(`the emoji ${wanted.emoji}`);
  if ((account.mailingList ?? null) !== (wanted.mailingList ?? null)) steps.push({ op: 'changeWorkflowMailingList', mailingList: wanted.mailingList ?? null });

  deletions(graph, wanted, steps, impossible);
  insertions(graph, wanted, steps, impossible);
  configurations(graph, wanted, steps, leftInApp);
  reroutes(graph, wanted, steps, impossible);
  for (const [key, node] of Object.entries(wanted.nodes)) {
    if (node.type === 'SendEmailAction' && typeof node.email === 'string' && emailsChanged.has(key))
      steps.push({ op: 'updateEmailMessage', key, email: node.email });
  }
  // The script played on the copy must give the file's graph; anything else is a graph it cannot build.
  if (impossible.length === 0) {
    for (const [key, node] of Object.entries(wanted.nodes)) {
      const got = graph.get(key);
      if (got === undefined) impossible.push(`${key} cannot be made by the API's operations`);
      else if (!isDeepStrictEqual(got.next, node.next))
        impossible.push(`${key} would lead to ${got.next.join(', ') || 'nothing'}, not ${node.next.join(', ') || 'nothing'}`);
      else if (got.type !== node.type) impossible.push(`${key} would be ${got.type}, not ${node.type}`);
    }
    for (const key of graph.keys()) if (wanted.nodes[key] === undefined) impossible.push(`${key} would remain`);
  }
  return { steps, impossible, leftInApp };
}

function rename(graph: Graph, from: string, to: string): void {
  const node = graph.get(from);
  if (node === undefined) return;
  graph.delete(from);
  graph.set(to, node);
  for (const other of graph.values()) other.next = other.next.map((next) => (next === from ? to : next));
}

/** Nodes the file no longer has: a single node (its parents then lead to its child), or a branch with what only it leads to. */
function deletions(graph: Graph, wanted: WorkflowFile, steps: WorkflowStep[], impossible: string[]): void {
  const root = wanted.root;
  for (const key of [...graph.keys()]) {
    const node = graph.get(key);
    if (node === undefined || wanted.nodes[key] !== undefined) continue;
    if (isFileTrigger(node.type) || node.type === 'ExitAction') {
      impossible.push(`${key} (${node.type}) cannot be deleted through the API`);
      continue;
    }
    if (node.next.length <= 1) {
      const child = node.next[0];
      for (const parent of graph.values()) {
        const next = parent.next.flatMap((id) => (id === key ? (child === undefined ? [] : [child]) : [id]));
        parent.next = next.filter((id, index) => next.indexOf(id) === index);
      }
      graph.delete(key);
      steps.push({ op: 'deleteWorkflowNode', key, recursive: false, removes: [key] });
      continue;
    }
    const still = reachable(graph, root, key);
    const removes = [...reachable(graph, key)].filter((id) => !still.has(id));
    const kept = removes.filter((id) => wanted.nodes[id] !== undefined);
    if (kept.length > 0) {
      impossible.push(`${key} leads to ${kept.join(', ')}, which the file keeps: a branch is deleted with what only it leads to`);
      continue;
    }
    for (const id of removes) graph.delete(id);
    for (const parent of graph.values()) parent.next = parent.next.filter((id) => !removes.includes(id));
    steps.push({ op: 'deleteWorkflowNode', key, recursive: true, removes });
  }
}

/** New nodes from the root down: each between its parent and where the parent leads now. */
function insertions(graph: Graph, wanted: WorkflowFile, steps: WorkflowStep[], impossible: string[]): void {
  const exit = [...graph].find(([, node]) => node.type === 'ExitAction')?.[0];
  for (const key of order(wanted)) {
    if (graph.has(key)) continue;
    const node = wanted.nodes[key]!;
    const parent = Object.keys(wanted.nodes).find((candidate) => graph.has(candidate) && wanted.nodes[candidate]!.next.includes(key));
    if (!(CREATABLE_NODE_TYPES as readonly string[]).includes(node.type)) {
      impossible.push(`${key} is ${node.type}, which the API cannot create`);
      continue;
    }
    if (parent === undefined) {
      impossible.push(`${key} has no parent the account holds to insert it after`);
      continue;
    }
    const from = graph.get(parent)!;
    const type = node.type as CreatableNodeType;
    if (from.type === 'BranchNode' || from.type === 'ExperimentBranchNode') {
      // Another path of a branch: add-branch makes it, leading to the exit.
      if ((from.type === 'BranchNode' ? 'AudienceFilter' : 'VariantNode') !== type || exit === undefined) {
        impossible.push(`${key} is a path of ${parent} the API cannot add`);
        continue;
      }
      from.next.push(key);
      graph.set(key, { type, next: [exit], ...defaultsOf(type, key, false) });
      steps.push({ op: 'addWorkflowBranch', key, branch: parent });
      continue;
    }
    if (from.next.length !== 1) {
      impossible.push(`${key} follows ${parent}, which leads nowhere to insert into`);
      continue;
    }
    const to = from.next[0]!;
    const children = defaultChildren(type, key, node, wanted);
    if (children === undefined) {
      impossible.push(`${key}: an experiment needs one control and at least one other variant`);
      continue;
    }
    from.next = [key];
    graph.set(key, { type, next: children.length > 0 ? children.map((child) => child.key) : [to], ...defaultsOf(type, key, false) });
    for (const child of children) graph.set(child.key, { type: child.type, next: [to], ...defaultsOf(child.type, child.key, child.isControl) });
    steps.push({ op: 'createWorkflowNode', key, nodeTypeName: type, insertMode: 'between', from: parent, to, children: children.map((child) => child.key) });
    // A default path the file does not have (an experiment of one variant and its control) goes at once, with what only it leads to.
    for (const child of children.filter((candidate) => candidate.unused)) {
      graph.delete(child.key);
      graph.get(key)!.next = graph.get(key)!.next.filter((next) => next !== child.key);
      steps.push({ op: 'deleteWorkflowNode', key: child.key, recursive: true, removes: [child.key] });
    }
  }
}

interface DefaultChild {
  key: string;
  type: CreatableNodeType;
  isControl: boolean;
  /** A path the API makes that the file does not have: deleted right after. */
  unused?: boolean;
}

/**
 * The paths a new branch brings, named by the file's keys: a BranchNode's two audience filters
 * are its first two paths (more are added after); an ExperimentBranchNode's control is the file's
 * control and its two variants the file's first two (one the file lacks is unused; more are added
 * after). Undefined for an experiment whose file has no single control.
 */
function defaultChildren(type: CreatableNodeType, key: string, node: FileNode, wanted: WorkflowFile): DefaultChild[] | undefined {
  if (type === 'BranchNode') return node.next.slice(0, 2).map((child) => ({ key: child, type: 'AudienceFilter', isControl: false }));
  if (type !== 'ExperimentBranchNode') return [];
  const controls = node.next.filter((child) => wanted.nodes[child]?.isControl === true);
  const others = node.next.filter((child) => wanted.nodes[child]?.isControl !== true);
  if (controls.length !== 1 || others.length === 0) return undefined;
  const variants: DefaultChild[] = [0, 1].map((index) =>
    others[index] === undefined
      ? { key: `${key}-unused-${index}`, type: 'VariantNode', isControl: false, unused: true }
      : { key: others[index]!, type: 'VariantNode', isControl: false },
  );
  return [...variants, { key: controls[0]!, type: 'VariantNode', isControl: true }];
}

/** The fields an update clears with null; the others take a value only. */
const CLEARED_BY_NULL = new Set(['segment', 'audienceFilter', 'eventName']);

/** Each node's fields as the file has them: one update per node, with what differs (a trigger's type too). */
function configurations(graph: Graph, wanted: WorkflowFile, steps: WorkflowStep[], leftInApp: string[]): void {
  for (const [key, node] of Object.entries(wanted.nodes)) {
    const current = graph.get(key);
    if (current === undefined) continue;
    const have = fieldsOf(current);
    const want = fieldsOf(node);
    const payload: Record<string, unknown> = {};
    if (current.type !== node.type) {
      if (!isFileTrigger(current.type) || !isFileTrigger(node.type)) continue;
      payload.typeName = node.type;
      current.type = node.type;
    }
    for (const field of new Set([...Object.keys(have), ...Object.keys(want)])) {
      if (field === 'email' || isDeepStrictEqual(have[field], want[field])) continue;
      if (READ_ONLY_FIELDS.has(field)) {
        if (want[field] !== undefined) leftInApp.push(`${key}: ${field} ${JSON.stringify(want[field])}`);
        continue;
      }
      // Left out of the file: a segment or filter is cleared (null), any other field left as the account has it.
      if (want[field] === undefined && !CLEARED_BY_NULL.has(field)) continue;
      payload[field] = want[field] === undefined ? null : want[field];
      if (want[field] === undefined) delete current[field];
      else current[field] = want[field];
    }
    if (Object.keys(payload).length > 0) steps.push({ op: 'updateWorkflowNode', key, payload });
  }
}

/** The connections still to move: each from a node with one, to where the file says; the node it left must keep another. */
function reroutes(graph: Graph, wanted: WorkflowFile, steps: WorkflowStep[], impossible: string[]): void {
  let pending = [...graph]
    .filter(([key, node]) => wanted.nodes[key] !== undefined && !isDeepStrictEqual(node.next, wanted.nodes[key]!.next))
    .map(([key]) => key);
  while (pending.length > 0) {
    const ready = pending.find((key) => {
      const node = graph.get(key)!;
      const target = wanted.nodes[key]!.next;
      return node.next.length === 1 && target.length === 1 && graph.has(target[0]!) && parentsOf(graph, node.next[0]!).length > 1;
    });
    if (ready === undefined) {
      for (const key of pending) impossible.push(`${key} cannot be made to lead to ${wanted.nodes[key]!.next.join(', ')} by a reroute`);
      return;
    }
    const to = wanted.nodes[ready]!.next[0]!;
    graph.get(ready)!.next = [to];
    steps.push({ op: 'rerouteNodeConnection', key: ready, to });
    pending = pending.filter((key) => key !== ready);
  }
}

/** A step in words, as `content push --plan` prints it. */
export function describeStep(step: WorkflowStep, revision: (key: string) => string | null | undefined): string {
  switch (step.op) {
    case 'updateWorkflowProperties':
      return `updateWorkflowProperties ${[step.name === undefined ? '' : `name ${JSON.stringify(step.name)}`, step.description === undefined ? '' : `description ${JSON.stringify(step.description)}`].filter(Boolean).join(', ')}`;
    case 'changeWorkflowMailingList':
      return `changeWorkflowMailingList ${step.mailingList === null ? 'none' : JSON.stringify(step.mailingList)}`;
    case 'deleteWorkflowNode':
      return step.recursive ? `deleteWorkflowNodeRecursively ${step.key} (removes ${step.removes.join(', ')})` : `deleteWorkflowNode ${step.key}`;
    case 'createWorkflowNode':
      return `createWorkflowNode ${step.nodeTypeName} ${step.key} between ${step.from} and ${step.to}${step.children.length > 0 ? ` (with paths ${step.children.join(', ')})` : ''}`;
    case 'addWorkflowBranch':
      return `addWorkflowBranch ${step.branch}: path ${step.key}`;
    case 'updateWorkflowNode':
      return `updateWorkflowNode ${step.key} ${Object.entries(step.payload)
        .map(([field, value]) => `${field}=${JSON.stringify(value)}`)
        .join(' ')}`;
    case 'rerouteNodeConnection':
      return `rerouteNodeConnection ${step.key} -> ${step.to}`;
    case 'updateEmailMessage': {
      const at = revision(step.key);
      return `updateEmailMessage ${step.key} from ${step.email}${at === undefined ? '' : ` (expected content revision ${at ?? 'none'})`}`;
    }
  }
}
