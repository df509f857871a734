/**
 * The parts of zod that loopsctl's schemas are built from: zod/mini, zod's functional form, whose
 * schemas carry a dozen methods rather than classic zod's sixty. Classic zod installs its methods on
 * the prototype of each schema class a run meets and binds one to a schema at each first use, which
 * cost a `--sandbox` start about 6% of its time; a schema here is wrapped by a function
 * (`z.optional(z.string())`) and checked with checks (`.check(z.minLength(1))`). Naming only what
 * is used lets the bundler leave the rest out. Add a name here when a schema needs another part.
 */

export type { infer } from 'zod/mini';
export {
  _default,
  array,
  boolean,
  catchall,
  discriminatedUnion,
  enum,
  extend,
  gte,
  int,
  lazy,
  literal,
  looseObject,
  lte,
  minLength,
  nonnegative,
  null,
  nullable,
  nullish,
  number,
  object,
  omit,
  optional,
  partial,
  pipe,
  positive,
  record,
  refine,
  regex,
  strictObject,
  string,
  superRefine,
  transform,
  undefined,
  union,
  unknown,
  ZodMiniArray,
  ZodMiniLazy,
  ZodMiniNullable,
  ZodMiniNumber,
  ZodMiniObject,
  ZodMiniOptional,
  ZodMiniRecord,
  ZodMiniString,
  ZodMiniType,
  ZodMiniUnion,
} from 'zod/mini';
export type { $ZodIssue, $ZodShape } from 'zod/v4/core';

import { config } from 'zod/mini';
import english from 'zod/v4/locales/en.js';

// zod/mini holds no messages of its own: without a locale every issue reads "Invalid input".
// English is what classic zod sets on its first schema, so messages read as they always have. The
// build gives this copy a configuration of its own (ownZodConfig in src/build/vendored.mjs): in an
// app's process, loopsctl's libraries leave the app's zod as they found it. zod/mini's objects
// never compile a parser (classic zod's do), so zod's `jitless` has nothing to turn off here.
config(english());
