/**
 * The edit script that turns a workflow as the account holds it into the workflow of a file, in
 * the API's own operations: deletes first (a single node, or a branch with what only it leads
 * to), then inserts from the root down (each `between` a node and where it leads, a branch
 * bringing its default paths, `add-branch` for more), then the fields of each node, then the
 * reroutes, then the exits the file does not have, then the emails. The script is played on a copy of the graph as the API would play it,
 * and the result compared with the file: where the two differ (a graph the insert modes cannot
 * build, an exit the API cannot create), the plan says so and offers a new draft (`--recreate`).
 */
import { isDeepStrictEqual } from 'node:util';
import { addedPathNext, addedPathOf, defaultPathsOf, newNodeSettings } from '../../../platform/workflows/creation.js';
import { deleteProblem, rerouteProblem } from '../../../platform/workflows/edits.js';
import { EMAIL_PATH, type FileNode, samePaths, type WorkflowFile } from '../../../platform/workflows/file.js';
import { toFileNode } from '../../../platform/workflows/file-nodes.js';
import { depthFirstFrom, graphOfKeyed, parentsOf, removedWith } from '../../../platform/workflows/graph.js';
import { CREATABLE_NODE_TYPES, type CreatableNodeType, isTrigger } from '../../../platform/workflows/node-facets.js';
import { clearedByNull, readOnlyFields } from '../../../platform/workflows/node-types.js';
import type { WorkflowStep } from './steps.js';

export interface WorkflowPlan {
  steps: WorkflowStep[];
  /** Why no script gets there: the plan offers --recreate. */
  impossible: string[];
  /** What the API cannot set, to set in the app afterwards. */
  leftInApp: string[];
}

/** The planner's copy of the graph, played on as the API would change it. */
type Nodes = Map<string, FileNode>;

/**
 * The fields a node of each creatable type starts with, in the file's terms (file-nodes.ts): the
 * API's settings, and the email message the platform makes for a send-email node, by its path.
 */
function defaultsOf(type: CreatableNodeType, key: string, isControl: boolean): Record<string, unknown> {
  const made = type === 'SendEmailAction' ? { emailMessageId: key } : {};
  const node = toFileNode({ typeName: type, nextNodeIds: [], ...newNodeSettings(type, isControl), ...made }, key, {
    nodeKey: (id) => id,
    segmentName: (id) => id,
  });
  return fieldsOf(node);
}

function fieldsOf(node: FileNode): Record<string, unknown> {
  const { type: _type, next: _next, ...fields } = node;
  return fields;
}

/**
 * The script from `account` (the workflow as a pull would write it, with the state's keys) to
 * `wanted` (the file). `emailsChanged` names the email directories (`emails/<slug>/`) whose files
 * differ from the account's; a send-email node is sent its email when the directory it names is one.
 */
export function planWorkflow(account: WorkflowFile, wanted: WorkflowFile, emailsChanged: ReadonlySet<string>): WorkflowPlan {
  const steps: WorkflowStep[] = [];
  const impossible: string[] = [];
  const leftInApp: string[] = [];
  const graph: Nodes = new Map(Object.entries(account.nodes).map(([key, node]) => [key, { ...node, next: [...node.next] }]));
  // "`*Trigger` nodes and `ExitAction` nodes cannot be created" (the description), and the trigger
  // cannot be deleted: the account's are the file's, key for key.
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
  exitDeletions(graph, wanted, steps);
  for (const [key, node] of Object.entries(wanted.nodes)) {
    const slug = typeof node.email === 'string' ? EMAIL_PATH.exec(node.email)?.[1] : undefined;
    if (node.type === 'SendEmailAction' && slug !== undefined && emailsChanged.has(slug))
      steps.push({ op: 'updateEmailMessage', key, email: node.email as string });
  }
  // The script played on the copy must give the file's graph; anything else is a graph it cannot build.
  if (impossible.length === 0) {
    for (const [key, node] of Object.entries(wanted.nodes)) {
      const got = graph.get(key);
      if (got === undefined) impossible.push(`${key} cannot be made by the API's operations`);
      else if (!samePaths(node.type, got.next, node.next))
        impossible.push(`${key} would lead to ${got.next.join(', ') || 'nothing'}, not ${node.next.join(', ') || 'nothing'}`);
      else if (got.type !== node.type) impossible.push(`${key} would be ${got.type}, not ${node.type}`);
    }
    for (const key of graph.keys()) if (wanted.nodes[key] === undefined) impossible.push(`${key} would remain`);
  }
  return { steps, impossible, leftInApp };
}

