/**
 * The shapes of every workflow node type loopsctl knows, each declared once: its fields in the full
 * view (as zod), the fields the simplified view shows, the fields an update may set, and how it
 * describes itself in one line; its facets that need no schema (role, creation, paths, the file's
 * fields) are node-facets.ts's, keyed by the same types. Schemas, labels, the tree, the Mermaid and
 * DOT drawings, the update checks and the sandbox all derive from the two. The workflow API is in
 * alpha: a node whose type is not listed passes through, described generically from its scalar fields.
 */

import type { $ZodIssue } from 'zod/v4/core';
import { lazily } from '../../base/lazily.js';
import { z } from '../../base/shapes.js';
import { describeFilter } from '../audience-filter-words.js';
import type { AudienceFilter } from '../segments/schemas.js';
import { withArticle } from '../words.js';
import {
  facetsOf,
  isTimerUnit,
  isTrigger,
  type NODE_FACETS,
  NODE_TYPE_NAMES,
  type NodeTypeName,
  TIMER_UNITS,
  type TimerUnit,
  timerWords,
} from './node-facets.js';

/** What a node is, as far as every view shares it. */
export type NodeLike = { typeName: string; nextNodeIds: string[] } & Record<string, unknown>;

export interface NodeTypeDeclaration {
  /** Type-specific fields of the full view (GET .../nodes/{nodeId}); required as the API marks them. */
  fields: Record<string, z.ZodMiniType>;
  /** Which of those fields the simplified view (GET /v1/workflows/{id}) shows. */
  simplified: readonly string[];
  /**
   * Fields an update may set, all optional; undefined when the API takes no update for the type
   * (it answers 501), so loopsctl checks nothing and lets the API say so.
   */
  update?: Record<string, z.ZodMiniType>;
  /**
   * The fields a file holds (node-facets.ts names them, in order): those an update can set, a
   * segment by its name, a send-email node's email by its path, and an experiment's settings the
   * API cannot set, kept so that a plan can name them.
   */
  file: Record<string, z.ZodMiniType>;
  /** The node's key fields in a few words each; empty or undefined parts are left out. */
  describe(node: NodeLike): (string | false | undefined)[];
}

type Fields = Record<string, z.ZodMiniType>;

/**
 * A type's declaration as written: each group of its schemas made by a function, which
 * NODE_TYPES calls on the group's first use, so that a start builds only what its command
 * checks (a listing none of them, the sandbox's check of stored nodes only their fields).
 */
type NodeTypeSource<File extends string> = Omit<NodeTypeDeclaration, 'fields' | 'update' | 'file'> & {
  fields(): Fields;
  update?(): Fields;
  file(): Record<File, z.ZodMiniType>;
};

const none = (): Fields => ({});

/** A timer's unit, one of node-facets.ts's. */
const timerUnit = lazily(() => z.enum(Object.keys(TIMER_UNITS) as [TimerUnit, ...TimerUnit[]]));

const comparison = lazily(() =>
  z.looseObject({
    value: z.union([z.string(), z.number(), z.boolean()]),
    operator: z.string(),
  }),
);
type Comparison = z.infer<ReturnType<typeof comparison>>;
/** A comparison as a file writes it: nothing beside its value and operator. */
const strictComparison = () => z.strictObject({ value: comparison().shape.value, operator: z.string() });

const contactPropertyQuery = lazily(() => z.looseObject({ key: z.string(), is: comparison(), was: comparison() }));
type ContactPropertyQuery = z.infer<ReturnType<typeof contactPropertyQuery>>;

export const eventProperty = lazily(() =>
  z.looseObject({
    name: z.string(),
    type: z.enum(['string', 'number', 'boolean', 'date']),
  }),
);

const audienceFilter = lazily(() => z.looseObject({ match: z.enum(['all', 'any']), conditions: z.array(z.unknown()) }));
type AudienceFilterField = z.infer<ReturnType<typeof audienceFilter>>;

function describeWait(amount: unknown, unit: unknown): string {
  return typeof amount === 'number' && isTimerUnit(unit) ? `wait ${timerWords(amount, unit)}` : `wait ${String(amount)} ${String(unit)}`;
}

const VALUELESS_OPERATORS = new Set(['any', 'empty', 'not_empty', 'true', 'false', 'date_empty', 'date_not_empty']);

export function describeComparison(comparison: Comparison | undefined): string {
  if (comparison === undefined) return '?';
  return VALUELESS_OPERATORS.has(comparison.operator) ? comparison.operator : `${comparison.operator} ${JSON.stringify(comparison.value)}`;
}

