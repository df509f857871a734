/** The answer to sending an event. */
import { z } from '../../api/schemas.js';

export const eventSent = z.looseObject({ success: z.boolean() });
export type EventSent = z.infer<typeof eventSent>;