function rename(graph: Nodes, from: string, to: string): void {
  const node = graph.get(from);
  if (node === undefined) return;
  graph.delete(from);
  graph.set(to, node);
  for (const other of graph.values()) other.next = other.next.map((next) => (next === from ? to : next));
}

/**
 * Nodes the file no longer has: a single node (its parents then lead to its child), or a branch
 * with what only it leads to. An exit goes last (exitDeletions), once the nodes before it are built.
 */
function deletions(graph: Nodes, wanted: WorkflowFile, steps: WorkflowStep[], impossible: string[]): void {
  for (const key of [...graph.keys()]) {
    const node = graph.get(key);
    if (node === undefined || wanted.nodes[key] !== undefined || node.type === 'ExitAction') continue;
    if (deleteProblem(key, node.type, wanted.root, 0, true) !== undefined) {
      impossible.push(`${key} (${node.type}) cannot be deleted through the API`);
      continue;
    }
    if (deleteProblem(key, node.type, wanted.root, node.next.length, false) === undefined) {
      deleteOne(graph, key);
      steps.push({ op: 'deleteWorkflowNode', key, recursive: false, removes: [key] });
      continue;
    }
    const removes = removedWith(graphOfKeyed(graph), wanted.root, key);
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

/** A single node deleted as the API deletes one: its parents lead to its child instead, or nowhere when it has none. */
function deleteOne(graph: Nodes, key: string): void {
  const child = graph.get(key)?.next[0];
  for (const parent of graph.values()) {
    const next = parent.next.flatMap((id) => (id === key ? (child === undefined ? [] : [child]) : [id]));
    parent.next = next.filter((id, index) => next.indexOf(id) === index);
  }
  graph.delete(key);
}

/**
 * The exits the file does not have, deleted once everything is built: a node the file ends
 * without an exit after (the description's own example ends at a SendEmailAction) is built
 * leading to the workflow's exit, as the API inserts, and is left leading nowhere when it goes.
 */
function exitDeletions(graph: Nodes, wanted: WorkflowFile, steps: WorkflowStep[]): void {
  for (const [key, node] of [...graph]) {
    if (node.type !== 'ExitAction' || wanted.nodes[key] !== undefined) continue;
    deleteOne(graph, key);
    steps.push({ op: 'deleteWorkflowNode', key, recursive: false, removes: [key] });
  }
}

/** New nodes from the root down: each between its parent and where the parent leads now. */
function insertions(graph: Nodes, wanted: WorkflowFile, steps: WorkflowStep[], impossible: string[]): void {
  const exit = [...graph].find(([, node]) => node.type === 'ExitAction')?.[0];
  const wantedGraph = graphOfKeyed(wanted.nodes);
  for (const key of depthFirstFrom(wantedGraph, wanted.root)) {
    if (graph.has(key)) continue;
    const node = wanted.nodes[key]!;
    const parent = parentsOf(wantedGraph, key).find((candidate) => graph.has(candidate));
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
    const added = addedPathOf(from.type);
    if (added !== undefined) {
      // Another path of a branch: add-branch makes it.
      if (added !== type) {
        impossible.push(`${key} is a path of ${parent} the API cannot add`);
        continue;
      }
      from.next.push(key);
      graph.set(key, { type, next: addedPathNext(exit), ...defaultsOf(type, key, false) });
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
      impossible.push(`${key}: an experiment has one control at most`);
      continue;
    }
    from.next = [key];
    graph.set(key, { type, next: children.length > 0 ? children.map((child) => child.key) : [to], ...defaultsOf(type, key, false) });
    for (const child of children) graph.set(child.key, { type: child.type, next: [to], ...defaultsOf(child.type, child.key, child.isControl) });
    steps.push({ op: 'createWorkflowNode', key, nodeTypeName: type, insertMode: 'between', from: parent, to, children: children.map((child) => child.key) });
    // A default path the file does not have (an experiment of one variant, or with no control) goes at once, with what only it leads to.
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
 * The paths a new branch brings (creation.ts), named by the file's keys: the default control is
 * the file's control, the other default paths the file's first others (one the file lacks is
 * unused; more are added after). Undefined for an experiment whose file has more than one control.
 */
function defaultChildren(type: CreatableNodeType, key: string, node: FileNode, wanted: WorkflowFile): DefaultChild[] | undefined {
  const controls = type === 'ExperimentBranchNode' ? node.next.filter((child) => wanted.nodes[child]?.isControl === true) : [];
  if (controls.length > 1) return undefined;
  const others = node.next.filter((child) => !controls.includes(child));
  let taken = 0;
  return defaultPathsOf(type).map((path, position) => {
    const child = path.isControl ? controls[0] : others[taken++];
    return child === undefined
      ? { key: `${key}-unused-${position}`, type: path.type, isControl: path.isControl, unused: true }
      : { key: child, type: path.type, isControl: path.isControl };
  });
}

/** Each node's fields as the file has them: one update per node, with what differs (a trigger's type too). */
function configurations(graph: Nodes, wanted: WorkflowFile, steps: WorkflowStep[], leftInApp: string[]): void {
  for (const [key, node] of Object.entries(wanted.nodes)) {
    const current = graph.get(key);
    if (current === undefined) continue;
    const have = fieldsOf(current);
    const want = fieldsOf(node);
    const payload: Record<string, unknown> = {};
    if (current.type !== node.type) {
      if (!isTrigger(current.type) || !isTrigger(node.type)) continue;
      payload.typeName = node.type;
      current.type = node.type;
    }
    for (const field of new Set([...Object.keys(have), ...Object.keys(want)])) {
      // A field an update clears with null is the same absent or null (`audienceFilter: null`, "object or null").
      const value = clearedByNull().has(field) && want[field] === null ? undefined : want[field];
      const held = clearedByNull().has(field) && have[field] === null ? undefined : have[field];
      if (field === 'email' || isDeepStrictEqual(held, value)) continue;
      if (readOnlyFields().has(field)) {
        if (value !== undefined) leftInApp.push(`${key}: ${field} ${JSON.stringify(value)}`);
        continue;
      }
      // Left out of the file: a segment or filter is cleared (null), any other field left as the account has it.
      if (value === undefined && !clearedByNull().has(field)) continue;
      payload[field] = value === undefined ? null : value;
      if (value === undefined) delete current[field];
      else current[field] = value;
    }
    if (Object.keys(payload).length > 0) steps.push({ op: 'updateWorkflowNode', key, payload });
  }
}

/** The connections still to move: each from a node with one, to where the file says; the node it left must keep another. */
function reroutes(graph: Nodes, wanted: WorkflowFile, steps: WorkflowStep[], impossible: string[]): void {
  // A connection to an exit the file does not have goes with that exit (exitDeletions), after these.
  const lasting = (next: string[]) => next.filter((key) => wanted.nodes[key] !== undefined || graph.get(key)?.type !== 'ExitAction');
  let pending = [...graph]
    .filter(([key, node]) => wanted.nodes[key] !== undefined && !samePaths(node.type, lasting(node.next), wanted.nodes[key]!.next))
    .map(([key]) => key);
  while (pending.length > 0) {
    const ready = pending.find((key) => {
      const target = wanted.nodes[key]!.next;
      if (target.length !== 1 || !graph.has(target[0]!)) return false;
      return rerouteProblem(graphOfKeyed(graph), (candidate) => graph.get(candidate)?.type, wanted.root, key, target[0]!) === undefined;
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
