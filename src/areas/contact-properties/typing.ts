/**
 * Custom property values checked against the account's properties before anything is sent: a
 * value of the wrong type, or a property the account does not have, is a usage error. The
 * properties are fetched once per run, and only when a command has custom values to check.
 */
import type { ApiClient } from '../../api/client.js';
import { UsageError } from '../../base/errors.js';
import { closeMatches } from '../../base/suggest.js';
import type { ContactProperty } from '../../platform/contact-properties/schemas.js';
import { typeProblem } from '../../platform/contact-properties/typing.js';
import { shellWord } from '../../render/shell-word.js';
import { listContactProperties } from './client.js';

/** The account's properties by key, fetched on first use. */
export class PropertyTypes {
  private types?: Promise<Map<string, ContactProperty>>;

  constructor(private readonly api: () => Promise<ApiClient>) {}

  lookup(): Promise<Map<string, ContactProperty>> {
    this.types ??= (async () => new Map((await listContactProperties(await this.api(), 'all')).map((property) => [property.key, property])))();
    return this.types;
  }

  /**
   * Checks every value, and returns them as the API takes them; `where` names the flag or the
   * record in the message. Text from a flag (`--prop seats=3`) is read as its property's type, as
   * a person means it; values written as JSON (a file's object, `json: true`) are taken as they
   * are, and told how to write a type in JSON.
   */
  async check(values: Record<string, unknown>, where: string, options: { json?: boolean } = {}): Promise<Record<string, unknown>> {
    if (Object.keys(values).length === 0) return values;
    const types = await this.lookup();
    const typed: Record<string, unknown> = {};
    for (const [name, given] of Object.entries(values)) {
      const type = types.get(name)?.type;
      const read = options.json !== true && typeof given === 'string' && (type === 'number' || type === 'boolean') ? fromText(type, given) : undefined;
      const value = read ?? given;
      const problem = typeProblem(types, name, value);
      if (problem !== undefined) throw new UsageError(`${where}: ${problem}`, { hint: hintFor(types, name, options.json === true) });
      typed[name] = value;
    }
    return typed;
  }
}

function hintFor(types: Map<string, ContactProperty>, name: string, json: boolean): string {
  if (!types.has(name)) return unknownPropertyHint(types, name);
  const type = types.get(name)!.type;
  if (type === 'number' || type === 'boolean') {
    const example = type === 'number' ? '3' : 'true';
    return json ? `write a JSON ${type}, without quotes (for example "${name}": ${example})` : `write a ${type} (for example ${name}=${example})`;
  }
  return `see the property types with \`loopsctl contact-properties list\``;
}

/**
 * What to do about a name that is no property of the account: use the property it was meant for,
 * when its key differs only in case or the name is its label ("Plan", "First Name"), else create
 * it (the command quoted for a shell).
 */
export function unknownPropertyHint(types: ReadonlyMap<string, ContactProperty>, name: string): string {
  const plain = (text: string) => text.toLowerCase().replace(/[\s_-]+/g, '');
  const meant = [...types.values()].find((property) => plain(property.key) === plain(name) || plain(property.label) === plain(name));
  if (meant !== undefined)
    return `did you mean the property ${meant.key}${meant.label === meant.key ? '' : ` (labelled "${meant.label}")`}? A property is named by its key, and case counts`;
  // A slip of the keyboard (seets for seats): the keys a few edits away, before the property it would take to create.
  const close = closeMatches(name, [...types.keys()], 3);
  if (close.length > 0)
    return `did you mean ${close.join(', ')}? Or create it with \`loopsctl contact-properties create --name ${shellWord(name)} --type string\``;
  return `create it with \`loopsctl contact-properties create --name ${shellWord(name)} --type string\` (or number, boolean, date); see \`loopsctl contact-properties list\``;
}

/**
 * A text cell (CSV) as a value of the property's type. Undefined when the text cannot be one, so
 * the caller reports it with the record's position.
 */
export function fromText(type: string | undefined, text: string): unknown {
  switch (type) {
    case 'number': {
      const number = Number(text);
      return text.trim() !== '' && Number.isFinite(number) ? number : undefined;
    }
    case 'boolean':
      return parseBoolean(text);
    case 'date':
      return Number.isNaN(Date.parse(text)) && !/^\d+$/.test(text) ? undefined : /^\d+$/.test(text) ? Number(text) : text;
    default:
      return text;
  }
}

function parseBoolean(text: string): boolean | undefined {
  const lower = text.trim().toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  return undefined;
}
