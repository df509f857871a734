/**
 * JavaScript and TypeScript read with a real parser (Babel's, with its TypeScript and JSX
 * plugins, loaded only when `check --code` runs): the object literals a send is made of, wherever
 * they stand. `{ transactionalId: "…", dataVariables: { … } }` is a transactional send, whether it
 * goes to the official SDK's `sendTransactionalEmail` or into a raw `POST /v1/transactional` body;
 * `{ eventName: "…" }` an event (`sendEvent`, `/v1/events/send`); `mailingLists: { "<id>": true }`
 * lists; the properties of `createContact` and `updateContact` contact properties.
 */
import type { CodeUse, FileScan } from './uses.js';
import { CONTACT_CALLS, KEYS, normalKey } from './uses.js';

/** The parts of Babel's tree read here (and by `migrate report`'s reading of other providers' sends). */
export interface Node {
  type: string;
  loc?: { start: { line: number; column: number } };
  [field: string]: unknown;
}

export type Parse = (text: string, options: Record<string, unknown>) => Node;

export const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';

/** A literal string's value: 'x', "x" and a template without expressions. */
export function stringOf(node: Node | undefined): string | undefined {
  if (node === undefined) return undefined;
  if (node.type === 'StringLiteral') return node.value as string;
  if (node.type === 'TemplateLiteral' && (node.expressions as unknown[]).length === 0) return ((node.quasis as Node[])[0]!.value as { cooked: string }).cooked;
  if (node.type === 'TSAsExpression' || node.type === 'TSSatisfiesExpression') return stringOf(node.expression as Node);
  return undefined;
}

export function keyOf(property: Node): string | undefined {
  if (property.type !== 'ObjectProperty' || property.computed === true) return undefined;
  const key = property.key as Node;
  return key.type === 'Identifier' ? (key.name as string) : stringOf(key);
}

/** The object's properties by their normalized key. */
export function propertiesOf(object: Node): Map<string, Node> {
  const found = new Map<string, Node>();
  for (const property of object.properties as Node[]) {
    const key = keyOf(property);
    if (key !== undefined) found.set(normalKey(key), property.value as Node);
  }
  return found;
}

/** An object literal's keys, each with its place; undefined when a spread or computed key hides some. */
export function literalKeys(node: Node | undefined): { key: string; at: Node }[] | undefined {
  if (node?.type !== 'ObjectExpression') return undefined;
  const keys: { key: string; at: Node }[] = [];
  for (const property of node.properties as Node[]) {
    const key = keyOf(property);
    if (key === undefined) return undefined;
    keys.push({ key, at: property });
  }
  return keys;
}

/** Fields of Babel's nodes that hold no node: where they are, comments, what the parser kept aside. */
const NOT_CHILDREN = new Set([
  'type',
  'loc',
  'start',
  'end',
  'range',
  'extra',
  'leadingComments',
  'trailingComments',
  'innerComments',
  'comments',
  'errors',
  'tokens',
]);

/**
 * Every node of the tree handed to `visit`, without recursion (a generated file can nest deeper
 * than the stack goes) and without allocating per node: one stack for the whole walk, fields read
 * in place.
 */
export function walk(root: Node, visit: (node: Node) => void): void {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) pending.push(value[index]);
    } else if (isNode(value)) {
      visit(value);
      for (const field in value) {
        if (NOT_CHILDREN.has(field)) continue;
        const child = value[field];
        if (typeof child === 'object' && child !== null) pending.push(child);
      }
    }
  }
}

/** TypeScript for .ts, TypeScript and JSX for .tsx, JSX for JavaScript (where `<T>` is not a type). */
export function pluginsFor(file: string): string[] {
  if (/\.[mc]?ts$/.test(file)) return ['typescript'];
  return file.endsWith('.tsx') ? ['typescript', 'jsx'] : ['jsx'];
}

/** The uses in one file; a file Babel cannot parse at all gives none, and says so (its errors are recovered where they can be). */
export function javascriptUses(parse: Parse, file: string, text: string): FileScan {
  let tree: Node;
  try {
    // Comments are not attached to nodes: nothing here reads them, and attaching them costs.
    tree = parse(text, { sourceType: 'unambiguous', errorRecovery: true, attachComment: false, plugins: pluginsFor(file) });
  } catch (error) {
    const why = error instanceof RangeError ? 'nested deeper than the parser goes' : 'not JavaScript or TypeScript that Babel can read';
    return { uses: [], unread: `the whole file: ${why}` };
  }
  const uses: CodeUse[] = [];
  const use = (kind: CodeUse['kind'], value: string, at: Node, extra: Partial<CodeUse> = {}) =>
    uses.push({ kind, value, file, line: at.loc!.start.line, column: at.loc!.start.column + 1, ...extra });
  walk(tree, (node) => {
    if (node.type === 'ObjectExpression') {
      const properties = propertiesOf(node);
      const transactional = properties.get(KEYS.transactional);
      const id = stringOf(transactional);
      if (id !== undefined) {
        const variables = literalKeys(properties.get(KEYS.dataVariables));
        use('transactional', id, transactional!, variables === undefined ? {} : { dataVariables: variables.map(({ key }) => key) });
      }
      const event = properties.get(KEYS.event);
      const eventName = stringOf(event);
      if (eventName !== undefined) use('event', eventName, event!);
      for (const { key, at } of literalKeys(properties.get(KEYS.lists)) ?? []) use('list', key, at);
    }
    if (node.type === 'CallExpression') {
      const callee = node.callee as Node;
      const name = callee.type === 'MemberExpression' ? ((callee.property as Node).name as string | undefined) : (callee.name as string | undefined);
      if (name === undefined || !CONTACT_CALLS.has(name)) return;
      const [first, second] = node.arguments as Node[];
      // The SDK's createContact({ email, properties }) and the older createContact(email, properties).
      const properties = first?.type === 'ObjectExpression' ? propertiesOf(first).get('properties') : second;
      for (const { key, at } of literalKeys(properties) ?? []) use('property', key, at);
    }
  });
  return { uses };
}
