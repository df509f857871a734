/**
 * zod's set-up and the helpers every shape is built with: one copy of zod, the strict forms the
 * sandbox checks its answers with, issue paths for refinements, and the API's page of items.
 * Objects are loose: fields the API adds later pass through.
 */
import { lazily } from './lazily.js';
import * as z from './zod.js';

/** zod itself, for modules that build schemas of their own: one copy of zod in the bundle. */
export { z };

/**
 * Where a schema that checks fields in a refinement keeps the builder of its strict form (every
 * field named, nothing else allowed), which the sandbox checks its answers with.
 */
export const STRICT_FORM = Symbol('strictForm');

export type StrictFormBuilder = (strictly: (schema: z.ZodMiniType) => z.ZodMiniType) => z.ZodMiniType;

export function withStrictForm<S extends z.ZodMiniType>(schema: S, strictForm: StrictFormBuilder): S {
  return Object.assign(schema, { [STRICT_FORM]: strictForm });
}

/**
 * A schema made on its first use (the first parse, or the first strict form made of it), for a
 * module whose schemas most of the commands that load it never check with. Its strict form is
 * the strict form of the schema made.
 */
export function madeOnUse<S extends z.ZodMiniType>(make: () => S): z.ZodMiniLazy<S> {
  return z.lazy(lazily(make));
}

/** The issues of a check made inside a refinement, as the refinement reports them: at `path` below its value. */
export function issuesAt(path: PropertyKey[], issues: readonly { path: PropertyKey[]; message: string }[]) {
  return issues.map((issue) => ({ code: 'custom' as const, path: [...path, ...issue.path], message: issue.message }));
}

/**
 * A record whose values are each checked where they stand, the answer's own object passing through
 * rather than a copy: zod's record builds a new object key by key, which for a workflow of 50,000
 * nodes costs a third of checking them. For values that come out as they went in (loose objects,
 * no transforms); its strict form, for the sandbox, is the record of the value's strict form.
 */
export function recordCheckedInPlace<V extends z.ZodMiniType>(value: V): z.ZodMiniType<Record<string, z.infer<V>>> {
  const schema = z.unknown().check(
    z.superRefine((input, ctx) => {
      if (typeof input !== 'object' || input === null || Array.isArray(input)) {
        ctx.addIssue({
          code: 'custom',
          message: `Invalid input: expected record, received ${Array.isArray(input) ? 'array' : input === null ? 'null' : typeof input}`,
        });
        return;
      }
      for (const [key, entry] of Object.entries(input)) {
        const result = value.safeParse(entry);
        if (!result.success) for (const issue of issuesAt([key], result.error.issues)) ctx.addIssue(issue);
      }
    }),
  );
  return withStrictForm(schema, (strictly) => z.record(z.string(), strictly(value))) as unknown as z.ZodMiniType<Record<string, z.infer<V>>>;
}

/**
 * Made on first use: the modules that make pages at import are loaded by runs that read none (a find).
 * Its counts are `z.int()`, one schema class that checks for a whole number: a listing makes no
 * other number schema, and zod sets up each class a run makes.
 */
const pagination = madeOnUse(() =>
  z.looseObject({
    totalResults: z.int(),
    returnedResults: z.int(),
    perPage: z.int(),
    totalPages: z.int(),
    nextCursor: z.nullable(z.string()),
    nextPage: z.nullable(z.string()),
  }),
);
export type Pagination = z.infer<typeof pagination>;

/**
 * The page of `item`, one per item schema: a listing asks for it at every request, and a schema
 * made anew each time would be set up again at its first parse, as would the strict form the
 * sandbox checks its answers with (made once a schema).
 */
export function pageOf<T extends z.ZodMiniType>(item: T): ReturnType<typeof pageSchema<T>> {
  let page = pages.get(item) as ReturnType<typeof pageSchema<T>> | undefined;
  if (page === undefined) {
    page = pageSchema(item);
    pages.set(item, page);
  }
  return page;
}
const pages = new WeakMap<z.ZodMiniType, z.ZodMiniType>();
function pageSchema<T extends z.ZodMiniType>(item: T) {
  return z.looseObject({ pagination, data: z.array(item) });
}

export interface Page<T> {
  pagination: Pagination;
  data: T[];
}
