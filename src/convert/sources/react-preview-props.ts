/**
 * The lists a React Email template's own `PreviewProps` give its props, for `content convert
 * --preview-props`: `Email.PreviewProps = {…}` is what React Email's preview renders the template
 * with. Only the lists are taken (steps, links, headlines): the app passes such content unchanged,
 * where a single value (a name, an address) is the recipient's and stays a variable.
 */

import { type Node, unwrap } from './react-syntax.js';
import { type Static, StaticReader } from './react-values.js';

export class PreviewLists {
  private readonly lists = new Map<string, Static>();
  /** The lists a `.map` read since it started reading, each listed once where it is first written out. */
  private readonly read = new Set<string>();
  private readonly listed = new Set<string>();

  /** Reads the default export's `PreviewProps`; `literalOf` gives the module's constants and imported literals. */
  constructor(program: Node, literalOf: (name: string) => Node | undefined) {
    const component = componentName(program);
    for (const statement of program.body) {
      const assignment = statement.type === 'ExpressionStatement' ? statement.expression : undefined;
      const target = assignment?.type === 'AssignmentExpression' ? assignment.left : undefined;
      if (target?.type !== 'MemberExpression' || target.object.type !== 'Identifier' || target.object.name !== component) continue;
      if (target.computed || target.property.name !== 'PreviewProps') continue;
      // Each prop read on its own, JSX as a value (a step's `Description: <li>…</li>`): one the text cannot know leaves the others.
      const reader = new StaticReader(literalOf, true);
      let object = unwrap(assignment.right);
      // `{…} as Props`, `{…} satisfies Props`: the object inside.
      while (object?.type === 'TSAsExpression' || object?.type === 'TSSatisfiesExpression') object = unwrap(object.expression);
      for (const property of object?.type === 'ObjectExpression' ? object.properties : []) {
        if (property.type !== 'ObjectProperty' || property.computed) continue;
        const value = reader.value(property.value);
        if (Array.isArray(value)) this.lists.set(property.key.name ?? property.key.value, value);
      }
    }
  }

  /** A prop's list (a destructured `steps`, or `props` whose lists only are known), as a value the static reader takes. */
  listOf(name: string, props: ReadonlySet<string>, propsObject: string | undefined, statics: StaticReader): Node | undefined {
    if (name === propsObject && this.lists.size > 0) {
      const lists = Object.fromEntries(this.lists);
      statics.partial.add(lists);
      for (const key of this.lists.keys()) this.read.add(key);
      return { type: 'StaticValue', value: lists };
    }
    if (!props.has(name) || !this.lists.has(name)) return undefined;
    this.read.add(name);
    return { type: 'StaticValue', value: this.lists.get(name) };
  }

  /** How many items `PreviewProps` gives a prop's list; undefined where it gives none. */
  itemsOf(name: string): number | undefined {
    const list = this.lists.get(name);
    return Array.isArray(list) ? list.length : undefined;
  }

  /** Before a list is read: what an earlier condition read is not this list's. */
  startReading(): void {
    this.read.clear();
  }

  /** The lists read since, not listed yet. */
  unlisted(): string[] {
    return [...this.read].filter((name) => !this.listed.has(name));
  }

  markListed(name: string): void {
    this.listed.add(name);
  }
}

/** The name of the email's component, the default export's (`Email.PreviewProps` is set on it). */
function componentName(program: Node): string | undefined {
  for (const statement of program.body)
    if (statement.type === 'ExportDefaultDeclaration')
      return statement.declaration.type === 'Identifier' ? statement.declaration.name : statement.declaration.id?.name;
  return undefined;
}
