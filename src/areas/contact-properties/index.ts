/** `loopsctl contact-properties`: the contact properties of the account. */
import { command, group, type Spec } from '../../core/declare.js';
import { JSON_OR_JSONL, JSONL_OPTION } from '../../core/list.js';

export const spec: Spec = group({
  name: 'contact-properties',
  aliases: ['properties'],
  summary: 'Contact properties: list, create',
  examples: ['loopsctl contact-properties list', 'loopsctl contact-properties create --name planName --type string'],
  commands: () => [
    command({
      name: 'list',
      aliases: ['ls'],
      summary: 'List contact properties (standard and custom), with their types',
      options: [{ flags: '--custom', description: 'only the custom properties' }, JSONL_OPTION],
      examples: ['loopsctl contact-properties list', 'loopsctl contact-properties list --custom --json'],
      remote: true,
      tier: 'read',
      constraints: { exclusive: [JSON_OR_JSONL] },
      output: async () => (await import('../../platform/contact-properties/schemas.js')).contactProperty,
      load: async () => (await import('./commands.js')).list,
    }),
    command({
      name: 'create',
      summary: 'Create a custom contact property',
      options: [
        { flags: '--name <name>', description: 'camelCase name, such as planName', required: true },
        { flags: '--type <type>', description: 'value type', choices: ['string', 'number', 'boolean', 'date'], required: true },
      ],
      examples: ['loopsctl contact-properties create --name companySize --type number'],
      remote: true,
      tier: 'write',
      load: async () => (await import('./commands.js')).create,
    }),
  ],
});
