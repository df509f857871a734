/**
 * The shapes every area of the API shares: errors and times. Each area keeps the shapes of its own
 * resources in its folder (src/platform/<area>/schemas.ts), built with the helpers of
 * src/base/shapes.ts. These schemas are the single source of truth: types are inferred from them,
 * the client checks every answer with them, and the sandbox builds its answers with them.
 */
import { z } from '../base/shapes.js';

/** An ISO 8601 time, as the API writes them. */
export const timestamp = z.string();

export const errorBody = z.looseObject({ message: z.string() });
