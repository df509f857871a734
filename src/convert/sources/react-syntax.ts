/**
 * What the React Email reader reads of Babel's tree apart from the template's meaning: React
 * Email's components as the mapper's elements, a style object's CSS, a component's function and
 * the JSX it returns, React's rule for text in JSX, and the shapes TypeScript wraps expressions in.
 */
import { parse } from '@babel/parser';
import { LocalFileError } from '../../base/errors.js';
import { sideOf } from '../layout/layout-intrinsic.js';
import { COMPUTED, element, nestedTooDeep, type Place, type SourceElement, type SourceNode, type Style, text } from '../model.js';
import type { TailwindTheme } from './tailwind.js';

// Babel's tree, loosely typed: only the fields read here.
// biome-ignore lint/suspicious/noExplicitAny: Babel's node types are not a dependency of the build
export type Node = any;

/** CSS properties written in camel case (`backgroundColor`) as CSS's (`background-color`); numbers are pixels. */
export function cssOf(object: Record<string, unknown>): Style {
  const style: Style = {};
  for (const [key, value] of Object.entries(object)) {
    if (value === undefined || value === null) continue;
    const property = key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
    style[property] = typeof value === 'number' && !['font-weight', 'line-height', 'opacity', 'z-index'].includes(property) ? `${value}px` : String(value);
  }
  return style;
}

/** Auto side margins, unless the style gives a margin of its own. */
export function centred(style: Style): Style {
  return style.margin !== undefined || style['margin-left'] !== undefined || style['margin-right'] !== undefined
    ? {}
    : { 'margin-left': 'auto', 'margin-right': 'auto' };
}

/** The function a component is (`memo(…)` and `forwardRef(…)` unwrapped), or undefined. */
export function functionOf(node: Node | undefined): Node | undefined {
  const target = node?.type === 'CallExpression' ? node.arguments[0] : node;
  return ['ArrowFunctionExpression', 'FunctionExpression', 'FunctionDeclaration'].includes(target?.type) ? target : undefined;
}

/** The JSX a component of the file returns, as written (its own variables not followed), or undefined. */
export function writtenJsx(node: Node | undefined): Node | undefined {
  const target = functionOf(node);
  if (target === undefined) return undefined;
  const body = target.body.type === 'BlockStatement' ? target.body.body.find((statement: Node) => statement.type === 'ReturnStatement')?.argument : target.body;
  const jsx = unwrap(body);
  return jsx?.type === 'JSXElement' || jsx?.type === 'JSXFragment' ? jsx : undefined;
}

/** `firstName`, `props.user.firstName`: the path of a prop (a name of `props`, or of the object `propsObject` names), or undefined for anything else. */
export function propPathOf(node: Node, props: ReadonlySet<string>, propsObject: string | undefined): string[] | undefined {
  if (node.type === 'Identifier') return props.has(node.name) ? [node.name] : undefined;
  if (node.type !== 'MemberExpression' && node.type !== 'OptionalMemberExpression') return undefined;
  if (node.computed) return undefined;
  if (node.object.type === 'Identifier' && node.object.name === propsObject) return [node.property.name];
  const inner = propPathOf(node.object, props, propsObject);
  return inner === undefined ? undefined : [...inner, node.property.name];
}

/** Text and variables as one string, a variable written `{{x}}` for the fields' translation. */
export function plainText(nodes: readonly SourceNode[]): string {
  return nodes.map((node) => (node.type === 'text' ? node.text : node.type === 'variable' ? `{{${node.path.join('.')}}}` : '')).join('');
}

export function withoutTypes(node: Node): Node {
  return ['TSAsExpression', 'TSSatisfiesExpression', 'TSNonNullExpression', 'ParenthesizedExpression'].includes(node?.type)
    ? withoutTypes(node.expression)
    : node;
}

export function unwrap(node: Node): Node {
  return node?.type === 'ParenthesizedExpression' ? unwrap(node.expression) : node;
}

/** React's rule for text in JSX: lines trimmed, blank lines dropped, the rest joined with spaces. */
export function cleanJsxText(value: string): string {
  const lines = value.split(/\r\n|\n|\r/);
  if (lines.length === 1) return value;
  return lines
    .map((line, index) => {
      let trimmed = line;
      if (index !== 0) trimmed = trimmed.replace(/^[ \t]+/, '');
      if (index !== lines.length - 1) trimmed = trimmed.replace(/[ \t]+$/, '');
      return trimmed;
    })
    .filter((line) => line !== '')
    .join(' ');
}

