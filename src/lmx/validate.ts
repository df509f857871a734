/**
 * The rules of the LMX specification applied to a parsed document: which tags stand where, the
 * content each takes, their attributes, the counts of columns, list items and icons, one
 * <Style />, and which variables an email of each kind may use. Where the specification is silent
 * the choice is the editor's (see docs/sandbox.md, "LMX").
 */

import { FALLBACK_FIELDS } from '../platform/email-messages/fallbacks.js';
import { valueProblem, WIDTHS } from './attribute-values.js';
import { guardianProblems } from './guardian.js';
import { type LmxAttribute, type LmxDocument, type LmxElement, type LmxNode, type LmxText, type LmxVariable, parseLmx, selfClosed } from './parse.js';
import { inSourceOrder, type LmxPosition, type LmxProblem, type LmxRule, type LmxSeverity } from './problems.js';
import { tooLargeProblem, utf8Length } from './source.js';
import { KNOWN_ICON_NAMES, LMX_MAX_BYTES, LMX_TAGS, type LmxKind, type LmxTagSpec, NAMESPACES_OF_KIND, TOP_LEVEL_TAGS } from './tags.js';

export interface LmxCheckOptions {
  /** The kind of email (or a component) the LMX is the body of: decides the variables it may use. Unchecked when absent. */
  kind?: LmxKind;
  /** The ids of the components the account has: a <Component> naming another is a warning. Unchecked when absent. */
  componentIds?: ReadonlySet<string>;
}

const KIND_NOUNS: Record<LmxKind, string> = {
  transactional: 'a transactional email',
  campaign: 'a campaign',
  workflow: 'a workflow email',
  component: 'a component',
};

/** Tags authors write from HTML, MJML or older LMX, and the tag they mean. */
const MEANT: Record<string, string> = {
  p: 'Paragraph',
  h1: 'H1',
  h2: 'H2',
  h3: 'H3',
  b: 'Strong',
  strong: 'Strong',
  bold: 'Strong',
  i: 'Em',
  em: 'Em',
  italic: 'Em',
  u: 'Underline',
  s: 'Strike',
  del: 'Strike',
  strikethrough: 'Strike',
  a: 'Link',
  img: 'Image',
  hr: 'Divider',
  br: 'Br',
  ul: 'UnorderedList',
  ol: 'OrderedList',
  li: 'ListItem',
  blockquote: 'Quote',
  pre: 'CodeBlock',
  code: 'Code',
  span: 'Text',
  div: 'Section',
  section: 'Section',
  button: 'Button',
};

const VARIABLE_ATTRIBUTES = '<Button href>, <Link href>, <Image alt, href, dynamicSrc> and <Section href>';

class Validator {
  readonly problems: LmxProblem[] = [];
  private styles = 0;
  /** The tags enclosing the one being checked, outermost first. */
  private readonly ancestors: LmxTagSpec[] = [];

  constructor(private readonly options: LmxCheckOptions) {}

  private report(severity: LmxSeverity, rule: LmxRule, at: LmxPosition, message: string, fix: string): void {
    this.problems.push({ severity, rule, message, fix, line: at.line, column: at.column, offset: at.offset });
  }

  document(document: LmxDocument): void {
    this.children(undefined, document.children);
  }

  /** The children of a tag (or, without one, of the top level). */
  private children(parent: LmxTagSpec | undefined, children: LmxNode[]): void {
    const content = parent?.content ?? 'none';
    let first = true;
    for (const node of children) {
      if (node.kind === 'text') {
        if (content === 'none' && node.value.trim() !== '') this.misplacedText(parent, firstVisible(node), `text ${where(parent)}`);
      } else if (node.kind === 'variable') {
        if (content === 'none') this.misplacedText(parent, node.position, `the variable ${node.source} ${where(parent)}`, 'variable-placement');
        else this.namespace(node);
      } else {
        this.element(parent, node, first);
        first = false;
      }
    }
  }

