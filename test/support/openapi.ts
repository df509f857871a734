/**
 * Checks JSON values against the schemas of an OpenAPI 3.1 description: the subset of JSON Schema
 * the published Loops description uses ($ref, type with "null", enum, required, properties,
 * additionalProperties, items, minItems, oneOf, anyOf, allOf). Formats and examples are ignored.
 * A field that one part of an allOf declares is not "additional" to the other parts: that is how
 * the description adds workflowRevisionId to nodes whose own schemas forbid other fields.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';

export type Schema = Record<string, any>;

interface Operation {
  requestBody?: { content?: Record<string, { schema: Schema }> };
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema }[];
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

export interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

export function loadOpenApi(file: string): OpenApi | undefined {
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8');
  return (file.endsWith('.json') ? JSON.parse(text) : parse(text)) as OpenApi;
}

/**
 * The contract the published description (1.22.1) derives, committed with the tests
 * (scripts/derive-contract.mjs, `npm run contract`): its operations, parameters and schemas, without
 * the prose. LOOPS_OPENAPI_FILE names a description to check against instead (YAML or JSON).
 */
export const CONTRACT_FILE = process.env.LOOPS_OPENAPI_FILE ?? resolve(import.meta.dirname, '../contract/loops-1.22.1.json');

/** The contract as the published description gives it, before the reference brings it up to date. */
export function publishedDescriptionAsWritten(): OpenApi {
  const doc = loadOpenApi(CONTRACT_FILE);
  if (doc === undefined) throw new Error(`${CONTRACT_FILE} not found: the checks against the published OpenAPI description (1.22.1) cannot run`);
  return doc;
}

let loaded: OpenApi | undefined;

/** The published description, brought up to the reference where the reference says more; read once per test file. */
export function publishedDescription(): OpenApi {
  loaded ??= bringUpToReference(publishedDescriptionAsWritten());
  return loaded;
}

/**
 * Where the reference (version 1.22.1, the authority) goes beyond the description, the description
 * is brought up to it, field by field, rather than the sandbox held back:
 * - experiment nodes carry experimentType (required), url and experimentId;
 * - variant nodes carry variantId; branch nodes carry evalStrategy;
 * - timers may wait in seconds (unit "s").
 * Where the description contradicts itself, its text wins: an event pattern's
 * incomingWebhookPlatform "will be `null` for custom events" and is typed string or null, but its
 * enum lists the string "null"; JSON null is added to the enum.
 * Where the description is silent on a reset, it follows the platform's SDKs, whose contact
 * properties take null to reset a value: firstName, lastName, source, userGroup and custom
 * properties may be null in a contact's create or update.
 */
function bringUpToReference(doc: OpenApi): OpenApi {
  const schemas = doc.components.schemas;
  const experiment = schemas.ExperimentBranchWorkflowNode!;
  Object.assign(experiment.properties, {
    experimentType: { type: 'string', enum: ['webhook', 'autosplit'] },
    url: { type: 'string' },
    experimentId: { type: 'string' },
  });
  experiment.required = [...experiment.required, 'experimentType'];
  schemas.VariantWorkflowNode!.properties.variantId = { type: 'string' };
  schemas.BranchWorkflowNode!.properties.evalStrategy = { type: 'string' };
  schemas.WorkflowTimerUnit!.enum = [...schemas.WorkflowTimerUnit!.enum, 's'];
  for (const pattern of [schemas.EventPatternSummary!, schemas.EventPattern!]) pattern.properties.incomingWebhookPlatform.enum.push(null);
  const contactFields = schemas.ContactFields!;
  for (const key of ['firstName', 'lastName', 'source', 'userGroup']) contactFields.properties[key].type = ['string', 'null'];
  contactFields.additionalProperties.oneOf.push({ type: 'null' });
  schemas.ContactUpdateRequest!.additionalProperties.oneOf.push({ type: 'null' });
  return doc;
}

/**
 * Problems of an answer against the description: a status the operation does not document, or a
 * body that does not fit the schema given for its status. Empty when the answer is one the API
 * describes. A 401 is documented for every operation by the reference ("an invalid key yields
 * 401"), where the description leaves it out (contacts, events, sends); a 405 needs no operation.
 */
export function responseProblems(doc: OpenApi, method: string, path: string, status: number, body: unknown): string[] {
  const template = templateFor(doc, path.split('?')[0]!);
  if (template === undefined) return [`no path of the description fits ${path}`];
  if (status === 405) return [];
  const operation = doc.paths[template]![method.toLowerCase()];
  if (operation === undefined) return [`${method} is not described for ${template}`];
  const response = operation.responses[String(status)];
  if (response === undefined) {
    if (status === 401) return validate(doc, UNAUTHORIZED, body);
    return [`${method} ${template} does not document status ${status}`];
  }
  const schema = response.content?.['application/json']?.schema;
  return schema === undefined ? [] : validate(doc, schema, body);
}

