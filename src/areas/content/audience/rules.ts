/**
 * The audience half of a tree read and checked offline: each file's shape, and every reference
 * between the records (a segment's filter to the contact properties and their types, a workflow to
 * the segments, lists and events). `content check` prints the problems; `content push` refuses a
 * tree with errors before anything is sent. Each problem names the file and the field.
 */
import { join } from 'node:path';
import { LocalFileError } from '../../../base/errors.js';
import { jsonFaultAt } from '../../../base/parse-faults.js';
import { z } from '../../../base/shapes.js';
import { PROPERTY_TYPES } from '../../../platform/contact-properties/schemas.js';
import { CONTACT_FIELDS, isStandardField, PROPERTY_NAME, RESERVED_PROPERTY_NAMES } from '../../../platform/contact-properties/typing.js';
import { checkAudienceFilter, FilterFault, operatorFitsType } from '../../../platform/segments/filter.js';
import { WORKFLOW_FILE, type WorkflowFile } from '../../../platform/workflows/file.js';
import { parseWorkflowFile } from '../../../platform/workflows/file-text.js';
import { parseJson } from '../shared/files.js';
import { META_FILE, readRecords } from '../shared/record-files.js';
import { readWorkflows } from '../shared/workflow-files.js';
import { type AudienceRecord, fileOf, readAudience, type SINGLE_FILE } from './files.js';

/** A problem of an audience file, at a field of it. */
export interface AudienceProblem {
  /** The file, from the tree's root. */
  file: string;
  /** Where in it (`[2].type`, `filter.conditions[0].key`), or '' for the whole file. */
  field: string;
  severity: 'error' | 'warning';
  rule: string;
  message: string;
  fix: string;
  /** Where JSON that does not parse breaks; a problem of a field is placed at the file's start. */
  line?: number;
  column?: number;
}

export interface TreeProperty {
  key: string;
  label?: string;
  type: string;
}

/** The audience half of a tree, parsed. */
export interface AudienceTree {
  records: AudienceRecord[];
  /** By key, the custom properties contact-properties.json defines; undefined when the tree has no such file. */
  properties?: Map<string, TreeProperty>;
  /** By path, each segment's and group's fields. */
  fields: Map<string, { name: string; description?: string | null; filter?: unknown }>;
  /** The names lists.json and event-patterns.json hold; undefined where the file is not there. */
  lists?: Set<string>;
  events?: Set<string>;
  /** The tree's workflows that parse, by path. */
  workflows: Map<string, WorkflowFile>;
  problems: AudienceProblem[];
}

const propertyEntry = z.looseObject({ key: z.string(), label: z.optional(z.string()), type: z.string() });
const segmentShape = z.strictObject({ name: z.string().check(z.minLength(1)), description: z.optional(z.nullable(z.string())), filter: z.unknown() });
const groupShape = z.looseObject({ name: z.string().check(z.minLength(1)), description: z.optional(z.string()) });
const listsShape = z.array(z.looseObject({ name: z.string() }));
const patternsShape = z.array(z.looseObject({ eventName: z.string() }));

const error = (file: string, field: string, rule: string, message: string, fix: string): AudienceProblem => ({
  file,
  field,
  severity: 'error',
  rule,
  message,
  fix,
});

/** A file's JSON by its shape, or the problem that names where it breaks (never quoting it). */
function parsed<S extends z.ZodMiniType>(root: string, record: AudienceRecord, schema: S, problems: AudienceProblem[]): z.infer<S> | undefined {
  return parsedText(root, fileOf(record), record.files.values().next().value!, schema, problems);
}

/** A file's JSON (`file` from the tree's root) by its shape, or the problem that names where it breaks. */
function parsedText<S extends z.ZodMiniType>(root: string, file: string, text: string, schema: S, problems: AudienceProblem[]): z.infer<S> | undefined {
  try {
    JSON.parse(text);
  } catch {
    // Said by line and column, never quoting the text.
    const { line, column, early } = jsonFaultAt(text);
    problems.push({
      ...error(file, '', 'json', `not valid JSON${early ? ' (it ends too early)' : ''}`, 'write the file as `content pull` does'),
      line,
      column,
    });
    return undefined;
  }
  try {
    return parseJson(join(root, file), text, schema);
  } catch (fault) {
    if (!(fault instanceof LocalFileError)) throw fault;
    problems.push(error(file, '', 'shape', fault.message.slice(join(root, file).length).replace(/^:\s*/, ''), 'write the file as `content pull` does'));
    return undefined;
  }
}

