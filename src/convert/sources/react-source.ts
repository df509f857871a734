/**
 * A React Email template read, never run: Babel's parser reads the file, and the JSX its
 * component returns is walked with what can be known without running anything: the props (which
 * become variables), string and template constants, and style objects written in the file. What
 * needs the app to run (process.env, a function call, another module's component) is listed, and
 * no code from the repository is ever executed.
 */
import { LocalFileError } from '../../base/errors.js';
import { countOf } from '../../render/numbers.js';
import type { SourceDocument } from '../document.js';
import { element, type Findings, type Place, type SourceElement, type SourceNode, type Style, text } from '../model.js';
import { chooseBranch, listChoice } from './react-branches.js';
import { markdownComponent } from './react-markdown.js';
import { ImportedValues, type ModuleReader } from './react-modules.js';
import { PreviewLists } from './react-preview-props.js';

import {
  cleanJsxText,
  defaultComponent,
  findBody,
  functionOf,
  markComputed,
  type Node,
  notReactEmail,
  parseTemplate,
  plainText,
  propPathOf,
  renderedAs,
  snippet,
  styleOf,
  tailwindTheme,
  unwrap,
  writtenJsx,
} from './react-syntax.js';
import { bindParameters, readsScope, returnedExpression, type Scope, type Static, StaticReader, shownOf, UNKNOWN } from './react-values.js';
import { TailwindClasses } from './tailwind.js';

const PACKAGES = /^(@react-email\/[\w-]+|react-email)$/;

class ReactReader {
  /** Constants of the module and the component: strings, template strings, objects. */
  private readonly constants = new Map<string, Node>();
  private readonly props = new Set<string>();
  private propsObject: string | undefined;
  /** Local names of React Email's components, by their names in the package. */
  private readonly imported = new Map<string, string>();
  /** Constants already listed as needing the app to run. */
  private readonly unknowable = new Set<string>();
  /** Components of this file being written in place: one that renders itself is not followed again. */
  private readonly inlining = new Set<string>();
  /** Values written out in full (literals, constants of them, a module of literals'), never run. */
  private readonly statics = new StaticReader((name) => this.literalOf(name));
  /** The names a `.map` callback binds, for the item being written. */
  private scope: Scope = new Map();
  /** The props' defaults the text writes out (`type = 'verification'`): a condition over them shows the branch they choose. */
  private readonly propDefaults = new Map<string, Static>();
  /** Whether what is read is outside the body's text (an attribute, the subject, the preview): a branch left out there counts no words. */
  private outside = false;
  private readonly importedValues: ImportedValues;
  /** The `<Tailwind>` wrappers the element read is inside, whose classes become styles. */
  private readonly tailwind: TailwindClasses;
  previewText?: string;
  /** A `<title>` (in its `<Head>`), or the module's exported `subject` string, which wins. */
  subject?: string;
  private exportedSubject?: string;
  /** With --preview-props: the lists the template's own `PreviewProps` give its props. */
  private previewLists: PreviewLists | undefined;
  private program: Node | undefined;
  private previewRead: PreviewLists | undefined;

  constructor(
    private readonly file: string,
    /** The file's text: a variable quotes its expression from it. */
    private readonly text: string,
    private readonly findings: Findings,
    readModule?: ModuleReader,
    private readonly previewProps = false,
  ) {
    this.importedValues = new ImportedValues(readModule, findings);
    this.tailwind = new TailwindClasses(findings);
  }

  /** The lists the template's `PreviewProps` give, read once: its content with --preview-props, a hint without. */
  private previewOf(): PreviewLists {
    this.previewRead ??= new PreviewLists(this.program!, (name) => this.literalOf(name));
    return this.previewRead;
  }

  /** A name's binding for the static reader: a constant's expression, an imported literal, or a list the preview props give. */
  private literalOf(name: string): Node | undefined {
    const constant = this.constants.get(name);
    if (constant !== undefined) return constant.type === 'FunctionDeclaration' ? undefined : constant;
    const imported = this.importedValues.value(name);
    if (imported !== undefined) return { type: 'StaticValue', value: imported.value };
    return this.previewLists?.listOf(name, this.props, this.propsObject, this.statics);
  }

  at(node: Node): Place {
    return { file: this.file, line: node.loc?.start.line ?? 1, column: (node.loc?.start.column ?? 0) + 1 };
  }

