/** Contacts, the answers of their operations, and suppression. */
import { madeOnUse, withStrictForm, z } from '../../base/shapes.js';

/** A custom property's value as the API stores it: what `z.union([z.string(), z.number(), z.boolean(), z.null()])` passes. */
export type PropertyValue = string | number | boolean | null;

/**
 * A custom property's value, checked by a refinement of `unknown` rather than as that union: a
 * find, whose sandbox checks its answer's properties with it, then makes no union and no null
 * schema (zod sets up each schema class a start makes, once, at its first schema). A
 * value of another type is refused as the union refuses it, "Invalid input".
 */
export const propertyValue = z.unknown().check(
  z.superRefine((input, ctx) => {
    if (input === null || typeof input === 'string' || typeof input === 'boolean' || (typeof input === 'number' && Number.isFinite(input))) return;
    ctx.addIssue({ code: 'custom', message: 'Invalid input' });
  }),
) as unknown as z.ZodMiniType<PropertyValue>;

const contactShape = {
  id: z.optional(z.string()),
  email: z.optional(z.string()),
  firstName: z.optional(z.nullable(z.string())),
  lastName: z.optional(z.nullable(z.string())),
  source: z.optional(z.string()),
  subscribed: z.optional(z.boolean()),
  userGroup: z.optional(z.string()),
  userId: z.optional(z.nullable(z.string())),
  mailingLists: z.optional(z.record(z.string(), z.boolean())),
  optInStatus: z.optional(z.nullable(z.string())),
};

/**
 * A contact as find returns it. The description marks no field required; custom properties come
 * as further top-level fields, so the strict form allows any other field holding a plain value.
 */
const contact = withStrictForm(z.looseObject(contactShape), (strictly) =>
  z.catchall(z.object(Object.fromEntries(Object.entries(contactShape).map(([key, field]) => [key, strictly(field)]))), propertyValue),
);
export type Contact = z.infer<typeof contact>;

export const contacts = z.array(contact);

/*
 * The answers of the other operations, made on first use: a find, the command most runs of this
 * module serve, and the sandbox's contacts, which every run against it loads, check none of them.
 */

/** The answer to create and update. */
export const contactSaved = madeOnUse(() => z.looseObject({ success: z.boolean(), id: z.string() }));

export const contactDeleted = madeOnUse(() => z.looseObject({ success: z.boolean(), message: z.string() }));

const removalQuota = () => z.looseObject({ limit: z.number(), remaining: z.number() });

export const suppressionStatus = madeOnUse(() =>
  z.looseObject({
    contact: z.looseObject({ id: z.string(), email: z.string(), userId: z.nullable(z.string()) }),
    isSuppressed: z.boolean(),
    removalQuota: removalQuota(),
  }),
);
export type SuppressionStatus = z.infer<typeof suppressionStatus>;

export const suppressionRemoved = madeOnUse(() => z.looseObject({ success: z.boolean(), message: z.string(), removalQuota: removalQuota() }));
export type SuppressionRemoved = z.infer<typeof suppressionRemoved>;
