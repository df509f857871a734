/** `loopsctl auth`: store, check and forget API keys, one per profile. */
import { command, group } from '../../core/declare.js';
import type { Area } from '../area.js';

export const area: Area = {
  spec: group({
    name: 'auth',
    summary: 'Log in, check and log out API keys',
    examples: ['loopsctl auth login', 'loopsctl auth status'],
    commands: () => [
      command({
        name: 'login',
        summary: 'Store an API key for a profile, after checking it with the API',
        help: 'Find or create an API key in the Loops app under Settings > API.',
        options: [
          { flags: '--with-key-stdin', description: 'read the key from standard input instead of asking' },
          { flags: '--skip-verify', description: 'store the key without checking it' },
        ],
        examples: ['loopsctl auth login', 'printenv LOOPS_KEY | loopsctl auth login --with-key-stdin --profile staging'],
        interactive: true,
        remote: true,
        tier: 'read',
        storesKeys: true,
        load: async () => (await import('./commands.js')).login,
      }),
      command({
        name: 'status',
        summary: 'Show which key is in use, where it comes from, and its team',
        examples: ['loopsctl auth status', 'loopsctl --sandbox auth status --json'],
        remote: true,
        tier: 'read',
        load: async () => (await import('./commands.js')).status,
      }),
      command({
        name: 'logout',
        summary: "Forget a profile's stored key",
        examples: ['loopsctl auth logout', 'loopsctl auth logout --profile staging'],
        remote: false,
        storesKeys: true,
        load: async () => (await import('./commands.js')).logout,
      }),
    ],
  }),
  sandbox: async () => (await import('./sandbox.js')).sandbox,
};
