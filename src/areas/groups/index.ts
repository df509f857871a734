/** `loopsctl groups` (alias `transactional-groups`): transactional groups. */
import { command, group, type Spec, PLAN_OPTIONS } from '../../core/declare.js';
import { listCommand } from '../../core/list.js';
import { groupName, RESERVED_GROUP_NAME } from '../../platform/groups/names.js';

const EXAMPLE_ID = 'c670t9v12lnoky3oebk56hswc';

export const spec: Spec = group({
  name: 'groups',
  aliases: ['transactional-groups'],
  summary: 'Transactional groups: list, get, create, update',
  examples: ['loopsctl groups list', `loopsctl groups get ${EXAMPLE_ID}`],
  commands: () => [
    listCommand({
      summary: 'List transactional groups, most recently created first',
      example: 'loopsctl groups list',
      output: async () => (await import('../../platform/groups/schemas.js')).group,
      load: async () => (await import('./commands.js')).list,
    }),
    command({
      name: 'get',
      aliases: ['show', 'view'],
      summary: 'Show one transactional group',
      args: [{ name: 'id', description: 'transactional group id', completes: 'transactional-groups' }],
      examples: [`loopsctl groups get ${EXAMPLE_ID}`],
      remote: true,
      tier: 'read',
      output: async () => (await import('../../platform/groups/schemas.js')).group,
      load: async () => (await import('./commands.js')).get,
    }),
    command({
      name: 'create',
      summary: 'Create a transactional group',
      options: [
        ...PLAN_OPTIONS,
        { flags: '--name <name>', description: `group name (not "${RESERVED_GROUP_NAME}")`, parse: groupName, required: true },
        { flags: '--description <text>', description: 'what the group holds' },
      ],
      examples: ['loopsctl groups create --name "Receipts" --description "Payment receipts and invoices"'],
      remote: true,
      tier: 'write',
      load: async () => (await import('./commands.js')).create,
    }),
    command({
      name: 'update',
      summary: 'Rename a transactional group or change its description; only the fields given are sent',
      args: [{ name: 'id', description: 'transactional group id', completes: 'transactional-groups' }],
      options: [
        ...PLAN_OPTIONS,
        { flags: '--name <name>', description: `new name (not "${RESERVED_GROUP_NAME}")`, parse: groupName },
        { flags: '--description <text>', description: 'new description' },
      ],
      examples: [`loopsctl groups update ${EXAMPLE_ID} --description "Everything else"`],
      remote: true,
      tier: 'write',
      constraints: { oneRequired: [{ flags: ['--name', '--description'] }] },
      load: async () => (await import('./commands.js')).update,
    }),
  ],
});