/** contact-properties.json: keys the API takes, types it knows, one type per key. */
function readProperties(root: string, record: AudienceRecord, problems: AudienceProblem[]): Map<string, TreeProperty> | undefined {
  const entries = parsed(root, record, z.array(propertyEntry), problems);
  if (entries === undefined) return undefined;
  const properties = new Map<string, TreeProperty>();
  entries.forEach((entry, index) => {
    const at = `[${index}]`;
    const file = record.path;
    if (!PROPERTY_NAME.test(entry.key) || RESERVED_PROPERTY_NAMES.has(entry.key))
      problems.push(
        error(
          file,
          `${at}.key`,
          'property-key',
          `"${entry.key}" is not a key the API takes for a custom property${RESERVED_PROPERTY_NAMES.has(entry.key) ? ': it is reserved' : ''}`,
          'name it in camelCase (planName), and not one of the contact fields or reserved names',
        ),
      );
    if (!(PROPERTY_TYPES as readonly string[]).includes(entry.type))
      problems.push(error(file, `${at}.type`, 'property-type', `"${entry.type}" is not a property type`, `use one of ${PROPERTY_TYPES.join(', ')}`));
    const before = properties.get(entry.key);
    if (before !== undefined && before.type !== entry.type)
      problems.push(
        error(file, `${at}.type`, 'property-once', `"${entry.key}" is defined twice, as ${before.type} and as ${entry.type}`, 'keep one entry of each key'),
      );
    if (before === undefined) properties.set(entry.key, entry);
  });
  return properties;
}

/** The type of a property a filter or workflow names: a custom one of the tree's, a standard field's, or undefined. */
function typeOf(properties: Map<string, TreeProperty>, key: string): string | undefined {
  if (key === 'subscribed') return 'boolean';
  if (isStandardField(key) || key === 'notes') return 'string';
  return properties.get(key)?.type;
}

/** A segment's filter: its shape as the API takes it, each property it names defined, each operator one its type takes. */
function filterProblems(file: string, filter: unknown, properties: Map<string, TreeProperty> | undefined): AudienceProblem[] {
  try {
    checkAudienceFilter(filter);
  } catch (fault) {
    if (!(fault instanceof FilterFault)) throw fault;
    return [
      error(
        file,
        `filter.${fault.at.replace(/^filter\.?/, '')}`.replace(/\.$/, ''),
        'filter',
        fault.message,
        fault.hint ?? 'see `loopsctl segments create --help`',
      ),
    ];
  }
  if (properties === undefined) return [];
  const conditions = (filter as { conditions: { type: string; key?: string; operator?: string }[] }).conditions;
  return conditions.flatMap((condition, index) => {
    if (condition.type !== 'property' || condition.key === undefined) return [];
    const at = `filter.conditions[${index}]`;
    const type = typeOf(properties, condition.key);
    if (type === undefined)
      return [
        error(
          file,
          `${at}.key`,
          'reference',
          `the contact property "${condition.key}" is not in contact-properties.json`,
          `add {"key": "${condition.key}", "type": …} to contact-properties.json, or name a property it defines`,
        ),
      ];
    if (condition.operator !== undefined && !operatorFitsType(condition.operator, type))
      return [
        error(
          file,
          `${at}.operator`,
          'operator',
          `"${condition.operator}" does not apply to "${condition.key}", a ${type} property`,
          'use an operator of its type',
        ),
      ];
    return [];
  });
}

/** The workflows of the tree that parse (one that does not is reported by its own check). */
function readWorkflowFiles(root: string): Map<string, WorkflowFile> {
  const files = new Map<string, WorkflowFile>();
  for (const { path, files: texts } of readWorkflows(root)) {
    const text = texts.get(WORKFLOW_FILE);
    if (text === undefined) continue;
    try {
      files.set(path, parseWorkflowFile(join(root, path, WORKFLOW_FILE), text));
    } catch (fault) {
      if (!(fault instanceof LocalFileError)) throw fault;
    }
  }
  return files;
}

