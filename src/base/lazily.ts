/**
 * A value made on first use, then kept: seed data that most runs never need, and schemas that
 * only some commands check with, so that loading a module costs neither.
 */
export function lazily<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
