/** The answer to the API-key test. */
import { z } from '../../base/shapes.js';

export const apiKeyInfo = z.looseObject({ success: z.boolean(), teamName: z.string() });