/** How a branch chooses among its paths (each an audience filter), in words; others are named as they come. */
const EVAL_STRATEGIES: Record<string, string> = { first_match: 'takes the first path whose filter matches' };

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const reEligible = (node: NodeLike) => node.reEligible === true && 're-eligible';

const triggerUpdate = () => ({ reEligible: z.boolean() });

const NODE_TYPE_SOURCES = {
  SignupTrigger: { fields: none, simplified: [], update: none, file: none, describe: () => [] },
  BlankTrigger: { fields: none, simplified: [], update: none, file: none, describe: () => [] },
  EventTrigger: {
    fields: () => ({ eventName: z.optional(z.nullable(z.string())), eventProperties: z.optional(z.array(eventProperty())), reEligible: z.boolean() }),
    simplified: ['eventName', 'reEligible'],
    file: () => ({ eventName: z.nullable(z.string()), eventProperties: z.optional(z.array(eventProperty())), reEligible: z.boolean() }),
    update: () => ({ eventName: z.nullable(z.string()), eventPatternId: z.nullable(z.string()), ...triggerUpdate() }),
    describe: (node) => [text(node.eventName) ? `on event "${node.eventName}"` : 'no event set', reEligible(node)],
  },
  ContactPropertyTrigger: {
    fields: () => ({ contactPropertyQuery: z.nullable(contactPropertyQuery()), reEligible: z.boolean() }),
    simplified: ['contactPropertyQuery', 'reEligible'],
    file: () => ({
      contactPropertyQuery: z.nullable(z.strictObject({ key: z.string(), was: strictComparison(), is: strictComparison() })),
      reEligible: z.boolean(),
    }),
    update: () => ({ contactPropertyQuery: contactPropertyQuery(), ...triggerUpdate() }),
    describe: (node) => {
      const query = node.contactPropertyQuery as ContactPropertyQuery | null | undefined;
      return [query ? `when ${query.key} was ${describeComparison(query.was)}, is ${describeComparison(query.is)}` : 'no property set', reEligible(node)];
    },
  },
  AddToListTrigger: {
    fields: () => ({ mailingListId: z.optional(z.nullable(z.string())), reEligible: z.boolean() }),
    simplified: ['mailingListId', 'reEligible'],
    file: () => ({ reEligible: z.boolean() }),
    update: triggerUpdate,
    describe: (node) => [text(node.mailingListId) && `list ${node.mailingListId}`, reEligible(node)],
  },
  AudienceFilter: {
    fields: () => ({ audienceFilter: z.optional(audienceFilter()), audienceSegmentId: z.optional(z.string()), appliesDownstream: z.optional(z.boolean()) }),
    simplified: [],
    // The description types the node's audienceFilter "object or null": null is no filter, as absent is.
    file: () => ({ segment: z.optional(z.string()), audienceFilter: z.optional(z.nullable(audienceFilter())), appliesDownstream: z.optional(z.boolean()) }),
    update: () => ({ audienceSegmentId: z.nullable(z.string()), audienceFilter: z.nullable(audienceFilter()), appliesDownstream: z.boolean() }),
    // The condition in words, as segments and campaigns write theirs: "where plan equal pro".
    describe: (node) => {
      const filter = node.audienceFilter as AudienceFilterField | undefined;
      return [
        text(node.audienceSegmentId) && `in segment ${node.audienceSegmentId}`,
        filter !== undefined && filter !== null && `where ${describeFilter(filter as AudienceFilter)}`,
        node.appliesDownstream === true && 'applies downstream',
      ];
    },
  },
  TimerAction: {
    fields: () => ({ amount: z.number(), unit: timerUnit() }),
    simplified: ['amount', 'unit'],
    file: () => ({ amount: z.number(), unit: timerUnit() }),
    update: () => ({ amount: z.number().check(z.nonnegative()), unit: timerUnit() }),
    describe: (node) => [describeWait(node.amount, node.unit)],
  },
  SendEmailAction: {
    fields: () => ({ emailMessageId: z.optional(z.string()), subject: z.optional(z.string()) }),
    simplified: ['emailMessageId', 'subject'],
    file: () => ({ email: z.string() }),
    describe: (node) => [text(node.subject) && `"${node.subject}"`, text(node.emailMessageId) && `email ${node.emailMessageId}`],
  },
  ExitAction: { fields: none, simplified: [], file: none, describe: () => [] },
  BranchNode: {
    fields: () => ({ evalStrategy: z.optional(z.string()) }),
    simplified: [],
    file: () => ({}),
    describe: (node) => {
      const strategy = text(node.evalStrategy);
      return [strategy && (Object.hasOwn(EVAL_STRATEGIES, strategy) ? EVAL_STRATEGIES[strategy] : `evaluate ${strategy}`)];
    },
  },
  ExperimentBranchNode: {
    fields: () => ({
      samplingRate: z.number(),
      url: z.optional(z.string()),
      experimentId: z.optional(z.string()),
      experimentType: z.enum(['webhook', 'autosplit']),
    }),
    simplified: ['samplingRate'],
    file: () => ({ samplingRate: z.number(), experimentType: z.optional(z.enum(['webhook', 'autosplit'])), url: z.optional(z.string()) }),
    update: () => ({ samplingRate: z.number().check(z.gte(0), z.lte(100)) }),
    describe: (node) => [
      text(node.experimentType) && `${node.experimentType} experiment`,
      typeof node.samplingRate === 'number' && `${node.samplingRate}% sampled`,
      text(node.url),
    ],
  },
  VariantNode: {
    fields: () => ({ variantId: z.optional(z.string()), isControl: z.optional(z.boolean()) }),
    simplified: ['isControl'],
    file: () => ({ isControl: z.boolean() }),
    update: () => ({ isControl: z.boolean() }),
    describe: (node) => [node.isControl === true ? 'control' : node.isControl === false && 'variant', text(node.variantId)],
  },
} satisfies { [T in NodeTypeName]: NodeTypeSource<keyof (typeof NODE_FACETS)[T]['file'] & string> };

