/** `loopsctl segments`: audience segments and their filters. */
import { command, group, PLAN_OPTIONS, type Spec } from '../../core/declare.js';
import { listCommand } from '../../core/list.js';

const EXAMPLE_ID = 'cou0ry44a25ttuva13k3rtcye';
const EXAMPLE_FILTER = `'{"match":"all","conditions":[{"type":"property","key":"plan","operator":"equals","value":"pro"}]}'`;

/** The filter format, for `create --help`. */
const FILTER_HELP = `The filter file holds one JSON object:
  {"match": "all" | "any", "conditions": [...]}
with at least one condition of these kinds:
  {"type": "property", "key": <property>, "operator": <op>, "value": <value>}
    without a value: any, isTrue, isFalse, empty, notEmpty, dateEmpty,
      dateNotEmpty
    with a string or number: equals, notEquals, contains, notContains,
      greaterThan, lessThan, after, before
    between takes {"from": <ISO time>, "to": <ISO time>}
  {"type": "optIn", "status": "accepted" | "pending" | "rejected" | null}
  {"type": "activity", "action": "sent" | "opened" | "clicked",
   "negate": true | false, "target": "campaign" | "workflow" | "workflowEmail",
   "id": <its id>}
The filter is checked before anything is sent; an error names the condition at
fault, e.g. conditions[2].operator.`;

export const spec: Spec = group({
  name: 'segments',
  // The Loops CLI's name for the group.
  aliases: ['audience-segments'],
  summary: 'Audience segments: list, get, create',
  examples: ['loopsctl segments list', `loopsctl segments get ${EXAMPLE_ID}`],
  commands: () => [
    listCommand({
      summary: 'List audience segments with their filters in words, most recently created first',
      example: 'loopsctl segments list',
      output: async () => (await import('../../platform/segments/schemas.js')).audienceSegment,
      load: async () => (await import('./commands.js')).list,
    }),
    command({
      name: 'get',
      aliases: ['show', 'view'],
      summary: 'Show one audience segment, its filter in words',
      args: [{ name: 'id', description: 'segment id (from `loopsctl segments list`)', completes: 'segments' }],
      examples: [`loopsctl segments get ${EXAMPLE_ID}`, `loopsctl segments get ${EXAMPLE_ID} --json`],
      remote: true,
      tier: 'read',
      output: async () => (await import('../../platform/segments/schemas.js')).audienceSegment,
      load: async () => (await import('./commands.js')).get,
    }),
    command({
      name: 'create',
      summary: 'Create an audience segment from a filter file',
      help: FILTER_HELP,
      options: [
        ...PLAN_OPTIONS,
        { flags: '--name <name>', description: 'segment name, unique in the team', required: true },
        { flags: '--description <text>', description: 'what the segment is for' },
        {
          flags: '--filter-file <file>',
          description: 'JSON file holding the filter (- reads stdin)',
          required: true,
          file: { inline: { name: 'filter', encoding: 'text', description: 'the filter, as JSON' } },
        },
      ],
      examples: [
        `echo ${EXAMPLE_FILTER} | loopsctl segments create --name "Pro plan" --filter-file -`,
        `loopsctl segments get ${EXAMPLE_ID} --json | jq .filter | loopsctl segments create --name "Paying (copy)" --filter-file -`,
      ],
      remote: true,
      tier: 'write',
      load: async () => (await import('./commands.js')).create,
    }),
  ],
});
