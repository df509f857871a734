/**
 * A node of a workflow file as the API's node, and back, by the file fields node-facets.ts
 * declares: a field under the API's name, a segment by its name for its id, a send-email node's
 * email by the path of its files for its message. Push, pull, `workflow show --file` and
 * `workflow test --file` all map nodes through these; what a name stands for in an account is
 * the caller's to say.
 */
import { emailPathOf, type FileNode } from './file.js';
import { type FileField, facetsOf, NODE_TYPE_NAMES } from './node-facets.js';
import { nodeType } from './node-types.js';

/** A node as the API holds it: its type, the nodes it leads to, and its type's fields. */
export type ApiNode = { typeName: string; nextNodeIds: string[] } & Record<string, unknown>;

/** Each file field by its name: a name stands for the same API field in every type that has it. */
const FILE_FIELDS = new Map<string, FileField>(NODE_TYPE_NAMES.flatMap((type) => Object.entries(facetsOf(type)!.file)));

/** What the names of a file stand for, as the API names them. */
export interface ApiNames {
  /** The id of the node a key names; the key itself when not given (a graph of keys). */
  nodeId?: (key: string) => string;
  /** The id of the segment of this name; undefined leaves the segment out. */
  segmentId: (name: string) => string | undefined;
  /** The API's fields of the email a send-email node names by the path of its files; none when not given. */
  email?: (path: string, key: string) => Record<string, unknown>;
}

/**
 * A file node's fields under the API's names (a node's fields, or an update's payload): null stays
 * null, which clears the field; a field no type declares keeps its name (the API is in alpha).
 */
export function toApiFields(fields: Record<string, unknown>, key: string, names: ApiNames): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    const field = FILE_FIELDS.get(name);
    if (field?.names === 'segment') {
      const id = value === null ? null : typeof value === 'string' ? names.segmentId(value) : undefined;
      if (id !== undefined) out[field.api ?? name] = id;
    } else if (field?.names === 'email') {
      if (typeof value === 'string') Object.assign(out, names.email?.(value, key));
    } else out[field?.api ?? name] = value;
  }
  return out;
}

/** The API's node a file's node (of key `key`) stands for; a type loopsctl does not know keeps its fields as they are. */
export function toApiNode(node: FileNode, key: string, names: ApiNames): ApiNode {
  const { type, next, ...fields } = node;
  const nodeId = names.nodeId ?? ((each: string) => each);
  return { typeName: type, nextNodeIds: next.map(nodeId), ...(facetsOf(type) === undefined ? fields : toApiFields(fields, key, names)) };
}

/** What the API's ids stand for in a file. */
export interface FileNames {
  /** The key of the node of this id. */
  nodeKey: (id: string) => string;
  /** The name of the segment of this id. */
  segmentName: (id: string) => string;
}

/**
 * The file's node (of key `key`) for the API's node: its type, next by key, its type's file fields
 * in order, a segment by its name and an email by the path a pull writes it at. A type loopsctl
 * does not know keeps every field it has (the API is in alpha).
 */
export function toFileNode(node: ApiNode, key: string, names: FileNames): FileNode {
  const out: FileNode = { type: node.typeName, next: node.nextNodeIds.map(names.nodeKey) };
  const facets = facetsOf(node.typeName);
  if (facets === undefined) {
    const { typeName: _type, nextNodeIds: _next, ...rest } = node;
    return Object.assign(out, rest);
  }
  for (const [name, field] of Object.entries(facets.file)) {
    const value = node[field.api ?? name];
    if (field.names === 'segment') {
      if (typeof value === 'string' && value !== '') out[name] = names.segmentName(value);
    } else if (field.names === 'email') {
      if (typeof value === 'string') out[name] = emailPathOf(key);
    } else if (value !== undefined) out[name] = value;
  }
  return out;
}

/** Whether the graph's (simplified) view of a node lacks a field its file keeps, so the node is read in full. */
export function needsFullView(typeName: string): boolean {
  const simplified = nodeType(typeName)?.simplified;
  const facets = facetsOf(typeName);
  if (simplified === undefined || facets === undefined) return false;
  return Object.entries(facets.file).some(([name, field]) => !simplified.includes(field.api ?? name));
}