  read(program: Node): SourceDocument {
    for (const statement of program.body) {
      if (statement.type === 'ImportDeclaration' && PACKAGES.test(statement.source.value)) {
        for (const specifier of statement.specifiers)
          if (specifier.type === 'ImportSpecifier') this.imported.set(specifier.local.name, specifier.imported.name);
      } else if (statement.type === 'ImportDeclaration' && statement.importKind !== 'type')
        for (const specifier of statement.specifiers)
          this.importedValues.note(
            specifier.local.name,
            statement.source.value,
            specifier.type === 'ImportSpecifier' ? (specifier.imported.name ?? specifier.imported.value) : 'default',
            this.at(statement),
          );
      const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
      if (declaration?.type === 'VariableDeclaration') for (const declarator of declaration.declarations) this.bind(declarator);
      if (statement.type === 'ExportNamedDeclaration' && declaration?.type === 'VariableDeclaration') this.exportSubject(declaration);
      if (declaration?.type === 'FunctionDeclaration' && declaration.id) this.constants.set(declaration.id.name, declaration);
    }
    if (this.imported.size === 0) throw notReactEmail(this.file, program);
    const component = defaultComponent(program, this.file, (name) => this.constants.get(name));
    this.program = program;
    if (this.previewProps) this.previewLists = this.previewOf();
    const jsx = this.returned(component);
    if (jsx === undefined)
      throw new LocalFileError(
        `${this.file}:${this.at(component).line}:${this.at(component).column}: the component returns no JSX that can be read without running it`,
        {
          hint: 'the template must return its email as JSX (return <Html>…</Html>)',
        },
      );
    const nodes = this.jsx(jsx);
    const body = findBody(nodes) ?? element('body', this.at(jsx), nodes);
    const lang = nodes.find((node): node is SourceElement => node.type === 'element' && node !== body && node.attrs.lang !== undefined)?.attrs.lang?.trim();
    return { body, previewText: this.previewText, subject: this.exportedSubject ?? this.subject, ...(lang ? { lang } : {}) };
  }

  /** `export const subject = '…'` (or a template string): the email's subject, as the app that sends it reads it. */
  private exportSubject(declaration: Node): void {
    for (const declarator of declaration.declarations) {
      const value = unwrap(declarator.init);
      if (declarator.id?.name !== 'subject' || (value?.type !== 'StringLiteral' && value?.type !== 'TemplateLiteral')) continue;
      this.exportedSubject = this.spelledOutside(() => this.expression(value)) || undefined;
    }
  }

  private bind(declarator: Node): void {
    if (declarator.id?.type === 'Identifier' && declarator.init) this.constants.set(declarator.id.name, declarator.init);
  }

  /** The JSX a function returns, its props noted. */
  private returned(fn: Node): Node | undefined {
    const target = functionOf(fn);
    if (target === undefined) return undefined;
    const [parameter] = target.params;
    if (parameter?.type === 'ObjectPattern') {
      for (const property of parameter.properties) {
        if (property.type !== 'ObjectProperty') continue;
        const name = property.value.type === 'AssignmentPattern' ? property.value.left.name : property.value.name;
        this.props.add(name ?? property.key.name);
        // A literal default (`minutes = 30`) is the value's fallback.
        const fallback = property.value.type === 'AssignmentPattern' ? property.value.right : undefined;
        if (name !== undefined && (fallback?.type === 'StringLiteral' || fallback?.type === 'NumericLiteral'))
          this.findings.defaults.set(name, { value: String(fallback.value), at: this.at(property) });
        const known = fallback === undefined ? UNKNOWN : this.statics.value(fallback);
        if (name !== undefined && known !== UNKNOWN) this.propDefaults.set(name, known);
      }
    } else if (parameter?.type === 'Identifier') this.propsObject = parameter.name;
    if (target.body.type !== 'BlockStatement') return unwrap(target.body);
    for (const statement of target.body.body) {
      if (statement.type === 'VariableDeclaration') for (const declarator of statement.declarations) this.bind(declarator);
      if (statement.type === 'ReturnStatement') return unwrap(statement.argument);
    }
    return undefined;
  }

