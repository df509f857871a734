/**
 * What a kind of unit brings to the change cycle. A plan file's units are of a few kinds: a held
 * request of a write command (request-calls.ts, with what each resource brings to it), an email
 * record's calls and a workflow's edit script (content/emails/kind.ts, content/workflows/kind.ts).
 * Each kind says how a unit of it looks in the plan file (its shape, checked on read), what no plan
 * of loopsctl holds, whether the account holds its record, whether it can email people now, what it
 * does to people and to the app (its impact), the namesake that stops its create, how it is played,
 * its record's before-image, and how that image is put back. The engine (apply.ts), the impact
 * (impact/impact.ts), the keeping of before-images (before-images.ts) and the inverse of a change
 * (undo-plan.ts) play units through their kinds, and know no record type.
 *
 * The kinds are handed in by the command that runs the cycle (src/areas/plan-kinds.ts, the
 * registry): this folder imports no area's code.
 */
import { type ApiClient, everyItem, type ListResource } from '../../api/client.js';
import { freshReads } from '../../api/read-cache.js';
import { RejectedError } from '../../base/errors.js';
import type { z } from '../../base/shapes.js';
import type { WriteGate } from '../../core/gate.js';
import type { Noun } from '../../platform/operations.js';
import type { RecordKind } from '../../platform/record-kinds.js';
import type { ImpactContext, ImpactRecord } from './impact/records.js';
import { createdAlready } from './namesakes.js';
import type { PlanFile, PlannedUnit, UnitShapes } from './plan-file.js';

/** The outcome of one of a unit's calls, or of the whole unit: the id of a record it made, and what Guardian refused. */
export interface Played {
  id?: string;
  refused?: string;
  /**
   * Where the unit's own writes left its record, as their answers said (a message's content
   * revision, a workflow's): what `undo` compares with, with no read; none when the answers do
   * not tell it all, and the record is read once its calls are done (before-images.ts).
   */
  after?: After;
}

/** What a record held before a change, as its kind keeps it; `type` names the kind of image. */
export interface Image {
  type: string;
}

/** The image of a record the change created: there was none. */
export const CREATED = { type: 'created' } as const;

/** Where the apply left a record: the revision (a workflow's, an email message's by its prefix) or the digest of what it holds. */
export interface After {
  revision?: string | null;
  messages?: Record<string, string | null>;
  digest?: string;
}

export interface ImagedRecord {
  record: string;
  /** Its unit's kind: the record's noun (a change kept by an older loopsctl may name a tree directory or a kind of write). */
  kind: string;
  id?: string;
  /** The plan's unit, as applied. */
  unit: PlannedUnit;
  before: Image;
  after?: After;
}

/** A record of the change the API cannot put back, and what to do instead. */
export interface NotUndone {
  record: string;
  why: string;
  hint: string;
}

/** A record's inverse: the unit that puts it back, or why it cannot be, and what the API cannot set on it. */
export interface Undone {
  unit?: PlannedUnit;
  notUndone?: NotUndone;
  leftInApp?: string[];
  /** Where the record is now, as the undoer read it (else its kind's whereNow is asked): compared with where the apply left it. */
  now?: After;
}

/** Reads the before-image of a record by its id (one run's reader: what it reads once, it shares). */
export type RecordImager = (id: string) => Promise<Image>;

/** The kinds of image a run can read by a record's noun (platform/operations.ts), for units of another kind that change such a record. */
export type RecordImagers = (noun: Noun) => RecordImager | undefined;