  private misplacedText(parent: LmxTagSpec | undefined, at: LmxPosition, what: string, rule: LmxRule = 'text-placement'): void {
    const fix =
      parent === undefined || parent.children.includes('Paragraph')
        ? 'wrap it in a block such as <Paragraph>...</Paragraph>'
        : parent.children.includes('ListItem')
          ? 'put it in a <ListItem>'
          : parent.name === 'Columns'
            ? 'put it in a <ColumnItem>, in a block such as <Paragraph>'
            : parent.name === 'Icons'
              ? 'an icon row holds <Icon /> tags only: remove it'
              : `<${parent.name} /> has no content: write <${parent.name} ... />`;
    this.report('error', rule, at, `${what}: it must stand in a block`, fix);
  }

  private element(parent: LmxTagSpec | undefined, element: LmxElement, first: boolean): void {
    const spec = LMX_TAGS.get(element.name);
    if (spec === undefined) {
      this.unknownTag(element);
      return;
    }
    this.placement(parent, spec, element);
    if (spec.name === 'Style') {
      this.styles += 1;
      if (this.styles > 1)
        this.report(
          'error',
          'one-style',
          element.position,
          'a second <Style />: a document has at most one',
          'merge its attributes into the first <Style /> and remove this one',
        );
      else if (parent === undefined && !first)
        this.report(
          'warning',
          'style-first',
          element.position,
          '<Style /> is not the first tag',
          'move it to the start of the document, where the editor writes it',
        );
    }
    for (const attribute of element.attributes) this.attribute(spec, attribute);
    this.required(spec, element);
    this.counts(spec, element);
    this.ancestors.push(spec);
    this.children(spec, element.children);
    this.ancestors.pop();
  }

  private unknownTag(element: LmxElement): void {
    const name = element.name;
    const known = [...LMX_TAGS.keys()].find((tag) => tag.toLowerCase() === name.toLowerCase());
    const meant = known ?? MEANT[name.toLowerCase()];
    const meantSpec = meant === undefined ? undefined : LMX_TAGS.get(meant);
    const fix =
      meantSpec !== undefined
        ? `write ${meantSpec.selfClosing ? selfClosed(meantSpec) : `<${meantSpec.name}>`}${known === undefined ? '' : ': tags are case-sensitive'}`
        : `${name.startsWith('mj-') ? 'MJML is not LMX: use' : 'use one of'} the LMX tags: ${[...LMX_TAGS.keys()].join(', ')}`;
    this.report('error', 'unknown-tag', element.position, `<${name}> is not an LMX tag`, fix);
  }

  private placement(parent: LmxTagSpec | undefined, spec: LmxTagSpec, element: LmxElement): void {
    const name = spec.name;
    // A component's body is itself inside the <Component> that embeds it.
    if (name === 'Component' && this.options.kind === 'component') {
      this.report(
        'error',
        'placement',
        element.position,
        '<Component> in a component: components do not nest',
        'write the blocks it stands for here, or embed both components in the email instead',
      );
      return;
    }
    let excluding: LmxTagSpec | undefined;
    for (const ancestor of this.ancestors) if (ancestor.excludes?.includes(name)) excluding = ancestor;
    if (excluding !== undefined) {
      const nouns: Record<string, string> = { Section: 'sections', Columns: 'columns', Component: 'components', Link: 'links' };
      this.report(
        'error',
        'placement',
        element.position,
        `<${name}> inside <${excluding.name}>: ${nouns[name] ?? 'these tags'} do not nest`,
        `close the outer <${excluding.name}> before this one`,
      );
      return;
    }
    const allowed = parent === undefined ? TOP_LEVEL_TAGS.includes(name) : parent.children.includes(name);
    if (allowed) return;
    this.report('error', 'placement', element.position, `<${name}> cannot stand ${where(parent)}`, placementFix(parent, spec));
  }

