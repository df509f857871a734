/**
 * Custom property values checked against the account's properties before anything is sent: a
 * value of the wrong type, or a property the account does not have, is a usage error. The
 * properties are fetched once per run, and only when a command has custom values to check.
 */
import type { ApiClient } from '../../api/client.js';
import { UsageError } from '../../api/errors.js';
import { listContactProperties } from './client.js';
import type { ContactProperty } from './schemas.js';

/** The contact fields with flags (or columns) of their own; never custom properties. */
export const STANDARD_FIELDS = ['email', 'firstName', 'lastName', 'source', 'subscribed', 'userGroup', 'userId', 'mailingLists'] as const;

export function isStandardField(name: string): boolean {
  return (STANDARD_FIELDS as readonly string[]).includes(name);
}

/** The account's properties by key, fetched on first use. */
export class PropertyTypes {
  private types?: Promise<Map<string, ContactProperty>>;

  constructor(private readonly api: () => Promise<ApiClient>) {}

  lookup(): Promise<Map<string, ContactProperty>> {
    this.types ??= (async () => new Map((await listContactProperties(await this.api(), 'all')).map((property) => [property.key, property])))();
    return this.types;
  }

  /** Checks every value; `where` names the flag or the record in the message. */
  async check(values: Record<string, unknown>, where: string): Promise<void> {
    if (Object.keys(values).length === 0) return;
    const types = await this.lookup();
    for (const [name, value] of Object.entries(values)) {
      const problem = typeProblem(types, name, value);
      if (problem !== undefined) throw new UsageError(`${where}: ${problem}`, { hint: hintFor(types, name) });
    }
  }
}

/** What is wrong with a value for a property, or undefined when it fits. */
export function typeProblem(types: Map<string, ContactProperty>, name: string, value: unknown): string | undefined {
  const property = types.get(name);
  if (property === undefined) return `the account has no contact property "${name}"`;
  // null clears a value of any type.
  if (value === null) return undefined;
  const fits: Record<string, (candidate: unknown) => boolean> = {
    string: (candidate) => typeof candidate === 'string',
    number: (candidate) => typeof candidate === 'number' && Number.isFinite(candidate),
    boolean: (candidate) => typeof candidate === 'boolean',
    date: (candidate) => (typeof candidate === 'number' && Number.isFinite(candidate)) || (typeof candidate === 'string' && !Number.isNaN(Date.parse(candidate))),
  };
  const check = fits[property.type];
  if (check === undefined || check(value)) return undefined;
  return `${name} is a ${property.type} property, and ${JSON.stringify(value)} is not a ${property.type}`;
}

function hintFor(types: Map<string, ContactProperty>, name: string): string {
  if (!types.has(name)) return `create it with \`loopsctl contact-properties create --name ${name} --type string\` (or number, boolean, date); see \`loopsctl contact-properties list\``;
  const type = types.get(name)!.type;
  if (type === 'number' || type === 'boolean') return `write ${name}:=<value> for a ${type} (for example ${name}:=${type === 'number' ? '3' : 'true'})`;
  return `see the property types with \`loopsctl contact-properties list\``;
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

export function parseBoolean(text: string): boolean | undefined {
  const lower = text.trim().toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  return undefined;
}