export interface UnitKind<U extends PlannedUnit = PlannedUnit> {
  /** Whether a plan's unit is of this kind, told by its calls and the kind of record it names. */
  holds(unit: PlannedUnit): boolean;
  /** How a unit of it looks in the plan file: one that does not is none loopsctl wrote. */
  shape: z.ZodMiniType<U>;
  /** What it holds that no plan of loopsctl holds, from its calls and never its labels; none when it is as written. */
  problem(unit: U): string | undefined;
  /** Whether the account holds its record: false when the account answers 404 for it, undefined when it cannot tell. */
  exists(client: ApiClient, unit: U): Promise<boolean | undefined>;
  /**
   * What the record its calls create is matched against by name just before the create (a second
   * copy of the plan, or one made meanwhile): the list of its kind, and the name; none when it
   * creates nothing or its kind has no list.
   */
  namesakes?(unit: U): Namesakes | undefined;
  /** What it does to people and to the app, asked of the API before anything is sent (impact/records.ts); none when it does nothing to show. */
  impact?(client: ApiClient, unit: U, context: ImpactContext): Promise<ImpactRecord[]>;
  /**
   * A call that names a record other than the unit's own, which only the account can tell (an
   * email message that is not the email's): in words, or undefined. Asked of every unit before
   * anything of the plan is sent.
   */
  foreign?(client: ApiClient, unit: U): Promise<string | undefined>;
  /**
   * What the apply says of it when its record changed in the account since the plan was made: its
   * own read just before a write that takes no revision found it moved (it threw StaleRecord),
   * or the platform refused its first call by the revision it carries (a 409, whose words follow).
   * A conflict (staleRefusal): exit 5, nothing of the unit sent, nothing after it.
   */
  stale(unit: U): string;
  /**
   * Whether what its calls change can email people now, and why (a workflow that is not a draft, a
   * scheduled campaign, an email message one of them sends, a transactional email's published
   * message), read from the account at this moment by the platform's rule through the gate
   * (src/platform/liveness.ts); undefined when it cannot.
   */
  live(gate: WriteGate, unit: U): Promise<string | undefined>;
  /** What it does that needs a person's yes, judged by the write gate from its calls and the account's state (its `live`, for one). */
  needsYes(gate: WriteGate, unit: U): Promise<string | undefined>;
  /** Whether its calls make its record. */
  creates(unit: U): boolean;
  /** Its calls, ready to play in order; a call that finds its record changed since the plan, before it writes, throws StaleRecord. */
  play(client: ApiClient, unit: U, plan: PlanFile): (() => Promise<Played>)[];
  /** One run's reader of the before-images of the records its units change (those with an id). */
  imager(client: ApiClient, others: RecordImagers): (unit: U & { id: string }) => Promise<Image>;
  /** Reads at once, before the account check, what the run's reads of its units' records can share (a list holding them), where it costs fewer requests. */
  readAhead?(client: ApiClient, units: U[]): Promise<void>;
}

/** What a create is matched against: the list of its kind, the noun of the kind, and the record's name. */
/** A list of records with names, or how to have it: a resource whose schema is read on first use gives it so. */
export type NamedList = ListResource<{ name: string }> | (() => Promise<ListResource<{ name: string }>>);

export interface Namesakes {
  list: NamedList;
  noun: string;
  name: string;
}

export interface ImageKind<I extends Image = Image> {
  /** Whether an image is of this kind. */
  is(image: Image): image is I;
  /** The kind of record (platform/record-kinds.ts) it reads by id, for units of another kind that change one (a command's node edit). */
  record?: { kind: RecordKind; imager(client: ApiClient): RecordImager };
  /** Where the record is now, or undefined when it is gone: what `undo` compares with where the apply left it. */
  whereNow(client: ApiClient, image: I, id: string | undefined): Promise<After | undefined>;
  /** One run's maker of inverses: the unit that takes a record from where the apply left it back to its image. */
  undoer(client: ApiClient, imageFile: string): (record: ImagedRecord, image: I, after: After) => Promise<Undone>;
}

