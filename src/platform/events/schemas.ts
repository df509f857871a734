/** The answer to sending an event. */
import { z } from '../schemas.js';

export const eventSent = z.looseObject({ success: z.boolean() });
