/**
 * The inputs of a tool as JSON schemas, made from a command's declaration: an option's type,
 * choices, range and default, a file as inline content or a path under the server's root, and the
 * bounds of a list. tools.ts gathers them into a tool.
 */
import type { IntegerParser, LocalFile, OptionSpec } from '../../core/declare.js';
import type { Tier } from '../../core/tier.js';

/** A JSON schema, as the protocol carries it. */
export type JsonSchema = Record<string, unknown>;

/** What an input is to the command: an argument, an option (by its flag without dashes), or the bounds of a list. */
export type Target = { kind: 'argument'; name: string } | { kind: 'option'; name: string } | { kind: 'limit' } | { kind: 'cursor' };

/** One input of a tool. */
export interface Param {
  key: string;
  schema: JsonSchema;
  required: boolean;
  target: Target;
  /** Giving it raises the command to this tier. */
  tier?: Tier;
  /** Its value is a local file: content given inline, or a path under the server's root. */
  file?: LocalFile;
  /** Giving it makes the answer the command's text view (a drawing, the bare LMX) instead of its JSON. */
  text?: boolean;
}

/** The most items one call of a list answers with, and how many by default. */
const LIST_LIMIT_MAX = 1000;
const LIST_LIMIT_DEFAULT = 100;
/** The largest inline text (an LMX body is at most 100 KB at the API), and the largest inline bytes, base64-encoded. */
export const INLINE_TEXT_MAX = 256 * 1024;
export const INLINE_BASE64_MAX = 8 * 1024 * 1024;

/**
 * A file input: inline content under its own name when the command can take it so, else a path
 * under the root, or nothing without one (undefined: a command that needs it is no tool).
 */
export function fileParam(
  name: string,
  description: string,
  file: LocalFile,
  target: Target,
  required: boolean,
  root: string | undefined,
  repeatable = false,
): Param | undefined {
  const { inline } = file;
  if (inline !== undefined && repeatable) {
    // Files that keep their names (attachments): each a name, its bytes and, if need be, its type.
    const item = {
      type: 'object',
      properties: {
        filename: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[^/\\\\;]+$' },
        contentType: { type: 'string', description: 'such as application/pdf (default: from the file name)' },
        data: { type: 'string', contentEncoding: 'base64', description: 'the content, base64-encoded' },
      },
      required: ['filename', 'data'],
      additionalProperties: false,
    };
    return {
      key: inline.name,
      schema: { type: 'array', items: item, description: `${inline.description}; at most ${INLINE_BASE64_MAX} base64 characters in all` },
      required,
      target,
      file,
    };
  }
  if (inline !== undefined) {
    const schema =
      inline.encoding === 'base64'
        ? { type: 'string', contentEncoding: 'base64', maxLength: INLINE_BASE64_MAX, description: `${inline.description}, base64-encoded` }
        : inline.encoding === 'json'
          ? { type: ['object', 'string'], maxLength: INLINE_TEXT_MAX, description: inline.description }
          : { type: 'string', maxLength: INLINE_TEXT_MAX, description: inline.description };
    return { key: inline.name, schema, required, target, file };
  }
  if (root === undefined) return undefined;
  const what = file.orId === true ? "a path under the server's root directory, or an id" : "a path under the server's root directory";
  const schema = { type: 'string', minLength: 1, description: `${what} (${description})` };
  // An argument left out takes a default path (./loops) that is the server's, not one under the
  // root, so it is named in every call; an option left out reads no file at all.
  return { key: name, schema, required: required || target.kind === 'argument', target, file };
}

export function optionParam(option: OptionSpec, target: Target & { kind: 'option' }): Param {
  const placeholder = /[<[]([^>\]]+)[>\]]/.exec(option.flags)?.[1];
  const variadic = placeholder?.endsWith('...') === true;
  const integer = (option.parse as Partial<IntegerParser> | undefined)?.integer;
  let value: JsonSchema = { type: 'string' };
  if (integer !== undefined) value = { type: 'integer', minimum: integer.min, maximum: integer.max };
  if (option.choices !== undefined) value = { type: 'string', enum: [...option.choices] };
  const many = option.repeatable === true || variadic;
  const schema: JsonSchema = placeholder === undefined ? { type: 'boolean' } : many ? { type: 'array', items: value } : { ...value };
  schema.description = option.tier === undefined ? option.description : `${option.description} (makes the call ${option.tier})`;
  if (option.default !== undefined) schema.default = option.default;
  return { key: target.name, schema, required: option.required === true, target, ...(option.tier === undefined ? {} : { tier: option.tier }) };
}

export function listParams(): Param[] {
  return [
    {
      key: 'limit',
      schema: { type: 'integer', minimum: 1, maximum: LIST_LIMIT_MAX, default: LIST_LIMIT_DEFAULT, description: 'at most this many items in this answer' },
      required: false,
      target: { kind: 'limit' },
    },
    {
      key: 'cursor',
      schema: { type: 'string', description: 'nextCursor of the previous answer, to continue the list' },
      required: false,
      target: { kind: 'cursor' },
    },
  ];
}
