/** `loopsctl doctor`: what loopsctl runs with and whether it works, each problem with a way out. */
import { command, type Spec } from '../../core/declare.js';
import { API_KEY } from '../../platform/auth/resource.js';
import { requestLine } from '../../platform/operation-row.js';

export const spec: Spec = command({
  name: 'doctor',
  summary: 'Check the install, the config, the key in use, the proxy, the API and the clock; exit 1 with hints when a check fails',
  help: `Checks, in order: the version and how it was installed, Node's version, the config directory
(a directory this user can write in and others cannot), the profile in use and where its key comes from (flag, environment, keychain,
file), the keychain backend, the proxy settings, whether the API answers and for which team
(${requestLine(API_KEY.operations.testApiKey)}), the clock's skew against the API's (webhook signatures depend on it; with
--sandbox, a skew made by moving the sandbox's clock passes, and says so), and whether
a newer version is out (not asked with CI, DO_NOT_TRACK or LOOPSCTL_NO_UPDATE_NOTIFIER set).
Proxy credentials and keys are never printed.`,
  examples: ['loopsctl doctor', 'loopsctl doctor --json', 'loopsctl --sandbox doctor', 'loopsctl doctor --profile staging'],
  mismatch: 'a check failed',
  remote: true,
  tier: 'read',
  load: async () => (await import('./commands.js')).doctor,
});
