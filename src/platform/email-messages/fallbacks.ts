/**
 * Where an email message keeps the fallbacks of each kind of variable: the one mapping of a
 * variable's namespace (`{contact.…}`, `{event.…}`, `{data.…}`) to the message's field. No zod, so
 * that LMX's parser (a check of an .lmx file) reads it without loading an API schema.
 */
export const FALLBACK_FIELDS = {
  contact: 'contactPropertiesFallbacks',
  event: 'eventPropertiesFallbacks',
  data: 'dataVariablesFallbacks',
} as const;
export type FallbackKind = keyof typeof FALLBACK_FIELDS;
export type FallbackField = (typeof FALLBACK_FIELDS)[FallbackKind];

/** The fallback fields' names, as a message, a tree's fields file and a check list them. */
export const FALLBACK_FIELD_NAMES: readonly FallbackField[] = Object.values(FALLBACK_FIELDS);

/** A message's (or a fields file's) fallbacks, by the namespace of the variables they stand in for: what the renderer and Guardian take. */
export function fallbacksOf<V = Record<string, string>>(fields: object): Partial<Record<FallbackKind, V>> {
  const found: Partial<Record<FallbackKind, V>> = {};
  for (const [namespace, field] of Object.entries(FALLBACK_FIELDS) as [FallbackKind, FallbackField][]) {
    const value = (fields as Partial<Record<FallbackField, V>>)[field];
    if (value !== undefined) found[namespace] = value;
  }
  return found;
}
