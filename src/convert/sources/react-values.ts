/**
 * The values a React Email template writes out in full, read without running anything: literals
 * (strings, numbers, booleans, arrays and objects of them, template strings of them), constants of
 * the file that hold them, and the few operations over them whose result the text alone decides:
 * spreads, `.filter` with a predicate of those same operations, `.slice`, `.concat`, `.join`,
 * `.split`, a string's case, `Object.keys`, `values` and `entries`, comparisons, `!`, `&&`, `||`,
 * `??` and `? :`. A function call of anything else, or a name the file does not bind to a literal,
 * is not known: the caller lists it, as it always did. An array is read no further than
 * MAX_STATIC_ITEMS entries; the rest is left out, and said.
 */

import { type Findings, type Place, type SourceNode, text } from '../model.js';

// Babel's tree, loosely typed: only the fields read here.
// biome-ignore lint/suspicious/noExplicitAny: Babel's node types are not a dependency of the build
type Node = any;

/** JSX held as a value (a step's `Description: <li>…</li>` in a template's preview props): drawn where it is shown. */
export class JsxValue {
  constructor(readonly node: Node) {}
}

/** A value known from the text alone. */
export type Static = string | number | boolean | null | undefined | JsxValue | readonly Static[] | { readonly [key: string]: Static };

/** What is not known without running the app. */
export const UNKNOWN: unique symbol = Symbol('unknown');
export type Known = Static | typeof UNKNOWN;

/** An array literal is read this far; a longer one is cut there and listed. */
export const MAX_STATIC_ITEMS = 1000;

/** Names in scope: a `.map` callback's parameters, bound to each item in turn. */
export type Scope = ReadonlyMap<string, Static>;

const WRAPPERS = new Set(['TSAsExpression', 'TSSatisfiesExpression', 'TSNonNullExpression', 'TSTypeAssertion', 'ParenthesizedExpression']);

const isObject = (value: Known): value is { readonly [key: string]: Static } =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof JsxValue);

export class StaticReader {
  /** Array literals cut at MAX_STATIC_ITEMS, for the caller to list. */
  readonly cut = new Set<Node>();
  /** Names being read, so that a constant defined by itself is not followed for ever. */
  private readonly reading = new Set<string>();
  /** Objects that hold some of their keys only (the props a template's PreviewProps give): a key not there is not known, not undefined. */
  readonly partial = new WeakSet<object>();

  /** Lists each array cut at its bound, once, at its place. */
  listCut(findings: Findings, at: (node: Node) => Place): void {
    for (const array of this.cut) {
      this.cut.delete(array);
      findings.add(
        at(array),
        `an array of more than ${MAX_STATIC_ITEMS.toLocaleString('en-US')} items`,
        'dropped',
        `its first ${MAX_STATIC_ITEMS.toLocaleString('en-US')} items written, the rest left out`,
        'an email shows a few items: send the list the app builds as one data variable',
      );
    }
  }

  /**
   * `lookup` gives the expression a name of the file (or a module of literals it imports) is bound
   * to; with `jsx`, JSX is a value too (JsxValue), as props hold it, where otherwise it is not known.
   */
  constructor(
    private readonly lookup: (name: string) => Node | undefined,
    private readonly jsx = false,
  ) {}

  value(node: Node, scope: Scope = new Map()): Known {
    if (node === undefined || node === null) return UNKNOWN;
    if (WRAPPERS.has(node.type)) return this.value(node.expression, scope);
    switch (node.type) {
      case 'StaticValue':
        // A value read elsewhere (a module of literals the template imports), handed in as it is.
        return node.value;
      case 'StringLiteral':
      case 'NumericLiteral':
      case 'BooleanLiteral':
        return node.value;
      case 'NullLiteral':
        return null;
      case 'TemplateLiteral':
        return this.template(node, scope);
      case 'Identifier':
        return this.name(node.name, scope);
      case 'ArrayExpression':
        return this.array(node, scope);
      case 'ObjectExpression':
        return this.object(node, scope);
      case 'MemberExpression':
      case 'OptionalMemberExpression':
        return this.member(node, scope);
      case 'UnaryExpression':
        return this.unary(node, scope);
      case 'LogicalExpression':
        return this.logical(node, scope);
      case 'ConditionalExpression': {
        const test = this.value(node.test, scope);
        return test === UNKNOWN ? UNKNOWN : this.value(test ? node.consequent : node.alternate, scope);
      }
      case 'BinaryExpression':
        return this.binary(node, scope);
      case 'CallExpression':
      case 'OptionalCallExpression':
        return this.call(node, scope);
      case 'JSXElement':
      case 'JSXFragment':
        return this.jsx ? new JsxValue(node) : UNKNOWN;
      default:
        return UNKNOWN;
    }
  }