  private attribute(spec: LmxTagSpec, attribute: LmxAttribute): void {
    const tag = `<${spec.name}>`;
    const known = Object.hasOwn(spec.attributes, attribute.name) ? spec.attributes[attribute.name] : undefined;
    if (known === undefined) {
      this.report(
        'warning',
        'unknown-attribute',
        attribute.position,
        `${tag} has no attribute ${attribute.name}; it has no effect`,
        unknownAttributeFix(spec, attribute.name),
      );
      return;
    }
    // Most values are one piece of text: no list to make for them.
    const variables =
      attribute.parts.length === 1 && attribute.parts[0]!.kind === 'text'
        ? []
        : attribute.parts.filter((part): part is LmxVariable => part.kind === 'variable');
    if (variables.length > 0 && !known.variables) {
      const fix =
        spec.name === 'Image' && attribute.name === 'src'
          ? `keep src a fixed URL (a placeholder) and put the dynamic one in dynamicSrc="${attribute.value}"`
          : `write a fixed value: variables stand only in ${VARIABLE_ATTRIBUTES}`;
      this.report('error', 'variable-placement', attribute.position, `${attribute.name} on ${tag} takes no variables`, fix);
      return;
    }
    for (const variable of variables) this.namespace(variable);
    // An empty required value is the required rule's to report, once.
    const problem = known.required && attribute.value.trim() === '' ? undefined : valueProblem(known, attribute, spec);
    if (problem !== undefined)
      this.report(
        problem.severity ?? 'error',
        'attribute-value',
        attribute.position,
        `${attribute.name}="${attribute.value}" on ${tag}: ${problem.message}`,
        problem.fix,
      );
    if (spec.name === 'Icon' && attribute.name === 'name') this.iconName(attribute);
    if (spec.name === 'Component' && attribute.name === 'componentId') {
      const ids = this.options.componentIds;
      if (ids !== undefined && attribute.value !== '' && !ids.has(attribute.value)) {
        this.report(
          'warning',
          'unknown-component',
          attribute.position,
          `${attribute.value} is not among the account's components`,
          'use an id from `loopsctl components list`; in a pulled tree, name a component by its directory (`footer--<id>`), or pull the components too (`loopsctl content pull --only components`)',
        );
      }
    }
  }

