/** `loopsctl components`: reusable blocks of email content, kept as LMX. */
import { command, type FlagSet, group, type Spec } from '../../core/declare.js';
import { listCommand } from '../../core/list.js';

/** --lmx is an output form of its own. */
const LMX_OR_JSON: FlagSet = { flags: ['--lmx', '--json'], hint: 'choose one output form' };

const EXAMPLE_ID = 'ccudhxkdl4bdrw5mbo1ctnkae';

export const spec: Spec = group({
  name: 'components',
  summary: 'Email components (LMX): list, get, create, update',
  examples: ['loopsctl components list', `loopsctl components get ${EXAMPLE_ID} --lmx`],
  commands: () => [
    listCommand({
      summary: 'List email components with the size of their LMX',
      example: 'loopsctl components list',
      output: async () => (await import('../../platform/components/schemas.js')).component,
      load: async () => (await import('./commands.js')).list,
    }),
    command({
      name: 'get',
      aliases: ['show', 'view'],
      summary: 'Show a component; --lmx prints its LMX alone, as stored',
      args: [{ name: 'id', description: 'component id (from `loopsctl components list`)', completes: 'components' }],
      options: [{ flags: '--lmx', description: 'print only the LMX (exactly as stored when piped)' }],
      examples: [`loopsctl components get ${EXAMPLE_ID}`, `loopsctl components get ${EXAMPLE_ID} --lmx > footer.lmx`],
      remote: true,
      tier: 'read',
      constraints: { exclusive: [LMX_OR_JSON, { flags: ['--lmx', '--jq'], hint: LMX_OR_JSON.hint }] },
      output: async () => (await import('../../platform/components/schemas.js')).component,
      load: async () => (await import('./commands.js')).get,
    }),
    command({
      name: 'create',
      summary: 'Create a component from an LMX file',
      options: [
        { flags: '--name <name>', description: 'component name', required: true },
        {
          flags: '--lmx-file <file>',
          description: 'file holding the LMX (- reads stdin)',
          required: true,
          file: { inline: { name: 'lmx', encoding: 'text', description: 'the LMX of the component' } },
        },
      ],
      examples: ['echo "<Paragraph>Thanks for reading</Paragraph>" | loopsctl components create --name "Sign-off" --lmx-file -'],
      remote: true,
      tier: 'write',
      load: async () => (await import('./commands.js')).create,
    }),
    command({
      name: 'update',
      summary: 'Rename a component or replace its LMX; a new body reaches every email using it',
      help: [
        'The API refuses LMX that is too large (413) or not valid (422), and a body',
        'that would put variables into emails that cannot use them (422, naming them).',
        'Nothing is changed then.',
        '',
        'A new body reaches every email that embeds the component: when one of them',
        'reaches people now, the change is made only with --live (else exit 11, nothing',
        'sent, the live emails named).',
      ].join('\n'),
      args: [{ name: 'id', description: 'component id (from `loopsctl components list`)', completes: 'components' }],
      options: [
        { flags: '--name <name>', description: 'new name' },
        {
          flags: '--lmx-file <file>',
          description: 'file holding the new LMX (- reads stdin)',
          file: { inline: { name: 'lmx', encoding: 'text', description: 'the new LMX' } },
        },
        {
          flags: '--live',
          description:
            "change a component that an email reaching people now embeds: a published transactional email's, a scheduled campaign's, a live workflow's",
          tier: 'destructive',
        },
      ],
      examples: [
        `loopsctl components get ${EXAMPLE_ID} --lmx | loopsctl components update ${EXAMPLE_ID} --lmx-file -`,
        `loopsctl components update ${EXAMPLE_ID} --name "Footer (2025)"`,
      ],
      remote: true,
      tier: 'write',
      constraints: { oneRequired: [{ flags: ['--name', '--lmx-file'] }] },
      load: async () => (await import('./commands.js')).update,
    }),
  ],
});