export function snippet(node: Node): string {
  if (node.type === 'Identifier' || node.type === 'JSXIdentifier') return node.name;
  if (node.type === 'MemberExpression' || node.type === 'JSXMemberExpression') return `${snippet(node.object)}.${snippet(node.property)}`;
  if (node.type === 'CallExpression') return `${snippet(node.callee)}(…)`;
  return `(${node.type})`;
}

export function findBody(nodes: SourceNode[]): SourceElement | undefined {
  for (const node of nodes) {
    if (node.type !== 'element') continue;
    if (node.name === 'body') return node;
    const found = findBody(node.children);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** React Email draws these as tables, which the layout model sizes as a browser sizes a table: as wide as what they hold at least. */
const DRAWN_AS_TABLES: ReadonlySet<string> = new Set(['Body', 'Container', 'Section', 'Row']);

/** A component's style, marked for the layout model where React Email draws it as a table. */
export function asTable(name: string, style: Style): Style {
  return DRAWN_AS_TABLES.has(name) ? { ...style, 'x-display': 'table' } : style;
}

/** React Email's components as the mapper's elements. */
export const COMPONENTS: Record<string, string> = {
  Html: 'div',
  Body: 'body',
  Container: 'div',
  Section: 'div',
  Row: 'x-columns',
  Column: 'x-column',
  Text: 'p',
  Link: 'a',
  Button: 'x-button',
  Img: 'img',
  Hr: 'hr',
  CodeInline: 'code',
  CodeBlock: 'pre',
  Heading: 'h1',
  Head: 'head',
  Font: 'head',
  Preview: 'x-preview',
  Tailwind: 'x-tailwind',
  Markdown: 'x-markdown',
};

/** A box's sides, in the order of a shorthand. */
const SIDES = ['top', 'right', 'bottom', 'left'] as const;

/**
 * The element React Email renders a component as, with the defaults it gives it; undefined for a
 * component it does not have (one of the app's).
 */
export function renderedAs(name: string, at: Place, attrs: Record<string, string>, style: Style, children: () => SourceNode[]): SourceElement | undefined {
  switch (name) {
    case 'Heading':
      return element(/^h[1-6]$/.test(attrs.as ?? '') ? attrs.as! : 'h1', at, children(), attrs, style);
    case 'CodeBlock':
      return element('pre', at, [text(attrs.code ?? '', at)], attrs, style);
    case 'Button': {
      // A button's padding is inside it (React Email writes it on the link): none of it is space around it. Its sides
      // may be set one by one (Tailwind's `px-5 py-3`, a style's `paddingTop`), over the shorthand or without it.
      const inside = Object.fromEntries(Object.entries(style).filter(([property]) => !property.startsWith('padding')));
      const padded = Object.keys(style).some((property) => property.startsWith('padding'));
      const padding = SIDES.map((side) => sideOf(style, 'padding', side) ?? '0').join(' ');
      return element('x-button', at, children(), attrs, { ...inside, 'x-inner-padding': padded ? padding : '' });
    }
    case 'Container':
      // A table centred (align="center") and 37.5em wide at most, as React Email renders it; a margin of its style wins.
      // A table: its width and max-width hold its padding, as a browser sizes a table.
      return element('div', at, children(), attrs, { 'max-width': '37.5em', 'box-sizing': 'border-box', ...centred(style), ...asTable(name, style) });
    case 'Text':
      // React Email's <Text> is 14 px on 24 px unless its style says otherwise.
      return element('p', at, children(), attrs, { 'font-size': '14px', 'line-height': '24px', ...style });
    case 'Hr':
      // React Email's <Hr> is a 1 px line of #eaeaea unless its style says otherwise.
      return element('hr', at, children(), attrs, { width: '100%', border: 'none', 'border-top': '1px solid #eaeaea', ...style });
    case 'Link':
      // React Email's <Link> is #067df7 unless its style says otherwise, not a browser's blue.
      return element('a', at, children(), attrs, { color: '#067df7', ...style });
    case 'Img':
      // React Email draws an image as a block: placed by its margins, never by the text's alignment.
      return element('img', at, children(), attrs, { display: 'block', ...style });
    default: {
      const mapped = COMPONENTS[name];
      return mapped === undefined ? undefined : element(mapped, at, children(), attrs, asTable(name, style));
    }
  }
}

/**
 * The value a property of an object literal holds (`track.container`, `styles['card']`), the
 * object followed through names and spreads (the last of a key written twice wins); undefined
 * where it is not a literal of the file. `depth` bounds a chain of names that leads back to itself.
 */
function propertyOf(node: Node, key: string, lookup: (name: string) => Node | undefined, depth = 0): Node | undefined {
  if (depth > 16) return undefined;
  const target = withoutTypes(node);
  if (target?.type === 'Identifier') {
    const value = lookup(target.name);
    return value === undefined ? undefined : propertyOf(value, key, lookup, depth + 1);
  }
  if (target?.type === 'MemberExpression') {
    const inner = memberOf(target, lookup, depth + 1);
    return inner === undefined ? undefined : propertyOf(inner, key, lookup, depth + 1);
  }
  if (target?.type !== 'ObjectExpression') return undefined;
  let found: Node | undefined;
  for (const property of target.properties) {
    if (property.type === 'SpreadElement') found = propertyOf(property.argument, key, lookup, depth + 1) ?? found;
    else if (property.type === 'ObjectProperty' && !property.computed && (property.key.name ?? property.key.value) === key) found = property.value;
  }
  return found;
}

/** What `object.key` (or `object['key']`) names, where the object is a literal of the file. */
function memberOf(node: Node, lookup: (name: string) => Node | undefined, depth = 0): Node | undefined {
  const key = node.computed ? (node.property.type === 'StringLiteral' ? node.property.value : undefined) : node.property.name;
  return key === undefined ? undefined : propertyOf(node.object, key, lookup, depth);
}

/** The colours and spacing a `<Tailwind config={…}>` literal adds to the default theme (`theme` and `theme.extend`); none where it is not a literal. */
export function tailwindTheme(value: Node, lookup: (name: string) => Node | undefined): TailwindTheme {
  const config = value?.type === 'JSXExpressionContainer' ? value.expression : value;
  const theme = { colors: {}, spacing: {} };
  for (const path of [['theme'], ['theme', 'extend']]) {
    const found = path.reduce<Node | undefined>((node, key) => (node === undefined ? undefined : propertyOf(node, key, lookup)), config);
    for (const kind of ['colors', 'spacing'] as const) {
      const values = found === undefined ? undefined : propertyOf(found, kind, lookup);
      Object.assign(theme[kind], values === undefined ? {} : objectOf(values, lookup));
    }
  }
  return theme;
}

/** An object literal of constants, spreads and properties of literals followed; a value that is not a constant is left out. */
export function objectOf(node: Node, lookup: (name: string) => Node | undefined, depth = 0): Record<string, unknown> | undefined {
  if (node?.type === 'Identifier' && lookup(node.name) !== undefined) return objectOf(lookup(node.name), lookup, depth);
  if (node?.type === 'MemberExpression') {
    const value = depth > 16 ? undefined : memberOf(node, lookup);
    return value === undefined ? undefined : objectOf(value, lookup, depth + 1);
  }
  if (node?.type === 'TSAsExpression' || node?.type === 'TSSatisfiesExpression') return objectOf(node.expression, lookup);
  if (node?.type !== 'ObjectExpression') return undefined;
  const object: Record<string, unknown> = {};
  for (const property of node.properties) {
    if (property.type === 'SpreadElement') Object.assign(object, objectOf(property.argument, lookup));
    else if (property.type === 'ObjectProperty') {
      const key = property.key.name ?? property.key.value;
      // `textAlign: 'center' as const`: TypeScript's wrappers say nothing of the value.
      const value = withoutTypes(property.value);
      if (value.type === 'StringLiteral' || value.type === 'NumericLiteral') object[key] = value.value;
      else if (value.type === 'UnaryExpression' && value.operator === '-' && value.argument.type === 'NumericLiteral') object[key] = -value.argument.value;
    }
  }
  return object;
}

/** An attribute read as empty marked computed when the app runs, where an expression gave it: not the empty value a source may write. */
export function markComputed(attrs: Record<string, string>, name: string, value: Node): void {
  if (value?.type === 'JSXExpressionContainer' && value.expression?.type !== 'StringLiteral')
    attrs[COMPUTED] = [attrs[COMPUTED], name].filter(Boolean).join(' ');
}

export function styleOf(value: Node, lookup: (name: string) => Node | undefined): Style {
  const expression = value?.type === 'JSXExpressionContainer' ? value.expression : value;
  const object = objectOf(expression, lookup);
  return object === undefined ? {} : cssOf(object);
}

/** An object of style objects (`markdownCustomStyles`), each read as a `style` is; undefined where it is not written out in the file. */
export function stylesOf(value: Node, lookup: (name: string) => Node | undefined): Record<string, Style> | undefined {
  let node = withoutTypes(value?.type === 'JSXExpressionContainer' ? value.expression : value);
  if (node?.type === 'Identifier') node = withoutTypes(lookup(node.name));
  if (node?.type !== 'ObjectExpression') return undefined;
  const styles: Record<string, Style> = {};
  for (const property of node.properties) {
    const object = property.type === 'ObjectProperty' ? objectOf(property.value, lookup) : undefined;
    if (object === undefined) return undefined;
    styles[property.key.name ?? property.key.value] = cssOf(object);
  }
  return styles;
}

/**
 * Other libraries that build an email from JSX, whose components are not React Email's: each
 * renders its template to HTML, which convert reads, with a variable's name passed as its value.
 */
const OTHER_LIBRARIES: readonly { package: RegExp; name: string; build: string }[] = [
  {
    package: /^(jsx-email|@jsx-email\/[\w-]+)$/,
    name: 'jsx-email',
    build: `build it to HTML with jsx-email's CLI (npx email build <file> --out <dir> --props '{"name":"{{name}}"}', each prop given its name in braces), then convert the .html it writes`,
  },
  {
    package: /^(mjml-react|@faire\/mjml-react|@wix\/mjml-react)$/,
    name: 'mjml-react',
    build: "render it to MJML or HTML with mjml-react's render, each prop given its name in braces ({{name}}), then convert that file",
  },
];

/** The refusal of a module that imports nothing from React Email: what it is instead, where convert can tell, and how to convert it. */
export function notReactEmail(file: string, program: Node): LocalFileError {
  const sources: string[] = program.body.flatMap((statement: Node) => (statement.type === 'ImportDeclaration' ? [statement.source.value] : []));
  const other = OTHER_LIBRARIES.find((library) => sources.some((source) => library.package.test(source)));
  return new LocalFileError(
    other === undefined
      ? `${file}: not a React Email template (it imports nothing from @react-email/components or react-email)`
      : `${file}: a ${other.name} template, not React Email's: its components draw otherwise, so convert does not read them`,
    { hint: other?.build ?? 'name a .tsx or .jsx file whose email is built from @react-email/components' },
  );
}

/** A template's program as Babel parses it: JSX and TypeScript; what does not parse is the file's mistake, said at its line. */
export function parseTemplate(source: string, file: string): Node {
  let program: Node;
  try {
    program = parse(source, { sourceType: 'module', plugins: ['jsx', 'typescript'] }).program;
  } catch (error) {
    // Babel reads by recursion: a hostile depth ends its stack, the depth's refusal, not a parse error.
    if (error instanceof RangeError) throw nestedTooDeep(file);
    const { loc, message } = error as { loc?: { line: number; column: number }; message: string };
    throw new LocalFileError(
      `${file}${loc === undefined ? '' : `:${loc.line}:${loc.column + 1}`}: not JavaScript or TypeScript that parses (${message.replace(/ \(\d+:\d+\)$/, '')})`,
      {
        hint: 'name the .tsx or .jsx file of a React Email template',
      },
    );
  }
  return program;
}

/** The email's component: the default export, the declaration itself or the one of the file a name binds (`lookup`). */
export function defaultComponent(program: Node, file: string, lookup: (name: string) => Node | undefined): Node {
  for (const statement of program.body) {
    if (statement.type !== 'ExportDefaultDeclaration') continue;
    const declaration = statement.declaration;
    if (declaration.type !== 'Identifier') return declaration;
    const bound = lookup(declaration.name);
    if (bound !== undefined) return bound;
  }
  throw new LocalFileError(`${file}: no default export: the email's component cannot be found`, {
    hint: 'export the email component as the default export',
  });
}
