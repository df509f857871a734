/** `loopsctl campaign-groups`: the groups campaigns are sorted into. */
import { command, group, type Spec, PLAN_OPTIONS } from '../../core/declare.js';
import { listCommand } from '../../core/list.js';
import { groupName, RESERVED_GROUP_NAME } from '../../platform/groups/names.js';

const EXAMPLE_ID = 'cwrn93d7b2d8z425hjhe3e17f';
export const spec: Spec = group({
  name: 'campaign-groups',
  summary: 'Campaign groups: list, get, create, update',
  examples: ['loopsctl campaign-groups list', `loopsctl campaign-groups update ${EXAMPLE_ID} --name Newsletters`],
  commands: () => [
    listCommand({
      summary: 'List campaign groups, most recently created first',
      example: 'loopsctl campaign-groups list',
      output: async () => (await import('../../platform/groups/schemas.js')).group,
      load: async () => (await import('./commands.js')).list,
    }),
    command({
      name: 'get',
      aliases: ['show', 'view'],
      summary: 'Show one campaign group',
      args: [{ name: 'id', description: 'campaign group id', completes: 'campaign-groups' }],
      examples: [`loopsctl campaign-groups get ${EXAMPLE_ID}`],
      remote: true,
      tier: 'read',
      output: async () => (await import('../../platform/groups/schemas.js')).group,
      load: async () => (await import('./commands.js')).get,
    }),
    command({
      name: 'create',
      summary: 'Create a campaign group',
      options: [
        ...PLAN_OPTIONS,
        { flags: '--name <name>', description: `group name (not "${RESERVED_GROUP_NAME}")`, parse: groupName, required: true },
        { flags: '--description <text>', description: 'what the group holds' },
      ],
      examples: ['loopsctl campaign-groups create --name "Webinars" --description "Invitations and follow-ups"'],
      remote: true,
      tier: 'write',
      load: async () => (await import('./commands.js')).create,
    }),
    command({
      name: 'update',
      summary: 'Rename a campaign group or change its description (the Unsorted group cannot be edited)',
      args: [{ name: 'id', description: 'campaign group id', completes: 'campaign-groups' }],
      options: [
        ...PLAN_OPTIONS,
        { flags: '--name <name>', description: `new name (not "${RESERVED_GROUP_NAME}")`, parse: groupName },
        { flags: '--description <text>', description: 'new description' },
      ],
      examples: [`loopsctl campaign-groups update ${EXAMPLE_ID} --name "Newsletters"`, `loopsctl campaign-groups update ${EXAMPLE_ID} --description ""`],
      remote: true,
      tier: 'write',
      constraints: { oneRequired: [{ flags: ['--name', '--description'] }] },
      load: async () => (await import('./commands.js')).update,
    }),
  ],
});