  private name(name: string, scope: Scope): Known {
    if (scope.has(name)) return scope.get(name);
    if (name === 'undefined') return undefined;
    const bound = this.lookup(name);
    if (bound === undefined || this.reading.has(name)) return UNKNOWN;
    this.reading.add(name);
    try {
      return this.value(bound, new Map());
    } finally {
      this.reading.delete(name);
    }
  }

  private template(node: Node, scope: Scope): Known {
    let text = '';
    for (const [index, quasi] of (node.quasis as Node[]).entries()) {
      text += quasi.value.cooked ?? '';
      if (index >= node.expressions.length) continue;
      const part = this.value(node.expressions[index], scope);
      if (part === UNKNOWN || typeof part === 'object') return UNKNOWN;
      text += String(part);
    }
    return text;
  }

  private array(node: Node, scope: Scope): Known {
    const items: Static[] = [];
    for (const element of node.elements as Node[]) {
      if (items.length >= MAX_STATIC_ITEMS) {
        this.cut.add(node);
        break;
      }
      if (element === null) items.push(undefined);
      else if (element.type === 'SpreadElement') {
        const spread = this.value(element.argument, scope);
        if (!Array.isArray(spread)) return UNKNOWN;
        items.push(...spread);
      } else {
        const item = this.value(element, scope);
        if (item === UNKNOWN) return UNKNOWN;
        items.push(item);
      }
    }
    return items.slice(0, MAX_STATIC_ITEMS);
  }

  private object(node: Node, scope: Scope): Known {
    const object: Record<string, Static> = {};
    for (const property of node.properties as Node[]) {
      if (property.type === 'SpreadElement') {
        const spread = this.value(property.argument, scope);
        if (!isObject(spread)) return UNKNOWN;
        Object.assign(object, spread);
        continue;
      }
      if (property.type !== 'ObjectProperty') return UNKNOWN;
      const key = property.computed ? this.value(property.key, scope) : (property.key.name ?? property.key.value);
      if (typeof key !== 'string' && typeof key !== 'number') return UNKNOWN;
      const value = this.value(property.value, scope);
      if (value === UNKNOWN) return UNKNOWN;
      object[String(key)] = value;
    }
    return object;
  }

  private member(node: Node, scope: Scope): Known {
    const object = this.value(node.object, scope);
    if (object === UNKNOWN) return UNKNOWN;
    if (object === undefined || object === null) return node.optional ? undefined : UNKNOWN;
    const key = node.computed ? this.value(node.property, scope) : node.property.name;
    if (typeof key !== 'string' && typeof key !== 'number') return UNKNOWN;
    if (key === 'length' && (typeof object === 'string' || Array.isArray(object))) return object.length;
    if (Array.isArray(object)) return typeof key === 'number' ? object[key] : UNKNOWN;
    if (typeof object === 'string') return typeof key === 'number' ? object[key] : UNKNOWN;
    if (!isObject(object) || this.partial.has(object)) return isObject(object) && Object.hasOwn(object, key) ? object[key] : UNKNOWN;
    return Object.hasOwn(object, key) ? object[key] : undefined;
  }

  private unary(node: Node, scope: Scope): Known {
    const argument = this.value(node.argument, scope);
    if (argument === UNKNOWN) return UNKNOWN;
    if (node.operator === '!') return !argument;
    if (node.operator === '-' && typeof argument === 'number') return -argument;
    return UNKNOWN;
  }

  private logical(node: Node, scope: Scope): Known {
    const left = this.value(node.left, scope);
    if (left === UNKNOWN) return UNKNOWN;
    if (node.operator === '&&') return left ? this.value(node.right, scope) : left;
    if (node.operator === '||') return left ? left : this.value(node.right, scope);
    return left ?? this.value(node.right, scope);
  }

  private binary(node: Node, scope: Scope): Known {
    const [left, right] = [this.value(node.left, scope), this.value(node.right, scope)];
    if (left === UNKNOWN || right === UNKNOWN || typeof left === 'object' || typeof right === 'object') return UNKNOWN;
    switch (node.operator) {
      case '===':
      case '==':
        return left === right;
      case '!==':
      case '!=':
        return left !== right;
      case '+':
        return typeof left === 'number' && typeof right === 'number' ? left + right : `${String(left)}${String(right)}`;
      case '<':
        return (left as number) < (right as number);
      case '>':
        return (left as number) > (right as number);
      case '<=':
        return (left as number) <= (right as number);
      case '>=':
        return (left as number) >= (right as number);
      default:
        return UNKNOWN;
    }
  }

