/**
 * Ids name resources in URL paths. They are checked before any request is sent, and every id is
 * percent-encoded into its path segment, so no id can change which resource a request addresses.
 */
import { UsageError } from '../base/errors.js';
import { lazily } from '../base/lazily.js';

export const MAX_ID_LENGTH = 128;

// Whitespace, C0 and C1 controls: never part of an id, and a sign of a pasting accident. A lone
// surrogate (half a character) cannot be percent-encoded at all. Made on first use: V8 builds a
// Unicode property's class when it makes the expression (a few tenths of a millisecond), and most
// commands that load this module check no id.
const forbidden = lazily(() => /[\s\p{Cc}\p{Cs}]/u);

export function checkId(value: string | undefined, label = 'id'): string {
  if (value === undefined || value.length === 0) throw new UsageError(`${label} must not be empty`);
  if (forbidden().test(value)) throw new UsageError(`${label} must not contain whitespace, control characters or broken characters`);
  if (value.length > MAX_ID_LENGTH) throw new UsageError(`${label} is longer than ${MAX_ID_LENGTH} characters`);
  // URL parsing turns these segments (encoded or not) into path steps, so they cannot name anything.
  if (value === '.' || value === '..') throw new UsageError(`${label} must not be "." or ".."`);
  return value;
}

/** Encodes one path segment, so that '/', '?', '#' and '%' in an id stay part of it. */
export function encodeSegment(value: string): string {
  return encodeURIComponent(value);
}

/** A path template whose interpolated values are encoded as path segments: path`/v1/x/${id}`. */
export function path(strings: TemplateStringsArray, ...values: string[]): string {
  return strings.reduce((out, part, index) => out + part + (index < values.length ? encodeSegment(values[index]!) : ''), '');
}
