/** `loopsctl themes`: the account's email themes. */
import { command, group, type OptionSpec, type Spec } from '../../core/declare.js';
import { listCommand } from '../../core/list.js';
import { THEME_STYLE_GROUPS, THEME_STYLES } from '../../platform/themes/style-names.js';

const EXAMPLE_ID = 'cltm5y6g0tpd5kz8nbp117x0v';

const STYLE_OPTIONS: OptionSpec[] = [
  {
    flags: '--styles-file <file>',
    description: 'JSON file of styles, or a theme as `themes get --json` prints it (- reads stdin)',
    file: { inline: { name: 'styles', encoding: 'text', description: 'a JSON object of styles, or a theme as themes_get answers it' } },
  },
  { flags: '--style <style=value>', description: 'one style, e.g. buttonBodyColor=#0057ff (repeatable; wins over the file)', repeatable: true },
];

/** Words joined by ", " into lines of at most 78 columns, the later ones indented. */
function wrapList(first: string, words: string[]): string {
  const lines = [first];
  for (const [index, word] of words.entries()) {
    const piece = index < words.length - 1 ? `${word},` : word;
    if (lines.at(-1)!.length + 1 + piece.length > 78) lines.push(`    ${piece}`);
    else lines[lines.length - 1] += ` ${piece}`;
  }
  return lines.join('\n');
}

/** Every style with its kind, by group, for `--help`: made with the themes commands, not at every start. */
function stylesHelp(): string {
  return `Styles: colours are strings such as "#0057ff", sizes are numbers, fonts are names.
${Object.entries(THEME_STYLE_GROUPS)
  .map(([group, names]) =>
    wrapList(
      `  ${group}:`,
      names.map((name) => `${name} (${THEME_STYLES[name]})`),
    ),
  )
  .join('\n')}
Unknown styles and values of the wrong kind are refused before anything is sent.`;
}

export const spec: Spec = group({
  name: 'themes',
  summary: 'Email themes: list, get, create, update',
  examples: ['loopsctl themes list', `loopsctl themes get ${EXAMPLE_ID}`],
  commands: () => [
    listCommand({
      summary: 'List email themes with their main colours, most recently created first',
      example: 'loopsctl themes list',
      output: async () => (await import('../../platform/themes/schemas.js')).theme,
      load: async () => (await import('./commands.js')).list,
    }),
    command({
      name: 'get',
      aliases: ['show', 'view'],
      summary: 'Show every style of a theme, grouped as in the theme editor',
      args: [{ name: 'id', description: 'theme id (from `loopsctl themes list`)', completes: 'themes' }],
      examples: [`loopsctl themes get ${EXAMPLE_ID}`, `loopsctl themes get ${EXAMPLE_ID} --json`],
      remote: true,
      tier: 'read',
      output: async () => (await import('../../platform/themes/schemas.js')).theme,
      load: async () => (await import('./commands.js')).get,
    }),
    command({
      name: 'create',
      summary: 'Create a theme; styles not given take the API defaults',
      help: stylesHelp(),
      options: [{ flags: '--name <name>', description: 'theme name', required: true }, ...STYLE_OPTIONS],
      examples: [
        'loopsctl themes create --name "Dark mode" --style backgroundColor=#111827 --style bodyColor=#1f2937',
        `loopsctl themes get ${EXAMPLE_ID} --json | loopsctl themes create --name "Midnight copy" --styles-file -`,
      ],
      remote: true,
      tier: 'write',
      load: async () => (await import('./commands.js')).create,
    }),
    command({
      name: 'update',
      summary: 'Rename a theme or change its styles; style changes reach every email using it',
      help: `${stylesHelp()}

New styles reach every email that uses the theme (its <Style themeId>, or the
default theme for an email that names none): when one of them reaches people
now, the change is made only with --live (else exit 11, nothing sent, the live
emails named).`,
      args: [{ name: 'id', description: 'theme id (from `loopsctl themes list`)', completes: 'themes' }],
      options: [
        { flags: '--name <name>', description: 'new name' },
        ...STYLE_OPTIONS,
        {
          flags: '--live',
          description:
            "change the styles of a theme that an email reaching people now uses: a published transactional email's, a scheduled campaign's, a live workflow's",
          tier: 'destructive',
        },
      ],
      examples: [`loopsctl themes update ${EXAMPLE_ID} --style buttonBorderRadius=12`, `loopsctl themes update ${EXAMPLE_ID} --name "Midnight blue"`],
      remote: true,
      tier: 'write',
      constraints: { oneRequired: [{ flags: ['--name', '--styles-file', '--style'] }] },
      load: async () => (await import('./commands.js')).update,
    }),
  ],
});
