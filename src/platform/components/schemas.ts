/** Email components: reusable blocks of email content, kept as LMX. */
import { z } from '../../base/shapes.js';

export const component = z.looseObject({
  id: z.string(),
  name: z.string(),
  /** The body serialized as LMX. */
  lmx: z.string(),
});
export type Component = z.infer<typeof component>;

/** An update's answer: the component, and how many emails the body change reached. */
export const updatedComponent = z.extend(component, { affectedEmailCount: z.number() });
export type UpdatedComponent = z.infer<typeof updatedComponent>;

/** A 422's body: with invalidTags when the change would put variables into emails that cannot use them. */
export const componentValidationFailure = z.looseObject({
  message: z.string(),
  invalidTags: z.optional(z.array(z.string())),
});