  /** A JSX node as the mapper's nodes. */
  private jsx(node: Node): SourceNode[] {
    switch (node?.type) {
      case 'JSXElement':
        return this.element(node);
      case 'JSXFragment':
        return node.children.flatMap((child: Node) => this.jsx(child));
      case 'JSXText': {
        const cleaned = cleanJsxText(node.value);
        return cleaned === '' ? [] : [text(cleaned, this.at(node))];
      }
      case 'JSXExpressionContainer':
        return node.expression.type === 'JSXEmptyExpression' ? [] : this.expression(node.expression);
      default:
        return [];
    }
  }

  /** An expression in JSX: a prop is a variable, a constant its value, logic listed and its JSX kept. */
  private expression(node: Node): SourceNode[] {
    const at = this.at(node);
    const path = this.inScope(node) ? undefined : this.propPath(node);
    // The variable quotes the expression as the template writes it (`{props.user.name}`).
    if (path !== undefined) return [{ type: 'variable', path, source: `{${this.text.slice(node.start, node.end)}}`, at }];
    const written = this.written(node, at);
    if (written !== undefined) return written;
    if (node.type === 'StringLiteral' || node.type === 'NumericLiteral') return [text(String(node.value), at)];
    if (node.type === 'TemplateLiteral') return this.template(node);
    if (node.type === 'Identifier' && this.constants.has(node.name)) return this.constant(node.name, at);
    if (node.type === 'JSXElement' || node.type === 'JSXFragment') return this.jsx(node);
    if (node.type === 'LogicalExpression' || node.type === 'ConditionalExpression') return this.condition(node, at);
    if (
      (node.type === 'CallExpression' || node.type === 'OptionalCallExpression') &&
      (node.callee.type === 'MemberExpression' || node.callee.type === 'OptionalMemberExpression') &&
      node.callee.property.name === 'map'
    ) {
      const expanded = this.expandMap(node);
      if (expanded !== undefined) return expanded;
      // A list of a prop that the template's PreviewProps write out: the flag that takes them is named where it would help.
      const list = node.callee.object.type === 'Identifier' ? node.callee.object.name : undefined;
      const items = this.previewProps || list === undefined || !this.props.has(list) ? undefined : this.previewOf().itemsOf(list);
      this.findings.add(
        at,
        'a loop in JSX (.map)',
        'flattened',
        'the loop dropped: its body kept once',
        items === undefined
          ? 'send the repeated part as one data variable the app builds, or make it a component'
          : `send the repeated part as one data variable the app builds, or convert again with --preview-props to write out the ${countOf(items, 'item')} the template's PreviewProps give ${list}`,
      );
      const callback = node.arguments[0];
      const item = callback?.params?.[0];
      if (item?.type === 'Identifier') this.props.add(item.name);
      const body =
        callback?.body?.type === 'BlockStatement'
          ? callback.body.body.find((statement: Node) => statement.type === 'ReturnStatement')?.argument
          : callback?.body;
      return body === undefined ? [] : this.expression(unwrap(body));
    }
    this.findings.add(
      at,
      `the expression ${snippet(node)}`,
      'dropped',
      'not read: its value is computed when the app runs',
      'compute it in the app and send it as a variable',
    );
    return [];
  }

  /** One branch of a condition (react-branches.ts); `{name || 'there'}` is the variable with its fallback. */
  private condition(node: Node, at: Place): SourceNode[] {
    const path = node.type === 'LogicalExpression' && node.operator !== '&&' && !this.inScope(node.left) ? this.propPath(node.left) : undefined;
    const fallback = path === undefined ? UNKNOWN : this.statics.value(node.right, this.scope);
    if (path !== undefined && (typeof fallback === 'string' || typeof fallback === 'number') && !this.findings.defaults.has(path.join('.'))) {
      this.findings.defaults.set(path.join('.'), { value: String(fallback), at: this.at(node.right) });
      return this.expression(node.left);
    }
    const test = node.type === 'LogicalExpression' ? node.left : node.test;
    const byText = this.statics.value(test, this.scope);
    const byDefaults = byText === UNKNOWN ? this.statics.value(test, new Map([...this.propDefaults, ...this.scope])) : byText;
    const choice = chooseBranch(node, byText, byDefaults);
    listChoice(this.findings, node, choice, (node) => this.at(node), !this.outside);
    return 'node' in choice.shown ? this.expression(choice.shown.node) : shownOf(choice.shown.value, at, this.drawnValue);
  }