/** A type's declaration whose schemas are each made on first use, then kept. */
function declaration<File extends string>({ fields, update, file, ...rest }: NodeTypeSource<File>): NodeTypeDeclaration {
  const made = { fields: lazily(fields), update: update && lazily(update), file: lazily(file) };
  return {
    ...rest,
    get fields() {
      return made.fields();
    },
    get update() {
      return made.update?.();
    },
    get file() {
      return made.file();
    },
  };
}

export const NODE_TYPES = Object.fromEntries(NODE_TYPE_NAMES.map((type) => [type, declaration<string>(NODE_TYPE_SOURCES[type])])) as Record<
  NodeTypeName,
  NodeTypeDeclaration
>;

function isNodeTypeName(typeName: string): typeName is NodeTypeName {
  return Object.hasOwn(NODE_TYPES, typeName);
}

/** The declaration of a node's type, or undefined for a type loopsctl does not know. */
export function nodeType(typeName: string): NodeTypeDeclaration | undefined {
  return isNodeTypeName(typeName) ? NODE_TYPES[typeName] : undefined;
}

/** Each type's file fields, each with what it names and the shape an update gives its API field (none when the update takes none). */
function fileFieldsWithUpdates() {
  return NODE_TYPE_NAMES.flatMap((type) => {
    const { update }: NodeTypeDeclaration = NODE_TYPES[type];
    return Object.entries(facetsOf(type)!.file).map(([name, field]) => {
      const api = field.api ?? name;
      return { name, names: field.names, update: update !== undefined && Object.hasOwn(update, api) ? update[api] : undefined };
    });
  });
}

/**
 * The file fields an update cannot set (a plan names them as left to set in the app), but for a
 * send-email node's email, which is written through its message.
 */
export const readOnlyFields: () => ReadonlySet<string> = lazily(
  () =>
    new Set(
      fileFieldsWithUpdates()
        .filter((field) => field.update === undefined && field.names !== 'email')
        .map((field) => field.name),
    ),
);

/** The file fields an update clears with null (its shape takes null): a file that leaves one out clears it. */
export const clearedByNull: () => ReadonlySet<string> = lazily(
  () =>
    new Set(
      fileFieldsWithUpdates()
        .filter((field) => field.update?.safeParse(null).success === true)
        .map((field) => field.name),
    ),
);

/** The fields of the full view an update clears with null that the node then lacks, as the view cannot hold null. */
export const absentWhenCleared: () => ReadonlySet<string> = lazily(
  () =>
    new Set(
      NODE_TYPE_NAMES.flatMap((type) => {
        const { fields, update = {} }: NodeTypeDeclaration = NODE_TYPES[type];
        return Object.keys(update).filter((field) => update[field]!.safeParse(null).success && fields[field]?.safeParse(null).success === false);
      }),
    ),
);

/** Fields of the common kind, never described as a node's own. */
const COMMON_FIELDS = new Set(['typeName', 'nextNodeIds', 'id', 'workflowId', 'workflowRevisionId']);

/** Scalar fields of a node of a type loopsctl does not know, as key=value. */
function describeGenerically(node: NodeLike): string[] {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (!COMMON_FIELDS.has(key) && value !== null && typeof value !== 'object') parts.push(`${key}=${String(value)}`);
  }
  return parts;
}

