/** `loopsctl transactional`: transactional emails, their metrics and drafts. */
import { command, group } from '../../core/declare.js';
import { listCommand } from '../../core/list.js';
import type { Area } from '../area.js';

const EXAMPLE_ID = 'c1h3243uwicgpgajrgexlzdl5';

export const area: Area = {
  spec: group({
    name: 'transactional',
    summary: 'Transactional emails: list, metrics, drafts, create',
    examples: ['loopsctl transactional list', `loopsctl transactional metrics ${EXAMPLE_ID}`],
    commands: [
      listCommand({
        summary: 'List transactional emails, most recently created first',
        example: 'loopsctl transactional list',
        load: async () => (await import('./commands.js')).list,
      }),
      command({
        name: 'metrics',
        summary: 'Show all-time delivery metrics of one or more transactional emails',
        args: [{ name: 'id', description: 'transactional email ids', variadic: true, completes: 'transactional-emails' }],
        examples: [`loopsctl transactional metrics ${EXAMPLE_ID}`, `loopsctl transactional metrics ${EXAMPLE_ID} --json`],
        remote: true,
        load: async () => (await import('./commands.js')).metrics,
      }),
      command({
        name: 'draft',
        summary: 'Make sure a transactional email has a draft, and show it (creates one from the published version if needed)',
        args: [{ name: 'id', description: 'transactional email id', completes: 'transactional-emails' }],
        examples: [`loopsctl transactional draft ${EXAMPLE_ID}`, `loopsctl transactional draft ${EXAMPLE_ID} --json`],
        remote: true,
        load: async () => (await import('./commands.js')).draft,
      }),
      command({
        name: 'create',
        summary: 'Create a transactional email with an empty draft',
        options: [
          { flags: '--name <name>', description: 'name of the transactional email', required: true },
          { flags: '--group <transactionalGroupId>', description: "group to put it in (default: the team's default group)" },
        ],
        examples: ['loopsctl transactional create --name "Password reset"', 'loopsctl transactional create --name "Receipt" --json'],
        remote: true,
        load: async () => (await import('./commands.js')).create,
      }),
    ],
  }),
  sandbox: async () => (await import('./sandbox.js')).sandbox,
};
