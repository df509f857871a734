/** `loopsctl auth`: store, check, list, switch and forget API keys, one per profile. */
import { command, group, type Spec } from '../../core/declare.js';
import { API_KEY } from '../../platform/auth/resource.js';

const PROFILE_ARG = { name: 'profile', description: 'the profile’s name' };

export const spec: Spec = group({
  name: 'auth',
  summary: 'Log in, list, switch and check profiles and their API keys',
  help: 'A command uses the key of --profile, else LOOPS_API_KEY, else the profile LOOPSCTL_PROFILE names, else the default profile (`auth switch`). Keys live in the system keychain where one is reachable, else in the config file (readable by you only); see docs/auth.md.',
  examples: ['loopsctl auth login', 'loopsctl auth list', 'loopsctl auth switch staging', 'loopsctl auth status'],
  // The declarations are data, a list read as a whole (help, completion, the reference): one piece.
  commands: () => [
    command({
      name: 'login',
      summary: 'Store an API key for a profile, after checking it with the API',
      help: 'Find or create an API key in the Loops app under Settings > API. The key goes into the system keychain where one is reachable (macOS Keychain, Secret Service, Windows Credential Manager), else into the config file; logging in again moves it and leaves no copy behind. Logged in with --base-url, the profile keeps that address: its commands go there unless a run names another (--base-url, LOOPS_BASE_URL).',
      options: [
        { flags: '--with-key-stdin', description: 'read the key from standard input instead of asking' },
        { flags: '--skip-verify', description: 'store the key without checking it' },
        { flags: '--insecure-storage', description: 'store the key in the config file (readable by you only), not the system keychain' },
        { flags: '--read-only', description: 'mark the profile read-only: commands that change the account are refused unless a run says --allow-writes' },
      ],
      examples: [
        'loopsctl auth login',
        'printenv LOOPS_KEY | loopsctl auth login --with-key-stdin --profile staging',
        'loopsctl auth login --insecure-storage',
        'loopsctl auth login --profile production --read-only',
      ],
      interactive: true,
      remote: true,
      tier: 'read',
      storesKeys: true,
      load: async () => (await import('./commands.js')).login,
    }),
    command({
      name: 'status',
      summary: 'Show which key a command would use, why, where it lives, and its team',
      options: [
        {
          flags: '--record-team',
          description: "record the key's team as the profile's, the team its writes must go to (after the team was renamed)",
          personOnly: true,
        },
      ],
      help: `The profile's recorded team (from \`auth login\`) is the one the team check holds its writes to;
reading the key's team never changes it. When the key belongs to another team, auth status says so
and exits 11: store the right key with \`auth login\`, or, if the team itself was renamed, record
the new name with --record-team.`,
      examples: [
        'loopsctl auth status',
        'loopsctl auth status --profile staging',
        'loopsctl auth status --profile production --record-team',
        'loopsctl --sandbox auth status --json',
      ],
      remote: true,
      tier: 'read',
      load: async () => (await import('./commands.js')).status,
    }),
    command({
      name: 'list',
      aliases: ['ls'],
      summary: 'List the stored profiles: the default, where each key lives, its recorded team, whether it is read-only',
      examples: ['loopsctl auth list', 'loopsctl auth list --json'],
      remote: false,
      load: async () => (await import('./commands.js')).list,
    }),
    command({
      name: 'read-only',
      summary: 'Mark a stored profile read-only: its writes are refused unless a run says --allow-writes',
      args: [PROFILE_ARG],
      examples: ['loopsctl auth read-only production'],
      remote: false,
      storesKeys: true,
      load: async () => (await import('./commands.js')).markReadOnly,
    }),
    command({
      name: 'read-write',
      summary: 'Lift the read-only mark of a stored profile',
      args: [PROFILE_ARG],
      examples: ['loopsctl auth read-write production'],
      remote: false,
      storesKeys: true,
      load: async () => (await import('./commands.js')).markReadWrite,
    }),
    command({
      name: 'switch',
      aliases: ['use'],
      summary: 'Make a stored profile the one commands use by default',
      args: [PROFILE_ARG],
      examples: ['loopsctl auth switch staging'],
      remote: false,
      storesKeys: true,
      load: async () => (await import('./commands.js')).switchProfile,
    }),
    command({
      name: 'rename',
      summary: 'Give a stored profile a new name',
      args: [
        { name: 'old', description: 'the profile’s name' },
        { name: 'new', description: 'its new name' },
      ],
      examples: ['loopsctl auth rename default production'],
      remote: false,
      storesKeys: true,
      load: async () => (await import('./commands.js')).rename,
    }),
    command({
      name: 'remove',
      summary: 'Forget a profile and its key, wherever it lives',
      args: [PROFILE_ARG],
      options: [{ flags: '--yes', description: 'do it without asking (needed when not on a terminal)' }],
      examples: ['loopsctl auth remove staging', 'loopsctl auth remove staging --yes'],
      remote: false,
      storesKeys: true,
      load: async () => (await import('./commands.js')).remove,
    }),
    command({
      name: 'logout',
      summary: "Forget the key of the profile in use (or --profile's)",
      examples: ['loopsctl auth logout', 'loopsctl auth logout --profile staging'],
      remote: false,
      storesKeys: true,
      load: async () => (await import('./commands.js')).logout,
    }),
    command({
      name: 'token',
      summary: 'Print the key a command would use, for another tool (only into a pipe, or with --show)',
      options: [{ flags: '--show', description: 'print it on a terminal too' }],
      examples: [
        'loopsctl auth token | pbcopy',
        `curl -H "Authorization: Bearer $(loopsctl auth token --profile staging)" https://app.loops.so/api${API_KEY.operations.testApiKey.path}`,
      ],
      remote: false,
      interactive: true,
      load: async () => (await import('./commands.js')).token,
    }),
  ],
});
