/** The answer to sending an event. */
import { z } from '../../base/shapes.js';

export const eventSent = z.looseObject({ success: z.boolean() });