/** The node's key fields in a few words, or '' when it has none. Shared by the tree, Mermaid and DOT. */
export function describeNode(node: NodeLike): string {
  const declared = nodeType(node.typeName);
  const parts = declared === undefined ? describeGenerically(node) : declared.describe(node);
  return parts.filter((part): part is string => typeof part === 'string' && part !== '').join(', ');
}

const updateSchemas = new Map<NodeTypeName, z.ZodMiniType>();

/** The check of an update's payload for a node of a type, built once per type; undefined when the API takes no update. */
function updatePayloadSchema(type: NodeTypeName): z.ZodMiniType | undefined {
  const declared: NodeTypeDeclaration = NODE_TYPES[type];
  if (declared.update === undefined) return undefined;
  let schema = updateSchemas.get(type);
  if (schema === undefined) {
    // A trigger's payload may name its type, to turn another trigger into this kind.
    const typeName: Record<string, z.ZodMiniType> = isTrigger(type) ? { typeName: z.literal(type) } : {};
    schema = z.partial(z.strictObject({ ...typeName, ...declared.update }));
    updateSchemas.set(type, schema);
  }
  return schema;
}

/** The fields an update of a node of this type may set, for messages and help. */
export function updatableFields(typeName: string): string[] | undefined {
  const update = nodeType(typeName)?.update;
  return update === undefined ? undefined : Object.keys(update);
}

/**
 * What is wrong with an update's payload for a node of `currentType`, in words; empty when it is
 * fine, when the type is one loopsctl does not know (alpha: it passes through), or when the API
 * takes no update for the type (it answers 501 itself).
 */
export function updatePayloadProblems(currentType: string, payload: Record<string, unknown>): string[] {
  if (!isNodeTypeName(currentType)) return [];
  const switchTo = payload.typeName;
  if (switchTo !== undefined && (!isTrigger(currentType) || typeof switchTo !== 'string' || !isTrigger(switchTo))) {
    return [`typeName can only turn a trigger into another kind of trigger, not ${withArticle(currentType)} into ${JSON.stringify(switchTo)}`];
  }
  const target = (switchTo as NodeTypeName | undefined) ?? currentType;
  const schema = updatePayloadSchema(target);
  if (schema === undefined) return [];
  const allowed = updatableFields(target)!.join(', ') || 'none besides typeName';
  if (Object.keys(payload).length === 0) return [`give at least one field to update (${withArticle(target)} node takes: ${allowed})`];
  if (payload.eventName !== undefined && payload.eventPatternId !== undefined) return ['give eventName or eventPatternId, not both'];
  const result = schema.safeParse(payload);
  if (result.success) return [];
  return result.error.issues.map((issue) =>
    issue.code === 'unrecognized_keys'
      ? `${issue.keys.join(', ')}: not a field ${withArticle(target)} update takes (it takes: ${allowed})`
      : inWords(issue, payload),
  );
}

type Issue = $ZodIssue;

/** What is wrong with one field, in words: "amount must be a number, not the text "abc"". */
function inWords(issue: Issue, payload: Record<string, unknown>): string {
  const field = issue.path.map(String).join('.') || 'the payload';
  const value = issue.path.reduce<unknown>(
    (at, key) => (typeof at === 'object' && at !== null ? (at as Record<PropertyKey, unknown>)[key] : undefined),
    payload,
  );
  const given = `not ${shownValue(value)}`;
  switch (issue.code) {
    case 'invalid_type': {
      const wanted = `${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected === 'boolean' ? 'boolean (true or false)' : issue.expected}`;
      // A number or boolean written as text: `--set amount=3` where `amount:=3` was meant.
      const typed =
        typeof value === 'string' && readsAs(value, issue.expected)
          ? ` (write ${field}:=${value} to give it as ${issue.expected === 'boolean' ? 'a boolean' : `a ${issue.expected}`})`
          : '';
      return `${field} must be ${wanted}, ${given}${typed}`;
    }
    case 'too_small':
      return `${field} must be ${String(issue.minimum)} or more, ${given}`;
    case 'too_big':
      return `${field} must be ${String(issue.maximum)} or less, ${given}`;
    case 'invalid_value':
      return `${field} must be one of ${issue.values.map((choice) => String(choice)).join(', ')}, ${given}`;
    default:
      return `${field}: ${issue.message}`;
  }
}

function shownValue(value: unknown): string {
  if (value === undefined) return 'missing';
  if (typeof value === 'string') return `the text ${JSON.stringify(value)}`;
  return JSON.stringify(value);
}

/** Text that JSON reads as a value of the expected type. */
function readsAs(text: string, expected: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return expected === 'number' ? typeof value === 'number' : expected === 'boolean' ? typeof value === 'boolean' : false;
  } catch {
    return false;
  }
}