  private iconName(attribute: LmxAttribute): void {
    const name = attribute.value;
    if (name === '') return;
    // Font Awesome's class prefixes (fa-, fab-...) are not part of an icon's name.
    if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(name) || /^fa[bsr]?-/.test(name)) {
      const bare = name
        .replace(/^fa[bsr]?-/i, '')
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '');
      this.report(
        'error',
        'icon-name',
        attribute.position,
        `"${name}" is not a Font Awesome icon name`,
        `write the bare name in lowercase with dashes: name="${bare}"`,
      );
    } else if (!KNOWN_ICON_NAMES.has(name)) {
      this.report(
        'warning',
        'icon-name',
        attribute.position,
        `loopsctl does not know the icon "${name}"; the platform refuses names Font Awesome lacks`,
        'check the name against Font Awesome (twitter, linkedin, github, envelope, link, phone...)',
      );
    }
  }

  private required(spec: LmxTagSpec, element: LmxElement): void {
    for (const name of requiredOf(spec)) {
      const given = element.attributes.find((candidate) => candidate.name === name);
      const example = REQUIRED_EXAMPLES[`${spec.name}.${name}`] ?? `${name}="..."`;
      if (given === undefined) this.report('error', 'required-attribute', element.position, `<${spec.name}> needs ${name}`, `add ${example}`);
      else if (given.value.trim() === '')
        this.report('error', 'required-attribute', given.position, `${name} on <${spec.name}> is empty`, `give it a value: ${example}`);
    }
  }

  private counts(spec: LmxTagSpec, element: LmxElement): void {
    if (spec.minChildren === undefined && spec.maxChildren === undefined) return;
    let items = 0;
    for (const child of element.children) if (child.kind === 'element' && spec.children.includes(child.name)) items += 1;
    const item = spec.children[0]!;
    const min = spec.minChildren ?? 0;
    const max = spec.maxChildren ?? Number.POSITIVE_INFINITY;
    if (items >= min && items <= max) {
      if (spec.name === 'Columns') this.widths(element, items);
      return;
    }
    const needs = max === Number.POSITIVE_INFINITY ? `at least ${min}` : min === max ? `${min}` : `${min} to ${max}`;
    const fix =
      items < min
        ? spec.name === 'Columns'
          ? 'add a <ColumnItem>, or drop the <Columns> and keep its content'
          : `add ${item === 'Icon' ? '<Icon name="..." />' : `<${item}>...</${item}>`}`
        : spec.name === 'Columns'
          ? 'split them over two <Columns>'
          : `split them over two <${spec.name}>`;
    this.report('error', 'child-count', element.position, `<${spec.name}> has ${items} <${item}>; it needs ${needs}`, fix);
  }

  /** widths names one percentage per column; the specification's examples add up to 100. */
  private widths(element: LmxElement, columns: number): void {
    const attribute = element.attributes.find((candidate) => candidate.name === 'widths');
    if (attribute === undefined || !WIDTHS.test(attribute.value)) return;
    const widths = attribute.value.split(',').map((width) => Number(width.trim()));
    const even = Array.from({ length: columns }, (_, index) => Math.floor(100 / columns) + (index < 100 % columns ? 1 : 0)).join(',');
    if (widths.length !== columns) {
      this.report(
        'error',
        'attribute-value',
        attribute.position,
        `widths names ${widths.length} columns; the <Columns> has ${columns}`,
        `give one percentage per column, such as widths="${even}"`,
      );
      return;
    }
    const total = widths.reduce((sum, width) => sum + width, 0);
    // Decimals may not add up exactly: 33.3,33.3,33.4 is 100.
    if (Math.abs(total - 100) > 0.01)
      this.report(
        'warning',
        'attribute-value',
        attribute.position,
        `widths adds up to ${total}%, not 100%`,
        `make them add up to 100, such as widths="${even}"`,
      );
  }

  private namespace(variable: LmxVariable): void {
    const kind = this.options.kind;
    if (kind === undefined || NAMESPACES_OF_KIND[kind].includes(variable.namespace)) return;
    const takes = NAMESPACES_OF_KIND[kind];
    const message = `${variable.source} in ${KIND_NOUNS[kind]}, which takes ${takes.map((namespace) => `{${namespace}.*}`).join(' and ')} only`;
    this.report('error', 'variable-namespace', variable.position, message, namespaceFix(kind, variable));
  }
}

/** The required attributes of each tag, listed once rather than for every element. */
const REQUIRED = new Map<LmxTagSpec, string[]>();
function requiredOf(spec: LmxTagSpec): string[] {
  let names = REQUIRED.get(spec);
  if (names === undefined) {
    names = Object.entries(spec.attributes).flatMap(([name, attribute]) => (attribute.required ? [name] : []));
    REQUIRED.set(spec, names);
  }
  return names;
}

const REQUIRED_EXAMPLES: Record<string, string> = {
  'Image.src': 'src="https://..." (a fixed URL; a dynamic one goes in dynamicSrc)',
  'Link.href': 'href="https://..."',
  'Component.componentId': 'componentId="..." (an id from `loopsctl components list`)',
  'Icon.name': 'name="..." (a Font Awesome name such as twitter)',
};

/** Where a text's first character that is not a space stands, for text that starts with line breaks. */
function firstVisible(text: LmxText): LmxPosition {
  const leading = /^\s*/.exec(text.value)![0];
  const lastBreak = leading.lastIndexOf('\n');
  const { line, column, offset } = text.position;
  if (lastBreak < 0) return { line, column: column + leading.length, offset: offset + leading.length };
  return { line: line + leading.split('\n').length - 1, column: leading.length - lastBreak, offset: offset + leading.length };
}

function where(parent: LmxTagSpec | undefined): string {
  return parent === undefined ? 'at the top level' : `in <${parent.name}>`;
}

