/** `loopsctl event-patterns`: the events workflow triggers listen for. */
import { command, type FlagSet, group, type Spec } from '../../core/declare.js';
import { listCommand } from '../../core/list.js';

const ID_OR_NAME: FlagSet = { flags: ['<id>', '--name'], hint: 'see them with `loopsctl event-patterns list`' };

const EXAMPLE_ID = 'csve7qwvdwdyt9d0ynxsqrby9';

export const spec: Spec = group({
  name: 'event-patterns',
  summary: 'Events that start workflows, and their properties: list, get',
  examples: ['loopsctl event-patterns list', 'loopsctl event-patterns get --name trial_started'],
  commands: () => [
    listCommand({
      summary: 'List the event patterns workflow event triggers can use',
      example: 'loopsctl event-patterns list',
      output: async () => (await import('../../platform/event-patterns/schemas.js')).eventPatternSummary,
      load: async () => (await import('./commands.js')).list,
    }),
    command({
      name: 'get',
      aliases: ['show', 'view'],
      summary: 'Show an event pattern and its properties, by id or by event name',
      args: [{ name: 'id', description: 'event pattern id (from `loopsctl event-patterns list`)', required: false }],
      options: [{ flags: '--name <eventName>', description: 'the exact event name instead of an id (case-sensitive)' }],
      examples: [`loopsctl event-patterns get ${EXAMPLE_ID}`, 'loopsctl event-patterns get --name trial_started --json'],
      remote: true,
      tier: 'read',
      constraints: { exclusive: [ID_OR_NAME], oneRequired: [ID_OR_NAME] },
      output: async () => (await import('../../platform/event-patterns/schemas.js')).eventPattern,
      load: async () => (await import('./commands.js')).get,
    }),
  ],
});
