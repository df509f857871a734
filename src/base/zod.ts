/**
 * The parts of zod that loopsctl's schemas are built from. zod's full namespace holds every
 * schema kind and checks in some forty languages' messages; naming here only what is used lets
 * the bundler leave the rest out, which makes every command that checks an answer start sooner.
 * Add a name here when a schema needs another part of zod.
 */
export {
  array,
  boolean,
  discriminatedUnion,
  enum,
  int,
  lazy,
  literal,
  null,
  looseObject,
  number,
  object,
  record,
  strictObject,
  string,
  undefined,
  union,
  unknown,
  ZodArray,
  ZodLazy,
  ZodNumber,
  ZodNullable,
  ZodObject,
  ZodOptional,
  ZodRecord,
  ZodString,
  ZodType,
  ZodUnion,
} from 'zod';
export type { infer, ZodRawShape } from 'zod';

import { config } from 'zod';

// zod compiles a parser for each object schema (new Function) on its first parse: a cost that
// pays off over thousands of parses, while a command parses a few answers. Set before any schema
// is made, as zod reads it then. Measured: --sandbox workflow list 0.95x the time; listings of
// 10,000 items and imports of 2,000 rows no slower.
config({ jitless: true });