/** A unit with its kind's behaviour bound to it: what the engine plays. */
export interface BoundUnit {
  unit: PlannedUnit;
  problem(): string | undefined;
  exists(client: ApiClient): Promise<boolean | undefined>;
  conflict(client: ApiClient): Promise<string | undefined>;
  impact(client: ApiClient, context: ImpactContext): Promise<ImpactRecord[]>;
  foreign(client: ApiClient): Promise<string | undefined>;
  stale(): string;
  live(gate: WriteGate): Promise<string | undefined>;
  needsYes(gate: WriteGate): Promise<string | undefined>;
  creates(): boolean;
  play(client: ApiClient, plan: PlanFile): (() => Promise<Played>)[];
}

/** A unit the shape of its kind refuses, with where and why. */
export interface MisShapen {
  path: readonly PropertyKey[];
  message: string;
}

/** A kind of unit, its type parameter bound: what a run's kinds hold. */
export interface UnitEntry {
  holds(unit: PlannedUnit): boolean;
  bind(unit: PlannedUnit): BoundUnit | MisShapen;
  imager(client: ApiClient, others: RecordImagers): (unit: PlannedUnit & { id: string }) => Promise<Image>;
  readAhead(client: ApiClient, units: PlannedUnit[]): Promise<void>;
}

/** A kind of image, its type parameter bound. */
export interface ImageEntry {
  is(image: Image): boolean;
  record?: { kind: RecordKind; imager(client: ApiClient): RecordImager };
  whereNow(client: ApiClient, image: Image, id: string | undefined): Promise<After | undefined>;
  undoer(client: ApiClient, imageFile: string): (record: ImagedRecord, image: Image, after: After) => Promise<Undone>;
}

/** A kind of unit, as a run holds it. */
export function unitKind<U extends PlannedUnit>(kind: UnitKind<U>): UnitEntry {
  return {
    holds: (unit) => kind.holds(unit),
    bind: (unit) => bindTo(kind, unit),
    imager: (client, others) => {
      const read = kind.imager(client, others);
      return async (unit) => {
        const parsed = kind.shape.safeParse(unit);
        return parsed.success ? read({ ...parsed.data, id: unit.id }) : CREATED;
      };
    },
    readAhead: async (client, units) => {
      const typed = units.flatMap((unit) => {
        const parsed = kind.shape.safeParse(unit);
        return parsed.success ? [parsed.data] : [];
      });
      if (kind.readAhead !== undefined && typed.length > 0) await kind.readAhead(client, typed);
    },
  };
}

/** A kind of image, as a run holds it. */
export function imageKind<I extends Image>(kind: ImageKind<I>): ImageEntry {
  const typed = (image: Image): I => {
    if (!kind.is(image)) throw new TypeError(`a before-image of type ${image.type} handed to another kind`);
    return image;
  };
  return {
    is: (image) => kind.is(image),
    ...(kind.record === undefined ? {} : { record: kind.record }),
    whereNow: (client, image, id) => kind.whereNow(client, typed(image), id),
    undoer: (client, imageFile) => {
      const undo = kind.undoer(client, imageFile);
      return (record, image, after) => undo(record, typed(image), after);
    },
  };
}

/** The kinds of unit and image a run knows: the record kinds' own, and the held request's. */
export class PlanKinds implements UnitShapes {
  /**
   * `witness`: the list of a record every account holds (its themes: each has its default), whose
   * first a plan that only creates notes, to find the account it was made for.
   */
  constructor(
    private readonly units: readonly UnitEntry[],
    private readonly images: readonly ImageEntry[],
    readonly witness?: ListResource<{ id: string }>,
  ) {}

  /** The unit bound to its kind; why it cannot be (it is not of its kind's shape); undefined when no kind holds it. */
  bind(unit: PlannedUnit): BoundUnit | MisShapen | undefined {
    return this.units.find((kind) => kind.holds(unit))?.bind(unit);
  }

