/** `loopsctl campaigns`: email campaigns, their audience and schedule. */
import { command, group, type OptionSpec } from '../../core/declare.js';
import { listCommand } from '../../core/list.js';
import type { Area } from '../area.js';

const DRAFT_ID = 'cb9tvk4yur8c4puvh4crvzir7';
const NEWSLETTERS_GROUP = 'cwrn93d7b2d8z425hjhe3e17f';
const SEGMENT_ID = 'cptd30ckudge29hdrg6m3yqwh';

const FIELD_OPTIONS: OptionSpec[] = [
  { flags: '--group <id>', description: "campaign group id (create's default: the team's default group)" },
  { flags: '--list <id|none>', description: 'mailing list to send to; none clears it' },
  { flags: '--segment <id|none>', description: 'audience segment; none clears it' },
  { flags: '--filter-file <file>', description: 'JSON audience filter, as for `segments create` (- reads stdin)' },
  { flags: '--schedule <now|time>', description: 'send as soon as it is sent (now), or at an ISO 8601 time', tier: 'destructive' },
];

const AUDIENCE_HELP = `Audience: a segment without a filter clears the campaign's filter, and a filter
without a segment clears its segment; given both, the filter narrows the
segment. The filter file's format is in \`loopsctl segments create --help\`; it
is checked before anything is sent.`;

export const area: Area = {
  spec: group({
    name: 'campaigns',
    summary: 'Email campaigns: list, get, create, update',
    examples: ['loopsctl campaigns list', `loopsctl campaigns get ${DRAFT_ID}`],
    commands: () => [
      listCommand({
        summary: 'List campaigns with their status',
        example: 'loopsctl campaigns list',
        load: async () => (await import('./commands.js')).list,
      }),
      command({
        name: 'get',
        aliases: ['show', 'view'],
        summary: 'Show one campaign, its audience filter and schedule in words',
        args: [{ name: 'id', description: 'campaign id (from `loopsctl campaigns list`)' }],
        examples: [`loopsctl campaigns get ${DRAFT_ID}`, `loopsctl campaigns get ${DRAFT_ID} --json`],
        remote: true,
        tier: 'read',
        load: async () => (await import('./commands.js')).get,
      }),
      command({
        name: 'create',
        summary: 'Create a draft campaign with an empty email message',
        help: AUDIENCE_HELP,
        options: [{ flags: '--name <name>', description: 'campaign name', required: true }, ...FIELD_OPTIONS],
        examples: [
          `loopsctl campaigns create --name "December newsletter" --group ${NEWSLETTERS_GROUP} --segment ${SEGMENT_ID}`,
          'loopsctl campaigns create --name "Launch" --schedule 2030-07-15T14:00:00Z --json',
        ],
        remote: true,
        tier: 'write',
        load: async () => (await import('./commands.js')).create,
      }),
      command({
        name: 'update',
        summary: "Change a campaign's name, group, audience or schedule; once sent, only name and group",
        help: `Only the fields given are sent.\n${AUDIENCE_HELP}\nA sent campaign refuses other changes (exit 5); nothing is changed then.`,
        args: [{ name: 'id', description: 'campaign id (from `loopsctl campaigns list`)' }],
        options: [{ flags: '--name <name>', description: 'new name' }, ...FIELD_OPTIONS],
        examples: [`loopsctl campaigns update ${DRAFT_ID} --schedule 2030-01-06T09:00:00Z`, `loopsctl campaigns update ${DRAFT_ID} --segment none`],
        remote: true,
        tier: 'write',
        constraints: { oneRequired: [{ flags: ['--name', '--group', '--list', '--segment', '--filter-file', '--schedule'] }] },
        load: async () => (await import('./commands.js')).update,
      }),
    ],
  }),
  sandbox: async () => (await import('./sandbox.js')).sandbox,
};
