/**
 * The client's schemas made strict, all the way down: an object may carry only the fields its
 * schema names. The sandbox checks every answer with these before sending it, so it can never
 * answer with a field the client does not know of, nor miss one the client needs.
 */
import { STRICT_FORM, z, type StrictFormBuilder } from '../base/shapes.js';

function strictly(schema: z.ZodType): z.ZodType {
  // A schema that checks more in a refinement than a generic walk can see says what its strict form is.
  const special = (schema as { [STRICT_FORM]?: StrictFormBuilder })[STRICT_FORM];
  if (special !== undefined) return special(strictly);
  if (schema instanceof z.ZodObject) {
    const shape = Object.fromEntries(Object.entries(schema.shape as Record<string, z.ZodType>).map(([key, field]) => [key, strictly(field)]));
    return z.strictObject(shape);
  }
  if (schema instanceof z.ZodLazy) return strictly(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodArray) return z.array(strictly(schema.element as z.ZodType));
  if (schema instanceof z.ZodOptional) return strictly(schema.unwrap() as z.ZodType).optional();
  if (schema instanceof z.ZodNullable) return strictly(schema.unwrap() as z.ZodType).nullable();
  if (schema instanceof z.ZodRecord) return z.record(schema.keyType as z.ZodString, strictly(schema.valueType as z.ZodType));
  if (schema instanceof z.ZodUnion) return z.union((schema.options as z.ZodType[]).map(strictly));
  return schema;
}

const cache = new WeakMap<z.ZodType, z.ZodType>();

/** The strict form of a client schema, built once. */
export function strictFormOf(schema: z.ZodType): z.ZodType {
  let strict = cache.get(schema);
  if (strict === undefined) {
    strict = strictly(schema);
    cache.set(schema, strict);
  }
  return strict;
}
