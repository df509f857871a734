/**
 * The client's schemas made strict, all the way down: an object may carry only the fields its
 * schema names. The sandbox checks every answer with these before sending it, so it can never
 * answer with a field the client does not know of, nor miss one the client needs.
 */
import { z } from '../api/schemas.js';
import * as s from '../api/schemas.js';

/** A node checked against exactly its type's fields, in the simplified or the full view. */
function strictNode(shapeOf: (type: s.KnownNodeType) => Record<string, z.ZodType>): z.ZodType {
  const types = Object.keys(s.nodeFieldsByType) as s.KnownNodeType[];
  const variants = types.map((type) => strictly(z.object({ ...shapeOf(type), typeName: z.literal(type) })));
  return z.discriminatedUnion('typeName', variants as [z.ZodObject, ...z.ZodObject[]]);
}

/** The node schemas check their type's fields in a refinement, which a generic walk cannot see into. */
const nodeSchemas = new Map<z.ZodType, () => z.ZodType>([
  [s.simplifiedNode, () => strictNode(s.simplifiedNodeShape)],
  [s.workflowNode, () => strictNode(s.workflowNodeShape)],
]);

export function strictly(schema: z.ZodType): z.ZodType {
  const node = nodeSchemas.get(schema);
  if (node !== undefined) return node();
  if (schema instanceof z.ZodObject) {
    const shape = Object.fromEntries(Object.entries(schema.shape as Record<string, z.ZodType>).map(([key, field]) => [key, strictly(field)]));
    return z.strictObject(shape);
  }
  if (schema instanceof z.ZodArray) return z.array(strictly(schema.element as z.ZodType));
  if (schema instanceof z.ZodOptional) return strictly(schema.unwrap() as z.ZodType).optional();
  if (schema instanceof z.ZodNullable) return strictly(schema.unwrap() as z.ZodType).nullable();
  if (schema instanceof z.ZodRecord) return z.record(schema.keyType as z.ZodString, strictly(schema.valueType as z.ZodType));
  if (schema instanceof z.ZodUnion) return z.union((schema.options as z.ZodType[]).map(strictly));
  return schema;
}

const cache = new Map<z.ZodType, z.ZodType>();

/** The strict form of a client schema, built once. */
export function strictFormOf(schema: z.ZodType): z.ZodType {
  let strict = cache.get(schema);
  if (strict === undefined) {
    strict = strictly(schema);
    cache.set(schema, strict);
  }
  return strict;
}
