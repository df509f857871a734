/** `loopsctl campaigns`: email campaigns, their audience and schedule. */
import { command, group, type OptionSpec, PLAN_OPTIONS, type Spec } from '../../core/declare.js';
import { JSON_OR_JSONL, listCommand } from '../../core/list.js';
import { WEB_OPTION, WEB_OR_JSON } from '../../core/web-option.js';

const DRAFT_ID = 'cb9tvk4yur8c4puvh4crvzir7';
/** The sandbox's sent "October newsletter", and a draft that has no metrics yet. */
const SENT_ID = 'caln1ehk86xojuwevkh90qwhl';
const SPRING_SALE_ID = 'c5hihv2wbzma9bzs8kg5hvd41';
const NEWSLETTERS_GROUP = 'cwrn93d7b2d8z425hjhe3e17f';
const SEGMENT_ID = 'cptd30ckudge29hdrg6m3yqwh';

const FIELD_OPTIONS: OptionSpec[] = [
  { flags: '--group <id>', description: "campaign group id (create's default: the team's default group)" },
  { flags: '--list <list|none>', description: 'mailing list to send to, by its id or its name; none clears it' },
  { flags: '--segment <id|none>', description: 'audience segment; none clears it' },
  {
    flags: '--filter-file <file>',
    description: 'JSON audience filter, as for `segments create` (- reads stdin)',
    file: { inline: { name: 'filter', encoding: 'text', description: 'the audience filter, as JSON (as for segments_create)' } },
  },
  { flags: '--schedule <now|time>', description: 'send as soon as it is sent (now), or at an ISO 8601 time', tier: 'destructive' },
];

const AUDIENCE_HELP = `Audience: a segment without a filter clears the campaign's filter, and a filter
without a segment clears its segment; given both, the filter narrows the
segment. The filter file's format is in \`loopsctl segments create --help\`; it
is checked before anything is sent.`;

export const spec: Spec = group({
  name: 'campaigns',
  summary: 'Email campaigns: list, get, metrics, create, update',
  examples: ['loopsctl campaigns list', `loopsctl campaigns get ${DRAFT_ID}`],
  commands: () => [
    listCommand({
      summary: 'List campaigns with their status',
      example: 'loopsctl campaigns list',
      output: async () => (await import('../../platform/campaigns/schemas.js')).campaign,
      load: async () => (await import('./commands.js')).list,
    }),
    command({
      name: 'get',
      aliases: ['show', 'view'],
      summary: 'Show one campaign, its audience filter and schedule in words',
      args: [{ name: 'id', description: 'campaign id (from `loopsctl campaigns list`)', completes: 'campaigns' }],
      options: [WEB_OPTION],
      examples: [`loopsctl campaigns get ${DRAFT_ID}`, `loopsctl campaigns get ${DRAFT_ID} --json`, `loopsctl campaigns get ${DRAFT_ID} --web`],
      remote: true,
      tier: 'read',
      constraints: { exclusive: WEB_OR_JSON },
      output: async () => (await import('../../platform/campaigns/schemas.js')).campaign,
      load: async () => (await import('./commands.js')).get,
    }),
    command({
      name: 'metrics',
      summary: 'Show all-time engagement metrics of one or more sent campaigns, with rates over sends',
      help: `Sends, opens, clicks, unsubscribes, hard and soft bounces and spam reports, with the open,
click, unsubscribe, bounce and spam rates over sends (a send opened five times counts once). With
several ids, the metrics that could be fetched are printed and each id that failed is reported on
stderr; the exit code is the highest of the failures'. A campaign not sent yet has no metrics: it
is named on stderr and does not fail the run. --json prints an array of objects with campaignId;
--jsonl one per line. The metrics API must be enabled for the team (else 401, exit 3).`,
      args: [{ name: 'id', description: 'campaign ids', variadic: true, completes: 'campaigns' }],
      options: [{ flags: '--jsonl', description: 'print one compact JSON object per line (instead of --json)' }],
      examples: [`loopsctl campaigns metrics ${SENT_ID}`, `loopsctl campaigns metrics ${SENT_ID} ${SPRING_SALE_ID} --json`],
      remote: true,
      tier: 'read',
      constraints: { exclusive: [JSON_OR_JSONL] },
      load: async () => (await import('./commands.js')).metrics,
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
      help: `Only the fields given are sent.\n${AUDIENCE_HELP}\nA sent campaign refuses other changes (exit 5); nothing is changed then.
The audience of a scheduled campaign (read from the account just before the
write) is changed only with --live, else exit 11, nothing sent: it would send to
the new audience.`,
      args: [{ name: 'id', description: 'campaign id (from `loopsctl campaigns list`)', completes: 'campaigns' }],
      options: [
        ...PLAN_OPTIONS,
        { flags: '--name <name>', description: 'new name' },
        ...FIELD_OPTIONS,
        {
          flags: '--live',
          description: 'change the audience of a campaign that is scheduled (or set to send at a time): it sends to the new one',
          tier: 'destructive',
        },
      ],
      // The audience first: once a time is set, a change of it needs --live.
      examples: [`loopsctl campaigns update ${DRAFT_ID} --segment none`, `loopsctl campaigns update ${DRAFT_ID} --schedule 2030-01-06T09:00:00Z`],
      remote: true,
      tier: 'write',
      constraints: { oneRequired: [{ flags: ['--name', '--group', '--list', '--segment', '--filter-file', '--schedule'] }] },
      load: async () => (await import('./commands.js')).update,
    }),
  ],
});