function placementFix(parent: LmxTagSpec | undefined, spec: LmxTagSpec): string {
  const name = spec.name;
  if (name === 'Style') return 'move it to the start of the document: <Style /> stands at the top level only';
  // A list, <Columns> or <Icons> holds one kind of child: the tag goes in one only if that child may hold it.
  const only = parent?.children.length === 1 ? LMX_TAGS.get(parent.children[0]!) : undefined;
  if (only !== undefined && spec.placement !== 'child')
    return only.children.includes(name) ? `wrap it in a <${only.name}>` : `close the <${parent!.name}> before it: it holds only <${only.name}> tags`;
  if (spec.placement === 'inline') {
    if (parent?.content === 'text') return `button text takes no tags: write the text without <${name}>`;
    if (parent?.content === 'raw') return `a code block holds literal text: write the tag as text, &lt;${name}&gt;`;
    if (parent?.content === 'none' && parent.selfClosing) return `<${parent.name} /> has no content: write <${parent.name} ... />`;
    return 'wrap it in a block such as <Paragraph>';
  }
  if (spec.placement === 'child') return `put it in ${spec.parents!.map((tag) => `<${tag}>`).join(' or ')}`;
  if (parent === undefined) return 'this cannot happen';
  if (parent.content === 'inline' || parent.content === 'text' || parent.content === 'raw')
    return `close the <${parent.name}> before it: blocks do not stand in text`;
  if (parent.selfClosing) return `<${parent.name} /> has no content: write <${parent.name} ... />`;
  return `<${parent.name}> holds ${parent.children.map((tag) => `<${tag}>`).join(', ')}`;
}

function unknownAttributeFix(spec: LmxTagSpec, name: string): string {
  if (spec.name === 'Button' && name === 'size') return 'the old size attribute is gone: set fontSize, innerXPadding and innerYPadding';
  if (spec.name === 'Icon' && name === 'color') return 'set color on the <Icons> row: #000000, #808080 or #ffffff';
  if (name.toLowerCase() === 'fallback') return `LMX has no fallbacks: set them on the email message (${FALLBACK_FIELDS.contact}, ${FALLBACK_FIELDS.event})`;
  const names = Object.keys(spec.attributes);
  const cased = names.find((known) => known.toLowerCase() === name.toLowerCase());
  if (cased !== undefined) return `write ${cased}: attribute names are case-sensitive`;
  return names.length === 0 ? `remove it: <${spec.name}> takes no attributes` : `remove it; <${spec.name}> takes ${names.join(', ')}`;
}

function namespaceFix(kind: LmxKind, variable: LmxVariable): string {
  const { name } = variable;
  if (kind === 'transactional') return `write {data.${name}} and send ${name} in the dataVariables of each send`;
  if (variable.namespace === 'event') return `event properties exist only in workflow emails: use a contact property, {contact.${name}}`;
  return `data variables exist only in transactional emails: use {contact.${name}}${kind === 'workflow' ? ` or {event.${name}}` : ''}`;
}

/** A document's problems under the specification's rules (its syntax problems are parseLmx's). */
export function validateLmx(document: LmxDocument, options: LmxCheckOptions = {}): LmxProblem[] {
  const validator = new Validator(options);
  validator.document(document);
  return validator.problems;
}

/**
 * Parses and validates: every problem, errors and warnings, in source order. A source over the
 * API's 100 KB limit is not read: its one problem says so.
 */
export function checkLmx(source: string, options: LmxCheckOptions = {}): { document: LmxDocument; problems: LmxProblem[] } {
  const bytes = utf8Length(source);
  if (bytes > LMX_MAX_BYTES) return { document: { kind: 'document', children: [] }, problems: [tooLargeProblem(bytes)] };
  const { document, problems } = parseLmx(source);
  // Guardian's rules run here too, so that content check and the sandbox judge by one rule set.
  return { document, problems: inSourceOrder([...problems, ...validateLmx(document, options), ...guardianProblems(document)]) };
}
