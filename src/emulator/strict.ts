/**
 * The client's schemas made strict, all the way down: an object may carry only the fields its
 * schema names. The sandbox checks every answer with these before sending it, so it can never
 * answer with a field the client does not know of, nor miss one the client needs.
 */
import { STRICT_FORM, type StrictFormBuilder, z } from '../base/shapes.js';

function strictly(schema: z.ZodMiniType): z.ZodMiniType {
  // A schema that checks more in a refinement than a generic walk can see says what its strict form is.
  const special = (schema as { [STRICT_FORM]?: StrictFormBuilder })[STRICT_FORM];
  if (special !== undefined) return special(strictly);
  if (schema instanceof z.ZodMiniObject) {
    const shape = Object.fromEntries(Object.entries(schema.shape as Record<string, z.ZodMiniType>).map(([key, field]) => [key, strictly(field)]));
    return z.strictObject(shape);
  }
  if (schema instanceof z.ZodMiniLazy) return strictly(schema.def.getter() as z.ZodMiniType);
  if (schema instanceof z.ZodMiniArray) return z.array(strictly(schema.def.element as z.ZodMiniType));
  if (schema instanceof z.ZodMiniOptional) return z.optional(strictly(schema.def.innerType as z.ZodMiniType));
  if (schema instanceof z.ZodMiniNullable) return z.nullable(strictly(schema.def.innerType as z.ZodMiniType));
  if (schema instanceof z.ZodMiniRecord) return z.record(schema.def.keyType as z.ZodMiniString, strictly(schema.def.valueType as z.ZodMiniType));
  if (schema instanceof z.ZodMiniUnion) return z.union((schema.def.options as z.ZodMiniType[]).map(strictly));
  return schema;
}

const cache = new WeakMap<z.ZodMiniType, z.ZodMiniType>();

/** The strict form of a client schema, built once. */
export function strictFormOf(schema: z.ZodMiniType): z.ZodMiniType {
  let strict = cache.get(schema);
  if (strict === undefined) {
    strict = strictly(schema);
    cache.set(schema, strict);
  }
  return strict;
}
