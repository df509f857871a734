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
