/** `loopsctl lists`: the account's mailing lists. */
import { command, group, type Spec } from '../../core/declare.js';
import { JSON_OR_JSONL, JSONL_OPTION } from '../../core/list.js';

export const spec: Spec = group({
  name: 'lists',
  aliases: ['mailing-lists'],
  summary: 'Mailing lists: list',
  examples: ['loopsctl lists list'],
  commands: () => [
    command({
      name: 'list',
      aliases: ['ls'],
      summary: 'List mailing lists, with the names and ids that --list takes',
      options: [JSONL_OPTION],
      examples: ['loopsctl lists list', 'loopsctl lists list --jsonl'],
      remote: true,
      tier: 'read',
      constraints: { exclusive: [JSON_OR_JSONL] },
      output: async () => (await import('../../platform/lists/schemas.js')).mailingList,
      load: async () => (await import('./commands.js')).list,
    }),
  ],
});