/** The audience half of the tree, parsed, with the problems of each file and of the references between them. */
export function readAudienceTree(root: string, withWorkflows = true): AudienceTree {
  const records = readAudience(root);
  const problems: AudienceProblem[] = [];
  const single = (kind: keyof typeof SINGLE_FILE) => records.find((record) => record.kind === kind);
  const propertiesRecord = single('contact-properties');
  const properties = propertiesRecord === undefined ? undefined : readProperties(root, propertiesRecord, problems);
  const namesIn = <T>(record: AudienceRecord | undefined, schema: z.ZodMiniType<T[]>, name: (item: T) => string) => {
    if (record === undefined) return undefined;
    const items = parsed(root, record, schema, problems);
    return items === undefined ? undefined : new Set(items.map(name));
  };
  const lists = namesIn(single('lists'), listsShape, (list) => list.name);
  const events = namesIn(single('event-patterns'), patternsShape, (pattern) => pattern.eventName);
  const fields = new Map<string, { name: string; description?: string | null; filter?: unknown }>();
  for (const record of records) {
    if (record.kind === 'segments') {
      const segment = parsed(root, record, segmentShape, problems);
      if (segment === undefined) continue;
      fields.set(record.path, segment);
      problems.push(...filterProblems(fileOf(record), segment.filter, properties));
    } else if (record.kind === 'groups/transactional' || record.kind === 'groups/campaigns') {
      const group = parsed(root, record, groupShape, problems);
      if (group !== undefined) fields.set(record.path, group);
    }
  }
  problems.push(...duplicateNames(records, fields), ...emailGroupProblems(root, records, fields));
  return { records, properties, fields, lists, events, workflows: withWorkflows ? readWorkflowFiles(root) : new Map(), problems };
}

/** Two segments, or two groups of a kind, of one name: the API matches them by name, so the second could never be told apart. */
function duplicateNames(records: AudienceRecord[], fields: AudienceTree['fields']): AudienceProblem[] {
  const seen = new Map<string, string>();
  const problems: AudienceProblem[] = [];
  for (const record of records) {
    const name = fields.get(record.path)?.name;
    if (name === undefined) continue;
    const key = `${record.kind}\0${name}`;
    const other = seen.get(key);
    if (other !== undefined)
      problems.push(error(fileOf(record), 'name', 'name-once', `"${name}" is the name of ${other} too`, 'give each its own name: records are matched by name'));
    else seen.set(key, fileOf(record));
  }
  return problems;
}

const emailMeta = z.looseObject({ group: z.optional(z.string().check(z.minLength(1))) });

/**
 * Each transactional email's group, named by its name: one the tree's groups/transactional/ does
 * not hold is an error, as a push could not put the email in it. A tree without groups (pulled
 * with --only transactional) leaves it to the account.
 */
function emailGroupProblems(root: string, records: AudienceRecord[], fields: AudienceTree['fields']): AudienceProblem[] {
  const groups = records.filter((record) => record.kind === 'groups/transactional');
  if (groups.length === 0) return [];
  const names = new Set(groups.map((record) => fields.get(record.path)?.name ?? record.name));
  let emails: ReturnType<typeof readRecords>;
  try {
    emails = readRecords(root, ['transactional']);
  } catch (fault) {
    // A record that cannot be read is said by the command that reads it: the check of its LMX, a push.
    if (fault instanceof LocalFileError) return [];
    throw fault;
  }
  const problems: AudienceProblem[] = [];
  for (const email of emails) {
    const file = `${email.path}/${META_FILE.transactional}`;
    const meta = parsedText(root, file, email.files.get(META_FILE.transactional)!, emailMeta, problems);
    if (meta?.group !== undefined && !names.has(meta.group))
      problems.push(
        error(
          file,
          'group',
          'reference',
          `the transactional group "${meta.group}" is not in groups/transactional/`,
          'name a group of groups/transactional/ (its group.json has the name), or add the group there',
        ),
      );
  }
  return problems;
}

/**
 * The names the tree defines, as the workflows' reference rule writes them (`segment:Dormant`,
 * `property:plan`, `property:plan:string`), and the kinds it is the authority on: a workflow
 * naming a segment or property the tree defines none of is an error offline.
 */
export function treeNames(tree: AudienceTree): { names: Set<string>; defines: Set<string> } {
  const names = new Set<string>();
  const defines = new Set<string>();
  const segments = tree.records.filter((record) => record.kind === 'segments');
  if (segments.length > 0) defines.add('segment');
  for (const record of segments) names.add(`segment:${tree.fields.get(record.path)?.name ?? record.name}`);
  if (tree.properties !== undefined) {
    defines.add('property');
    // The contact's own fields are every account's properties, beside the custom ones the file defines.
    const standard = CONTACT_FIELDS.map((key) => ({ key, type: typeOf(tree.properties!, key)! }));
    for (const { key, type } of [...standard, ...tree.properties.values()]) names.add(`property:${key}`).add(`property:${key}:${type}`);
  }
  for (const name of tree.lists ?? []) names.add(`list:${name}`);
  for (const name of tree.events ?? []) names.add(`event:${name}`);
  return { names, defines };
}
