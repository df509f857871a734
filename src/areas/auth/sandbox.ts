/** The sandbox's answer to the API-key test. */
import { answer, type SandboxModule } from '../../sandbox/module.js';
import { apiKeyInfo } from './schemas.js';

export const sandbox: SandboxModule = {
  slices: [],
  routes: [{ method: 'GET', path: '/v1/api-key', run: ({ state }) => answer(apiKeyInfo, { success: true, teamName: state.teamName }) }],
};
