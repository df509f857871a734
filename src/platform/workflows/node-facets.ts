/**
 * Every workflow node type loopsctl knows, with its facets that need no schema, each declared once:
 * its role in the graph, whether the API creates it and the settings a new one starts with, the
 * paths a branch brings, the fields its file holds (in the order they are written, each with the
 * API field it names where the names differ) and a timer's units. The shapes of its fields (the
 * API's views, an update's, a file's) are node-types.ts's, keyed by the same types and fields.
 * This half has no zod, so that `--help`, which names the creatable types, reads it without the
 * schemas. The lists about node types (the creatable types, the default paths, a timer's words)
 * derive from it.
 */

export type NodeRole = 'trigger' | 'branch' | 'action' | 'exit';

/** A field a file holds for a node: the API's field it stands for, and what it names other than by the account's id. */
export interface FileField {
  /** The API's field, where the file's name differs. */
  api?: string;
  /** A segment named by its name; an email named by the path of its files in the workflow's directory. */
  names?: 'segment' | 'email';
}

/** What a node's settings start from: whether it is an experiment's control, and the workflow's mailing list. */
export interface SettingsContext {
  isControl: boolean;
  mailingListId: string | null;
}

/** A path a new branch brings: its first node's type, and whether that is an experiment's control. */
export interface DefaultPath {
  type: 'AudienceFilter' | 'VariantNode';
  isControl: boolean;
}

export interface NodeFacets {
  role: NodeRole;
  /** Whether create-node makes one: "`*Trigger` nodes and `ExitAction` nodes cannot be created" (the description). */
  creatable?: true;
  /**
   * The settings, by the API's names, a new node of the type starts with ("New nodes start with
   * default settings", without the ids the platform makes); for a trigger, those it starts with
   * when another trigger is turned into its kind. None when it starts with none.
   */
  settings?: (context: SettingsContext) => Record<string, unknown>;
  /** A branch's paths: those a new one brings, in order; the type add-branch makes; whether their order means nothing. */
  paths?: { made: readonly DefaultPath[]; added: DefaultPath['type']; anyOrder?: true };
  /** The fields a file holds, in the order they are written. */
  file: Record<string, FileField>;
  /** A timer's units: each one's length and its word, in the order the API lists them. */
  units?: Record<string, { ms: number; word: string }>;
}

const filterPath: DefaultPath = { type: 'AudienceFilter', isControl: false };
const variantPath: DefaultPath = { type: 'VariantNode', isControl: false };

/**
 * The node types, in the order the rules name them; the creatable ones in the order the API's
 * CreateWorkflowNodeTypeName lists them. A type not listed passes through (the API is in alpha).
 */