  /** Why a unit is none loopsctl wrote: no kind holds it, or it is not of its kind's shape; undefined when it is. */
  misshapen(unit: PlannedUnit): MisShapen | undefined {
    const bound = this.bind(unit);
    if (bound === undefined) return { path: ['kind'], message: `no plan holds a unit of the kind "${unit.kind}"` };
    return 'message' in bound ? bound : undefined;
  }

  /** One run's reader of before-images, each kind's sharing what it reads once. */
  imagers(client: ApiClient): (unit: PlannedUnit & { id: string }) => Promise<Image> {
    const byRecord = new Map<RecordKind, RecordImager>();
    const others: RecordImagers = (noun) => {
      const kind = this.images.find((each) => each.record?.kind === noun)?.record;
      if (kind === undefined) return undefined;
      const made = byRecord.get(kind.kind) ?? kind.imager(client);
      byRecord.set(kind.kind, made);
      return made;
    };
    const byKind = new Map<UnitEntry, (unit: PlannedUnit & { id: string }) => Promise<Image>>();
    return async (unit) => {
      const kind = this.units.find((each) => each.holds(unit));
      if (kind === undefined) return CREATED;
      const imager = byKind.get(kind) ?? kind.imager(client, others);
      byKind.set(kind, imager);
      return imager(unit);
    };
  }

  /** What the run's reads of the units' records can share, read at once by each kind of unit. */
  async readAhead(client: ApiClient, units: PlannedUnit[]): Promise<void> {
    for (const kind of this.units)
      await kind.readAhead(
        client,
        units.filter((unit) => kind.holds(unit)),
      );
  }

  /** The kind of an image (none for a record the change created). */
  imageKind(image: Image): ImageEntry | undefined {
    return this.images.find((kind) => kind.is(image));
  }

  /** Where the record of an image is now: nothing to compare for one the change created, undefined when it is gone. */
  async whereNow(client: ApiClient, image: Image, id: string | undefined): Promise<After | undefined> {
    if (image.type === CREATED.type) return {};
    return this.imageKind(image)?.whereNow(client, image, id);
  }
}

function bindTo<U extends PlannedUnit>(kind: UnitKind<U>, unit: PlannedUnit): BoundUnit | MisShapen {
  const parsed = kind.shape.safeParse(unit);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { path: issue.path, message: issue.message };
  }
  const typed = parsed.data;
  return {
    unit: typed,
    problem: () => kind.problem(typed),
    exists: (client) => kind.exists(client, typed),
    conflict: async (client) => {
      const matched = kind.namesakes?.(typed);
      return matched === undefined
        ? undefined
        : createdAlready(
            matched,
            (await everyItem(freshReads(client), typeof matched.list === 'function' ? await matched.list() : matched.list)).map(({ name }) => name),
          );
    },
    impact: async (client, context) => (await kind.impact?.(client, typed, context)) ?? [],
    foreign: async (client) => kind.foreign?.(client, typed),
    stale: () => kind.stale(typed),
    live: (gate) => kind.live(gate, typed),
    needsYes: (gate) => kind.needsYes(gate, typed),
    creates: () => kind.creates(typed),
    play: (client, plan) => kind.play(client, typed, plan),
  };
}

/** A conflict found before the record's first write: nothing of it was sent. */
export function conflictBeforeSending(message: string): RejectedError {
  return Object.assign(new RejectedError(message, { status: 409 }), { beforeAnyWrite: true });
}

/** What a kind's call throws when the record it read just before its write is not as the plan saw it: the apply says so in the kind's words. */
export class StaleRecord extends Error {
  constructor() {
    super('the record changed in the account since the plan was made');
    this.name = 'StaleRecord';
  }
}

/** The refusal of a unit whose record changed since the plan, in its kind's words, with the platform's when it refused it: a conflict, exit 5. */
export function staleRefusal(unit: Pick<BoundUnit, 'stale'>, platform?: string): RejectedError {
  return conflictBeforeSending(platform === undefined ? unit.stale() : `${unit.stale()}: ${platform}`);
}
