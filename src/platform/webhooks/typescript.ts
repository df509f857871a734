/**
 * The 17 event types as TypeScript declarations, written from their schemas (payloads.ts): what
 * `loopsctl/webhooks` declares to an app (src/webhooks/event-types.ts, kept equal to this by a
 * test) and what `loopsctl types` writes beside an account's own types. A field the schema marks
 * optional is optional; an object that keeps fields it does not name (a contact's custom
 * properties) says so with an index signature.
 */
import { WEBHOOK_EVENTS, type WebhookEventName } from './payloads.js';

/** The part of a zod schema's definition this reads. */
interface Definition {
  type: string;
  shape?: Record<string, Schema>;
  catchall?: Schema;
  innerType?: Schema;
  element?: Schema;
  valueType?: Schema;
  values?: unknown[];
  entries?: Record<string, string>;
}
interface Schema {
  _zod: { def: Definition };
}

/** `email.hardBounced` → `EmailHardBouncedEvent`; `testing.testEvent` → `TestingTestEvent`. */
export function eventInterfaceName(name: string): string {
  const pascal = name
    .split('.')
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
  return pascal.endsWith('Event') ? pascal : `${pascal}Event`;
}

/** A string as a TypeScript literal, in single quotes as the project's code is written. */
const literal = (value: unknown) => (typeof value === 'string' ? `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : JSON.stringify(value));

function typeOf(schema: Schema, indent: string): string {
  const def = schema._zod.def;
  switch (def.type) {
    case 'string':
      return 'string';
    case 'number':
    case 'int':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'nullable':
      return `${typeOf(def.innerType!, indent)} | null`;
    case 'optional':
      return typeOf(def.innerType!, indent);
    case 'literal':
      return def.values!.map(literal).join(' | ');
    case 'enum':
      return Object.values(def.entries!).map(literal).join(' | ');
    case 'array': {
      const element = typeOf(def.element!, indent);
      return /[|&]/.test(element) && !element.startsWith('{') ? `readonly (${element})[]` : `readonly ${element}[]`;
    }
    case 'record':
      return `Readonly<Record<string, ${typeOf(def.valueType!, indent)}>>`;
    case 'object':
      return objectType(def, indent);
    default:
      throw new Error(`no TypeScript type for a schema of type ${def.type}`);
  }
}

function objectType(def: Definition, indent: string, extra: string[] = []): string {
  const inner = `${indent}  `;
  const lines = Object.entries(def.shape!).map(([field, schema]) => {
    const optional = schema._zod.def.type === 'optional' ? '?' : '';
    return `${inner}readonly ${/^[A-Za-z_$][\w$]*$/.test(field) ? field : literal(field)}${optional}: ${typeOf(schema, inner)};`;
  });
  // A loose object (catchall unknown) keeps fields it does not name.
  if (def.catchall?._zod.def.type === 'unknown') lines.push(`${inner}readonly [field: string]: unknown;`);
  lines.push(...extra.map((line) => `${inner}${line}`));
  return `{\n${lines.join('\n')}\n${indent}}`;
}

/**
 * The declarations of every event type: an interface each (with `extraFields`, lines added to
 * each, such as the library's `readonly known: true;`), their union `union` and its names.
 */
export function eventTypeDeclarations(union: string, extraFields: string[] = []): string {
  const names = Object.keys(WEBHOOK_EVENTS) as WebhookEventName[];
  const interfaces = names.map((name) => {
    const { schema, summary } = WEBHOOK_EVENTS[name];
    const body = objectType((schema as unknown as Schema)._zod.def, '', extraFields);
    return `/** \`${name}\`: ${summary}. */\nexport interface ${eventInterfaceName(name)} ${body}\n`;
  });
  const members = names.map((name) => `  | ${eventInterfaceName(name)}`).join('\n');
  return `${interfaces.join('\n')}\n/** Every event type the platform sends, told apart by \`eventName\`. */\nexport type ${union} =\n${members};\n`;
}
