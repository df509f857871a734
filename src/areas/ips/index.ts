/** `loopsctl ips`: the platform's dedicated sending IP addresses, for allow-lists. */
import { command, group, type Spec } from '../../core/declare.js';

export const spec: Spec = group({
  name: 'ips',
  // The Loops CLI's name for the group, and the API's.
  aliases: ['dedicated-sending-ips'],
  summary: 'Dedicated sending IP addresses: list, check an allow-list',
  examples: ['loopsctl ips list --plain', 'loopsctl ips check allowlist.txt'],
  commands: () => [
    command({
      name: 'list',
      aliases: ['ls'],
      summary: 'List the dedicated sending IP addresses (the list changes over time and excludes shared IPs)',
      options: [
        { flags: '--plain', description: 'one address per line, nothing else', textOnly: true },
        { flags: '--cidr', description: 'print each address as a single-host range (/32 or /128); --json stays as the API sent it', textOnly: true },
      ],
      examples: ['loopsctl ips list', 'loopsctl ips list --plain > allowlist.txt', 'loopsctl ips list --plain --cidr', 'loopsctl ips list --json'],
      remote: true,
      tier: 'read',
      output: async () => (await import('../../platform/ips/schemas.js')).dedicatedSendingIps.def.element,
      load: async () => (await import('./commands.js')).list,
    }),
    command({
      name: 'check',
      summary: 'Compare the dedicated sending IPs with an allow-list file; exit 1 when they differ',
      args: [
        {
          name: 'file',
          description: 'one address or CIDR range per line; # comments and blank lines are ignored',
          file: {
            inline: {
              name: 'allow-list',
              encoding: 'text',
              description: 'the allow-list: one address or CIDR range per line; # comments and blank lines are ignored',
            },
          },
        },
      ],
      help: `An API address inside a listed range counts as covered. "+" lines are API addresses the file does
not cover (add them); "-" lines are entries of the file that cover no API address (remove them).
With --json, {inSync, added, removed} is printed on stdout whatever the outcome.`,
      examples: ['loopsctl ips list --plain > allowlist.txt', 'loopsctl ips check allowlist.txt', 'loopsctl ips check allowlist.txt --json'],
      mismatch: 'the sending IPs and the file differ',
      remote: true,
      tier: 'read',
      load: async () => (await import('./commands.js')).check,
    }),
  ],
});