/** A 401 the description does not give a shape for: a message, as every documented failure carries. */
const UNAUTHORIZED: Schema = { type: 'object', required: ['message'], properties: { message: { type: 'string' } } };

/**
 * Problems of a request against the description: an unknown path or method, or a JSON body that
 * does not fit the operation's request schema. Empty when the request is one the API describes.
 */
export function requestProblems(doc: OpenApi, method: string, path: string, body: unknown): string[] {
  const template = templateFor(doc, path.split('?')[0]!);
  if (template === undefined) return [`no path of the description fits ${path}`];
  const operation = doc.paths[template]![method.toLowerCase()];
  if (operation === undefined) return [`${method} is not described for ${template}`];
  const schema = operation.requestBody?.content?.['application/json']?.schema;
  if (schema === undefined) return body === undefined ? [] : [`${method} ${template} takes no JSON body`];
  if (body === undefined) return [];
  return validate(doc, schema, body);
}

/** The description's path template that a concrete path fits, e.g. /v1/workflows/{workflowId}. */
export function templateFor(doc: OpenApi, path: string): string | undefined {
  const segments = path.split('/');
  return Object.keys(doc.paths).find((template) => {
    const parts = template.split('/');
    return parts.length === segments.length && parts.every((part, index) => /^\{.+\}$/.test(part) || part === segments[index]);
  });
}

/** Problems of a value against a schema, each with the JSON path where it is; empty when it fits. */
export function validate(doc: OpenApi, schema: Schema, value: unknown, at = '$', declaredBeside: Set<string> = new Set()): string[] {
  if (schema.$ref !== undefined) {
    const target = resolveRef(doc, schema.$ref);
    if (target === undefined) return [`${at}: unresolved $ref ${schema.$ref}`];
    return validate(doc, target, value, at, declaredBeside);
  }
  const problems: string[] = [];
  if (schema.allOf) {
    const declared = new Set([...declaredBeside, ...schema.allOf.flatMap((part: Schema) => Object.keys(resolveSchema(doc, part).properties ?? {}))]);
    for (const part of schema.allOf) problems.push(...validate(doc, part, value, at, declared));
  }
  if (schema.oneOf) {
    const results: string[][] = schema.oneOf.map((option: Schema) => validate(doc, option, value, at, declaredBeside));
    const fits = results.filter((result) => result.length === 0).length;
    // When nothing fits, the closest option's problems say the most.
    const closest = [...results].sort((a, b) => a.length - b.length)[0] ?? [];
    if (fits !== 1) problems.push(`${at}: fits ${fits} of the oneOf options, not exactly one`, ...closest);
  }
  if (schema.anyOf && !schema.anyOf.some((option: Schema) => validate(doc, option, value, at, declaredBeside).length === 0))
    problems.push(`${at}: fits none of anyOf`);
  if (schema.enum && !schema.enum.includes(value)) problems.push(`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  if (schema.type !== undefined) {
    const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((type) => hasType(value, type))) return [...problems, `${at}: ${JSON.stringify(value)} is not of type ${types.join(' or ')}`];
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) problems.push(`${at}: fewer than ${schema.minItems} items`);
    if (schema.items) value.forEach((item, index) => problems.push(...validate(doc, schema.items, item, `${at}[${index}]`)));
  } else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    for (const key of schema.required ?? []) if (!(key in record)) problems.push(`${at}: missing required ${key}`);
    const properties: Record<string, Schema> = schema.properties ?? {};
    for (const [key, field] of Object.entries(record)) {
      if (key in properties) problems.push(...validate(doc, properties[key]!, field, `${at}.${key}`));
      else if (schema.additionalProperties === false && !declaredBeside.has(key)) problems.push(`${at}: unexpected field ${key}`);
      else if (typeof schema.additionalProperties === 'object') problems.push(...validate(doc, schema.additionalProperties, field, `${at}.${key}`));
    }
  }
  return problems;
}

function resolveRef(doc: OpenApi, ref: string): Schema | undefined {
  return doc.components.schemas[ref.replace('#/components/schemas/', '')];
}

function resolveSchema(doc: OpenApi, schema: Schema): Schema {
  return schema.$ref === undefined ? schema : (resolveRef(doc, schema.$ref) ?? {});
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'integer':
      return Number.isInteger(value);
    default:
      return typeof value === type;
  }
}