export const NODE_FACETS = {
  SignupTrigger: { role: 'trigger', file: {} },
  BlankTrigger: { role: 'trigger', file: {} },
  EventTrigger: {
    role: 'trigger',
    settings: () => ({ eventName: null, reEligible: false }),
    file: { eventName: {}, eventProperties: {}, reEligible: {} },
  },
  ContactPropertyTrigger: {
    role: 'trigger',
    settings: () => ({ contactPropertyQuery: null, reEligible: false }),
    file: { contactPropertyQuery: {}, reEligible: {} },
  },
  // A list trigger turned from another watches the workflow's list.
  AddToListTrigger: { role: 'trigger', settings: ({ mailingListId }) => ({ mailingListId, reEligible: false }), file: { reEligible: {} } },
  AudienceFilter: {
    role: 'action',
    creatable: true,
    settings: () => ({ appliesDownstream: false }),
    file: { segment: { api: 'audienceSegmentId', names: 'segment' }, audienceFilter: {}, appliesDownstream: {} },
  },
  // "Branch nodes create their default paths too: `BranchNode` creates two `AudienceFilter` children"; "Adding a branch to a `BranchNode` creates one `AudienceFilter` child node."
  BranchNode: { role: 'branch', creatable: true, paths: { made: [filterPath, filterPath], added: 'AudienceFilter' }, file: {} },
  // "`ExperimentBranchNode` creates two regular `VariantNode` children plus one control `VariantNode`"; add-branch "creates one `VariantNode` child node".
  // Its paths are the same in any order: the platform sends contacts by each path's isControl and the samplingRate, and lists a new experiment's control last whatever order a file gives.
  ExperimentBranchNode: {
    role: 'branch',
    creatable: true,
    settings: () => ({ samplingRate: 50, experimentType: 'autosplit' }),
    paths: { made: [variantPath, variantPath, { type: 'VariantNode', isControl: true }], added: 'VariantNode', anyOrder: true },
    file: { samplingRate: {}, experimentType: {}, url: {} },
  },
  TimerAction: {
    role: 'action',
    creatable: true,
    settings: () => ({ amount: 1, unit: 'd' }),
    file: { amount: {}, unit: {} },
    // "m = minutes, h = hours, d = days" (WorkflowTimerUnit in the description); the reference adds s.
    units: {
      m: { ms: 60_000, word: 'minute' },
      h: { ms: 3_600_000, word: 'hour' },
      d: { ms: 86_400_000, word: 'day' },
      s: { ms: 1_000, word: 'second' },
    },
  },
  SendEmailAction: { role: 'action', creatable: true, file: { email: { api: 'emailMessageId', names: 'email' } } },
  VariantNode: { role: 'action', creatable: true, settings: ({ isControl }) => ({ isControl }), file: { isControl: {} } },
  ExitAction: { role: 'exit', file: {} },
} as const satisfies Record<string, NodeFacets>;

export type NodeTypeName = keyof typeof NODE_FACETS;

type Creatable<T extends NodeTypeName> = (typeof NODE_FACETS)[T] extends { creatable: true } ? T : never;
export type CreatableNodeType = { [T in NodeTypeName]: Creatable<T> }[NodeTypeName];

export const NODE_TYPE_NAMES = Object.keys(NODE_FACETS) as NodeTypeName[];

/** The facets of a node's type, or undefined for a type loopsctl does not know. */
export function facetsOf(typeName: string): NodeFacets | undefined {
  return Object.hasOwn(NODE_FACETS, typeName) ? NODE_FACETS[typeName as NodeTypeName] : undefined;
}

/** The node types the API lets a caller create, in the order it lists them. */
export const CREATABLE_NODE_TYPES = NODE_TYPE_NAMES.filter((type) => facetsOf(type)!.creatable === true) as [CreatableNodeType, ...CreatableNodeType[]];

/** What happens to contacts queued at nodes a change removes: `fail` reports them, `discard` drops them. */
export const QUEUED_CONTACT_POLICIES = ['fail', 'discard'] as const;

export function isTrigger(typeName: string): boolean {
  return facetsOf(typeName)?.role === 'trigger';
}

export function isBranch(typeName: string): boolean {
  return facetsOf(typeName)?.role === 'branch';
}

/** The fields of a node type in a file, in order; undefined for a type loopsctl does not know. */
export function fileFieldsOf(typeName: string): string[] | undefined {
  const facets = facetsOf(typeName);
  return facets === undefined ? undefined : Object.keys(facets.file);
}

/** A timer's units, in the order the API lists them. */
export const TIMER_UNITS = NODE_FACETS.TimerAction.units;
export type TimerUnit = keyof typeof TIMER_UNITS;

export function isTimerUnit(unit: unknown): unit is TimerUnit {
  return typeof unit === 'string' && Object.hasOwn(TIMER_UNITS, unit);
}

/** An amount of a unit in words: `1 hour`, `90 minutes`. */
export function timerWords(amount: number, unit: TimerUnit): string {
  return `${amount} ${TIMER_UNITS[unit].word}${amount === 1 ? '' : 's'}`;
}
