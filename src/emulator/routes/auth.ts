/** The sandbox's answer to the API-key test. */
import { z } from '../../base/shapes.js';
import { apiKeyInfo } from '../../platform/auth/schemas.js';
import { answer, type FailureShape, type SandboxModule } from '../module.js';

/**
 * A refused key, as the description documents it: `error` repeats the message. The description marks
 * it deprecated, but the JavaScript SDK still reads it first.
 */
const keyFailures: FailureShape = {
  schema: z.looseObject({ success: z.boolean(), message: z.string(), error: z.string() }),
  body: (failure) => ({ success: false, message: failure.message, error: failure.message }),
};

export const sandbox: SandboxModule = {
  slices: [],
  routes: [{ operation: 'testApiKey', failures: keyFailures, run: ({ state }) => answer(apiKeyInfo, { success: true, teamName: state.teamName }) }],
};