  /** Text and variables as one string for the fields, each variable as the template writes it. */
  private spelled(nodes: readonly SourceNode[]): string {
    for (const node of nodes) if (node.type === 'variable') this.findings.spellings.set(`{{${node.path.join('.')}}}`, node.source);
    return plainText(nodes);
  }

  /** An expression's text as React shows it (nothing for false, null, undefined); undefined where not known. */
  private written(node: Node, at: Place): SourceNode[] | undefined {
    if (node.type === 'JSXElement' || node.type === 'JSXFragment') return undefined;
    const value = this.statics.value(node, this.scope);
    this.statics.listCut(this.findings, (node) => this.at(node));
    return value === UNKNOWN ? undefined : shownOf(value, at, this.drawnValue);
  }

  /** JSX held as a value (in the preview props), read where it is shown, in the module's scope it was written in. */
  private readonly drawnValue = (node: Node): SourceNode[] => {
    const outer = this.scope;
    this.scope = new Map();
    try {
      return this.jsx(node);
    } finally {
      this.scope = outer;
    }
  };

  /**
   * `items.map((item, index) => <…/>)` over a list the text writes out in full (a literal, a
   * constant of one, a module of literals', filtered, sliced or spread): the callback's JSX written
   * once for each item, the item's values in place. Undefined where the list is not known.
   */
  private expandMap(node: Node): SourceNode[] | undefined {
    // The preview lists this list is read from, not those a condition before it read.
    this.previewLists?.startReading();
    const items = this.statics.value(node.callee.object, this.scope);
    this.statics.listCut(this.findings, (node) => this.at(node));
    const fromPreview = this.previewLists?.unlisted() ?? [];
    if (!Array.isArray(items)) return undefined;
    for (const name of fromPreview) {
      this.previewLists!.markListed(name);
      this.findings.add(
        this.at(node),
        `the prop ${name} (a list)`,
        'approximated',
        `written out from the template's PreviewProps (--preview-props): ${countOf(items.length, 'item')}`,
        'every recipient sees these items: keep them, or send the list the app builds as one data variable',
      );
    }
    const callback = node.arguments[0];
    const body = returnedExpression(callback);
    const scopes = items.map((item, index) => bindParameters(callback, item, index, this.scope));
    if (body === undefined || scopes.some((scope) => scope === undefined)) return undefined;
    const outer = this.scope;
    try {
      return scopes.flatMap((scope) => {
        this.scope = scope!;
        return this.expression(unwrap(body));
      });
    } finally {
      this.scope = outer;
    }
  }

  /** A constant of the file: its value when it is written out (text, props), else listed once and left out. */
  private constant(name: string, at: Place): SourceNode[] {
    const value = this.constants.get(name);
    if (this.knowable(value)) return this.expression(value);
    if (!this.unknowable.has(name)) {
      this.unknowable.add(name);
      this.findings.add(
        at,
        `the value of ${name}`,
        'dropped',
        'left out: it is computed when the app runs (an environment variable, a call)',
        `write the value out where ${name} is used`,
      );
    }
    return [];
  }

  /** Whether an expression's value is known without running anything: literals, props, constants of them. */
  private knowable(node: Node): boolean {
    if (node === undefined) return false;
    if (['StringLiteral', 'NumericLiteral', 'JSXElement', 'JSXFragment'].includes(node.type)) return true;
    if (this.propPath(node) !== undefined) return true;
    if (node.type === 'TemplateLiteral') return node.expressions.every((expression: Node) => this.knowable(expression));
    if (node.type === 'Identifier') return this.constants.has(node.name) && this.knowable(this.constants.get(node.name));
    return false;
  }

  private propPath(node: Node): string[] | undefined {
    return propPathOf(node, this.props, this.propsObject);
  }

  private inScope(node: Node): boolean {
    return readsScope(node, this.scope);
  }

  private template(node: Node): SourceNode[] {
    const nodes: SourceNode[] = [];
    node.quasis.forEach((quasi: Node, index: number) => {
      if (quasi.value.cooked !== '') nodes.push(text(quasi.value.cooked, this.at(quasi)));
      if (index < node.expressions.length) nodes.push(...this.expression(node.expressions[index]));
    });
    return nodes;
  }

