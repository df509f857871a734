/**
 * The sandbox's reading of LMX, the XML-like markup of email bodies: enough to compile it (known
 * PascalCase tags, balanced), find the variables it uses, and run Guardian's checks on it. Only
 * the sandbox loads this; loopsctl itself sends and receives LMX as opaque text.
 */
import type { GuardianReport, GuardianRule, LmxWarning } from './schemas.js';

const TAGS = new Set([
  'Style', 'Component', 'H1', 'H2', 'H3', 'Paragraph', 'Button', 'Link', 'Image', 'Divider', 'Spacer',
  'Columns', 'ColumnItem', 'OrderedList', 'UnorderedList', 'ListItem', 'Bold', 'Italic', 'Quote', 'CodeBlock', 'Br',
]);

const TAG = /<(\/?)([A-Za-z][A-Za-z0-9]*)((?:\s+[A-Za-z][\w-]*="[^"]*")*)\s*(\/?)>/y;

export type VariableKind = 'contact' | 'event' | 'data';
export type ParentKind = 'transactional' | 'workflow' | 'campaign';

interface Element {
  name: string;
  attributes: Record<string, string>;
  /** The text between the tags, tags removed; '' for a self-closing tag. */
  text: string;
  line: number;
}

/** A body the API would refuse (422), with the reason. */
export class LmxCompileError extends Error {}

const lineAt = (lmx: string, index: number) => lmx.slice(0, index).split('\n').length;

/** The elements of a body in document order; throws LmxCompileError where it does not compile. */
export function parseLmx(lmx: string): Element[] {
  const elements: Element[] = [];
  const open: { element: Element; start: number }[] = [];
  for (let index = lmx.indexOf('<'); index >= 0; index = lmx.indexOf('<', index)) {
    TAG.lastIndex = index;
    const match = TAG.exec(lmx);
    if (match === null) throw new LmxCompileError(`malformed tag at line ${lineAt(lmx, index)}`);
    const [whole, closing, name, attributeText, selfClosing] = match as unknown as [string, string, string, string, string];
    if (!TAGS.has(name)) throw new LmxCompileError(`unknown tag <${name}> at line ${lineAt(lmx, index)}`);
    const end = index + whole.length;
    if (closing) {
      const top = open.pop();
      if (top?.element.name !== name) throw new LmxCompileError(`</${name}> at line ${lineAt(lmx, index)} closes ${top === undefined ? 'nothing' : `<${top.element.name}>`}`);
      top.element.text = lmx.slice(top.start, index).replace(/<[^>]*>/g, '').trim();
    } else {
      const attributes = Object.fromEntries([...attributeText.matchAll(/([A-Za-z][\w-]*)="([^"]*)"/g)].map(([, key, value]) => [key!, value!]));
      const element: Element = { name, attributes, text: '', line: lineAt(lmx, index) };
      elements.push(element);
      if (!selfClosing) open.push({ element, start: end });
    }
    index = end;
  }
  const unclosed = open.pop();
  if (unclosed !== undefined) throw new LmxCompileError(`<${unclosed.element.name}> at line ${unclosed.element.line} is never closed`);
  return elements;
}

/** Compiles a body: its warnings, or LmxCompileError. */
export function compileLmx(lmx: string): LmxWarning[] {
  return parseLmx(lmx)
    .filter((element) => element.name === 'Image' && !element.attributes.alt)
    .map((element) => ({ rule: 'imageWithoutAlt', severity: 'warning', message: 'screen readers skip an image without alt text', path: `line ${element.line}` }));
}

/** The variables a body uses, each once, in the order they first appear. */
export function variablesIn(lmx: string): { kind: VariableKind; name: string }[] {
  const seen = new Map<string, { kind: VariableKind; name: string }>();
  for (const [, kind, name] of lmx.matchAll(/\{(contact|event|data)\.([A-Za-z0-9_]+)\}/g)) seen.set(`${kind}.${name}`, { kind: kind as VariableKind, name: name! });
  return [...seen.values()];
}

const ACCEPTED: Record<ParentKind, VariableKind[]> = { transactional: ['data'], workflow: ['contact', 'event'], campaign: ['contact'] };

const UNSUPPORTED: Record<VariableKind, Pick<GuardianRule, 'rule' | 'title' | 'description'>> = {
  contact: { rule: 'unsupportedContactProperties', title: 'Contact property not available', description: 'Only campaign and workflow emails can show contact properties' },
  event: { rule: 'unsupportedEventProperties', title: 'Event property not available', description: 'Only workflow emails triggered by an event can show event properties' },
  data: { rule: 'unsupportedDataVariables', title: 'Data variable not available', description: 'Only transactional emails can show data variables' },
};

const MISSING_FALLBACK: Partial<Record<VariableKind, Pick<GuardianRule, 'rule' | 'title' | 'description'>>> = {
  contact: { rule: 'missingFallbackContactProperties', title: 'Contact property without fallback', description: 'Contacts without this property will see an empty space' },
  event: { rule: 'missingFallbackEventProperties', title: 'Event property without fallback', description: 'Events without this property will leave an empty space' },
};

/** Guardian's checks: links and buttons that go nowhere, and variables the email cannot fill. */
export function guardian(lmx: string, parent: ParentKind, fallbacks: Partial<Record<VariableKind, Record<string, string>>>): GuardianReport {
  const errors: GuardianRule[] = [];
  const warnings: GuardianRule[] = [];
  const add = (list: GuardianRule[], rule: Pick<GuardianRule, 'rule' | 'title' | 'description'>, items: GuardianRule['items']) => {
    if (items.length > 0) list.push({ ...rule, items });
  };
  let elements: Element[] = [];
  try {
    elements = parseLmx(lmx);
  } catch {
    // A body that does not compile was refused when it was saved; the seed has none.
  }
  const hrefs = (name: string) => elements.filter((element) => element.name === name);
  const label = (element: Element) => element.text || `<${element.name}> at line ${element.line}`;
  const valid = (href: string) => /^(https?:\/\/|mailto:|\{)/.test(href);
  add(errors, { rule: 'missingButtonHrefs', title: 'Missing button link', description: "Buttons won't work without an href value" }, hrefs('Button').filter((button) => !button.attributes.href).map((button) => ({ label: label(button) })));
  add(errors, { rule: 'invalidButtonHrefs', title: 'Invalid button link', description: 'Button links must be http(s) or mailto URLs' }, hrefs('Button').filter((button) => button.attributes.href && !valid(button.attributes.href)).map((button) => ({ label: label(button) })));
  add(errors, { rule: 'missingLinkHrefs', title: 'Missing text link', description: "Links won't work without an href value" }, hrefs('Link').filter((link) => !link.attributes.href).map((link) => ({ label: label(link) })));
  add(errors, { rule: 'invalidLinkHrefs', title: 'Invalid text link', description: 'Text links must be http(s) or mailto URLs' }, hrefs('Link').filter((link) => link.attributes.href && !valid(link.attributes.href)).map((link) => ({ label: label(link) })));
  const variables = variablesIn(lmx);
  for (const kind of ['contact', 'event', 'data'] as const) {
    const used = variables.filter((variable) => variable.kind === kind);
    if (!ACCEPTED[parent].includes(kind)) {
      add(errors, UNSUPPORTED[kind], used.map(({ name }) => ({ label: name, codeName: name })));
      continue;
    }
    const missing = MISSING_FALLBACK[kind];
    if (missing !== undefined) add(warnings, missing, used.filter(({ name }) => fallbacks[kind]?.[name] === undefined).map(({ name }) => ({ label: name, codeName: name })));
  }
  return { errors, warnings };
}