  /** The calls whose result the text decides; `.map` is the caller's (it makes JSX). */
  private call(node: Node, scope: Scope): Known {
    const callee = WRAPPERS.has(node.callee?.type) ? node.callee.expression : node.callee;
    if (callee?.type !== 'MemberExpression' && callee?.type !== 'OptionalMemberExpression') return UNKNOWN;
    const method = callee.computed ? undefined : callee.property.name;
    const args = node.arguments as Node[];
    if (callee.object.type === 'Identifier' && callee.object.name === 'Object' && !scope.has('Object') && this.lookup('Object') === undefined) {
      const object = this.value(args[0], scope);
      if (!isObject(object)) return UNKNOWN;
      if (method === 'keys') return Object.keys(object);
      if (method === 'values') return Object.values(object);
      if (method === 'entries') return Object.entries(object);
      return UNKNOWN;
    }
    const target = this.value(callee.object, scope);
    const known = args.map((argument) =>
      argument.type === 'ArrowFunctionExpression' || argument.type === 'FunctionExpression' ? UNKNOWN : this.value(argument, scope),
    );
    if (typeof target === 'string') {
      if (method === 'split' && typeof known[0] === 'string') return target.split(known[0]);
      if (method === 'toUpperCase') return target.toUpperCase();
      if (method === 'toLowerCase') return target.toLowerCase();
      if (method === 'trim') return target.trim();
      return UNKNOWN;
    }
    if (!Array.isArray(target)) return UNKNOWN;
    if (method === 'slice' && known.every((value) => value === undefined || typeof value === 'number'))
      return target.slice(known[0] as number | undefined, known[1] as number | undefined);
    if (method === 'concat' && known.every((value) => value !== UNKNOWN)) return target.concat(...(known as Static[]));
    if (method === 'join' && (known[0] === undefined || typeof known[0] === 'string')) return target.join(known[0] as string | undefined);
    if (method === 'filter') return this.filter(target, args[0], scope);
    return UNKNOWN;
  }

  /** `.filter(Boolean)`, or a predicate of one or two parameters whose body this reads. */
  private filter(items: readonly Static[], predicate: Node, scope: Scope): Known {
    if (predicate?.type === 'Identifier' && predicate.name === 'Boolean') return items.filter(Boolean);
    const kept: Static[] = [];
    for (const [index, item] of items.entries()) {
      const inner = bindParameters(predicate, item, index, scope);
      if (inner === undefined) return UNKNOWN;
      const body = returnedExpression(predicate);
      const test = body === undefined ? UNKNOWN : this.value(body, inner);
      if (test === UNKNOWN) return UNKNOWN;
      if (test) kept.push(item);
    }
    return kept;
  }
}

/** A value as React shows it in JSX: its text, JSX as `drawn` reads it, an array's items one after another, nothing for false, null and undefined. */
export function shownOf(value: Static, at: Place, drawn: (jsx: Node) => SourceNode[]): SourceNode[] {
  if (typeof value === 'string' || typeof value === 'number') return [text(String(value), at)];
  if (value instanceof JsxValue) return drawn(value.node);
  if (Array.isArray(value)) return value.flatMap((item) => shownOf(item, at, drawn));
  return [];
}

/** Whether an expression reads a name a `.map` callback binds (`step.title`), not a prop. */
export function readsScope(node: Node, scope: Scope): boolean {
  let root = node;
  while (root?.type === 'MemberExpression' || root?.type === 'OptionalMemberExpression') root = root.object;
  return root?.type === 'Identifier' && scope.has(root.name);
}

/** The expression a callback returns: its body, or its block's one return. */
export function returnedExpression(callback: Node): Node | undefined {
  if (callback?.type !== 'ArrowFunctionExpression' && callback?.type !== 'FunctionExpression') return undefined;
  if (callback.body.type !== 'BlockStatement') return callback.body;
  const statements = callback.body.body as Node[];
  return statements.length === 1 && statements[0].type === 'ReturnStatement' ? statements[0].argument : undefined;
}

/**
 * The scope a callback's body is read in for one item: its first parameter bound to the item (a
 * name, or an object or array pattern of names), its second to the index. Undefined for a
 * parameter of another form.
 */
export function bindParameters(callback: Node, item: Static, index: number, scope: Scope): Scope | undefined {
  if (callback?.type !== 'ArrowFunctionExpression' && callback?.type !== 'FunctionExpression') return undefined;
  const bound = new Map(scope);
  const [first, second] = callback.params as Node[];
  if (first !== undefined && !bindPattern(first, item, bound)) return undefined;
  if (second !== undefined && !bindPattern(second, index, bound)) return undefined;
  return bound;
}

function bindPattern(pattern: Node, value: Static, bound: Map<string, Static>): boolean {
  if (pattern.type === 'Identifier') {
    bound.set(pattern.name, value);
    return true;
  }
  if (pattern.type === 'AssignmentPattern') return bindPattern(pattern.left, value, bound);
  if (pattern.type === 'ObjectPattern' && isObject(value)) {
    for (const property of pattern.properties as Node[]) {
      if (property.type !== 'ObjectProperty' || property.computed) return false;
      const key = property.key.name ?? property.key.value;
      if (!bindPattern(property.value, value[key], bound)) return false;
    }
    return true;
  }
  if (pattern.type === 'ArrayPattern' && Array.isArray(value)) {
    return (pattern.elements as Node[]).every((element, index) => element === null || bindPattern(element, value[index], bound));
  }
  return false;
}