  /** An attribute's value as text, props as template variables (`{{inviteLink}}`) for the mapper. */
  private attributeText(value: Node): string | undefined {
    if (value === null || value === undefined) return 'true';
    if (value.type === 'StringLiteral') return value.value;
    const expression = value.type === 'JSXExpressionContainer' ? value.expression : value;
    return this.spelledOutside(() => this.expression(expression));
  }

  /** Text read outside the body's (an attribute, the subject, the preview) as one string. */
  private spelledOutside(read: () => SourceNode[]): string {
    const outer = this.outside;
    this.outside = true;
    try {
      return this.spelled(read());
    } finally {
      this.outside = outer;
    }
  }

  private element(node: Node): SourceNode[] {
    const opening = node.openingElement;
    const at = this.at(node);
    const tag = opening.name.type === 'JSXIdentifier' ? opening.name.name : snippet(opening.name);
    const attrs: Record<string, string> = {};
    let style: Style = {};
    let classes: Style = {};
    const markdownStyles: Record<string, Node> = {};
    for (const attribute of opening.attributes) {
      if (attribute.type !== 'JSXAttribute') continue;
      const name = attribute.name.name;
      if (name === 'style') style = styleOf(attribute.value, (name) => this.constants.get(name));
      else if ((name === 'markdownCustomStyles' || name === 'markdownContainerStyles') && this.imported.get(tag) === 'Markdown')
        markdownStyles[name] = attribute.value;
      else if (name === 'className') classes = this.tailwind.style(() => this.attributeText(attribute.value) ?? '', at);
      else if (name === 'config' && tag === 'Tailwind') this.tailwind.configure(tailwindTheme(attribute.value, (name) => this.constants.get(name)));
      else if (name !== 'key') {
        const value = this.attributeText(attribute.value);
        if (value !== undefined) attrs[name === 'htmlFor' ? 'for' : name] = value;
        if (value === '') markComputed(attrs, name, attribute.value);
      }
    }
    // A style written on the element wins over its classes, as the Tailwind component merges them.
    style = { ...classes, ...style };
    const children = () => node.children.flatMap((child: Node) => this.jsx(child));
    const imported = this.imported.get(tag);
    if (tag === 'title') {
      this.subject = this.spelledOutside(children).trim() || undefined;
      return [];
    }
    if (/^[a-z]/.test(tag)) return [element(tag, at, children(), attrs, style)];
    const local = imported === undefined && !this.inlining.has(tag) ? writtenJsx(this.constants.get(tag)) : undefined;
    if (local !== undefined) {
      // A component of this file: its JSX is here to read, as the email's own is; nothing is run.
      this.findings.add(
        at,
        `<${tag}>, a component of this file`,
        'flattened',
        'what it returns written in place, the props it is given not followed',
        'check its blocks in the preview; a part several emails share can be a component in Loops',
      );
      this.inlining.add(tag);
      try {
        return [...this.jsx(local), ...children()];
      } finally {
        this.inlining.delete(tag);
      }
    }
    if (imported === undefined) {
      this.findings.add(
        at,
        `<${tag}>, a component of the app`,
        'listed',
        'not run: only the JSX written inside it in this file is kept',
        'it needs the app to run: convert what it renders (its own file), or make it a component in Loops',
      );
      return children();
    }
    return imported === 'Markdown'
      ? markdownComponent(
          at,
          markdownStyles,
          children(),
          (name) => this.constants.get(name),
          this.findings,
          (nodes) => this.spelled(nodes),
        )
      : this.emailComponent(imported, at, attrs, style, children);
  }

  private emailComponent(name: string, at: Place, attrs: Record<string, string>, style: Style, children: () => SourceNode[]): SourceNode[] {
    switch (name) {
      case 'Preview':
        this.previewText = this.spelledOutside(children);
        return [];
      case 'Tailwind':
        return this.tailwind.within(children);
      default: {
        const made = renderedAs(name, at, attrs, style, children);
        if (made === undefined) {
          this.findings.add(at, `<${name}>`, 'listed', 'not carried: its content kept', 'check the converted blocks against the original');
          return children();
        }
        return [made];
      }
    }
  }
}

/** A React Email template, read without running it; with `previewProps`, the lists its `PreviewProps` give are its content. */
export function readReact(source: string, file: string, findings: Findings, readModule?: ModuleReader, previewProps = false): SourceDocument {
  return new ReactReader(file, source, findings, readModule, previewProps).read(parseTemplate(source, file));
}
