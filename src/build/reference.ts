/**
 * The command reference, made from the command declarations: one Markdown page per area under
 * docs/commands/ (with an index), and man pages under man/ (loopsctl.1, then one per group and
 * command, as `loopsctl-themes-list.1`). `npm run docs` writes them (src/build/docs.mjs); a test
 * compares them with what is committed, so a changed declaration without `npm run docs` fails.
 *
 * A page's hand-written prose sits between the HAND_WRITTEN markers: the generator keeps it as
 * found and remakes everything else. docs/agents.md is prose, but for its table of the tools of
 * `loopsctl mcp`, remade between the TOOLS markers, and so is docs/development.md but for its tables of
 * capabilities (capability-tables.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listedTool, toolsFrom } from '../areas/mcp/tools.js';
import { specs as registeredSpecs } from '../areas/registry.js';
import { EXIT_CODES, ExitCode } from '../base/exit-codes.js';
import type { ArgumentSpec, CommandSpec, GroupSpec, OptionSpec, Spec } from '../core/declare.js';
import { ENVIRONMENT, GLOBAL_OPTIONS } from '../core/program.js';
import { DEVELOPMENT_PAGE, withCapabilityTables } from './capability-tables.js';

export const HAND_WRITTEN_START = '<!-- hand-written: start (kept by `npm run docs`) -->';
export const HAND_WRITTEN_END = '<!-- hand-written: end -->';
const GENERATED_NOTE = '<!-- Made by `npm run docs` from the command declarations: edit only the hand-written part. -->';
export const MAN_NOTE = '.\\" Made by `npm run docs` from the command declarations; do not edit.';

export const COMMANDS_DIR = 'docs/commands';
export const MAN_DIR = 'man';

/** Reads a file of the project (by its path from the root), or undefined when there is none. */
export type ReadFile = (path: string) => string | undefined;

/** Every generated file, by its path from the project's root. */
export function referenceFiles(specs: Spec[], version: string, read: ReadFile): Map<string, string> {
  const files = new Map<string, string>();
  const visible = specs.filter((spec) => !isHidden(spec));
  const index = `${COMMANDS_DIR}/README.md`;
  files.set(index, indexPage(visible, handWritten(read(index))));
  for (const spec of visible) {
    const path = `${COMMANDS_DIR}/${spec.name}.md`;
    files.set(path, areaPage(spec, handWritten(read(path))));
  }
  for (const [name, page] of manPages(visible, version)) files.set(`${MAN_DIR}/${name}`, page);
  const agents = read(AGENTS_PAGE);
  if (agents !== undefined) files.set(AGENTS_PAGE, withToolTable(agents, specs));
  return files;
}

/** The page about agents, whose table of `loopsctl mcp`'s tools is made from the declarations. */
export const AGENTS_PAGE = 'docs/agents.md';
export const TOOLS_START = '<!-- tools: start (made by `npm run docs` from the declarations) -->';
export const TOOLS_END = '<!-- tools: end -->';

function withToolTable(page: string, specs: Spec[]): string {
  const start = page.indexOf(TOOLS_START);
  const end = page.indexOf(TOOLS_END);
  if (start === -1 || end < start) throw new Error(`${AGENTS_PAGE} has lost the markers of its table of tools; restore them (${TOOLS_START} ... ${TOOLS_END})`);
  return `${page.slice(0, start + TOOLS_START.length)}\n${toolTable(specs)}\n${page.slice(end)}`;
}

/**
 * Every tool as a server with a root and every tier lists it (tools/list, made by the server's own
 * listedTool), with its tier and annotations (the open world is the API's, unless --sandbox).
 */
export function toolTable(specs: Spec[]): string {
  const settings = { root: '.', sandbox: false };
  const rootless = new Set(toolsFrom(specs, { sandbox: false }).map(({ name }) => name));
  const yes = (value: boolean) => (value ? 'yes' : 'no');
  const rows = toolsFrom(specs, settings).map((tool) => {
    const hints = listedTool(tool, 'destructive', settings).annotations;
    const notes = [
      ...(rootless.has(tool.name) ? [] : ['only with `--root`']),
      ...tool.params.filter((param) => param.tier !== undefined).map((param) => `\`${param.key}\` makes it ${param.tier}`),
      ...tool.params.filter((param) => param.file?.inline !== undefined).map((param) => `\`${param.key}\` inline`),
    ];
    return `| \`${tool.name}\` | \`loopsctl ${tool.path.join(' ')}\` | ${tool.tier} | ${yes(hints.readOnlyHint)} | ${yes(hints.destructiveHint)} | ${yes(hints.idempotentHint)} | ${notes.join('; ')} |`;
  });
  return ['| tool | command | tier | read-only | destructive | idempotent | notes |', '|---|---|---|---|---|---|---|', ...rows].join('\n');
}

/**
 * What `npm run docs` writes in the project at root: every generated file, the generated files
 * that are no longer made (stale), and package.json with its "man" list brought up to date.
 */
export async function writtenReference(root: string): Promise<{ files: Record<string, string>; stale: string[]; packageJson: string }> {
  const read: ReadFile = (path) => (existsSync(join(root, path)) ? readFileSync(join(root, path), 'utf8') : undefined);
  const packageJson = JSON.parse(read('package.json')!) as Record<string, unknown>;
  const files = referenceFiles(registeredSpecs, String(packageJson.version), read);
  files.set(DEVELOPMENT_PAGE, await withCapabilityTables(read(DEVELOPMENT_PAGE)!, registeredSpecs));
  const generated = [
    ...listed(root, COMMANDS_DIR).filter((path) => path.endsWith('.md') && read(path)!.includes(GENERATED_NOTE)),
    ...listed(root, MAN_DIR).filter((path) => read(path)!.startsWith(MAN_NOTE)),
  ];
  const stale = generated.filter((path) => !files.has(path));
  const man = manPageList(files);
  // "man" goes after "bin" the first time, and stays where it is after that.
  const updated = Object.fromEntries(
    Object.entries(packageJson).flatMap(([key, value]) =>
      key === 'man'
        ? [[key, man]]
        : key === 'bin' && !('man' in packageJson)
          ? [
              [key, value],
              ['man', man],
            ]
          : [[key, value]],
    ),
  );
  return { files: Object.fromEntries(files), stale, packageJson: `${JSON.stringify(updated, null, 2)}\n` };
}

function listed(root: string, dir: string): string[] {
  return existsSync(join(root, dir)) ? readdirSync(join(root, dir)).map((name) => `${dir}/${name}`) : [];
}

/** The man pages package.json's "man" lists, in order. */
export function manPageList(files: Map<string, string>): string[] {
  return [...files.keys()].filter((path) => path.startsWith(`${MAN_DIR}/`)).map((path) => `./${path}`);
}

function isHidden(spec: Spec): boolean {
  return spec.kind === 'command' && spec.hidden === true;
}

function children(spec: GroupSpec): Spec[] {
  return spec.commands.filter((child) => !isHidden(child));
}

/** The hand-written part of a page as found, or an empty one. */
function handWritten(page: string | undefined): string {
  if (page === undefined) return '';
  const start = page.indexOf(HAND_WRITTEN_START);
  const end = page.indexOf(HAND_WRITTEN_END);
  if (start === -1 || end < start)
    throw new Error(`a page of ${COMMANDS_DIR} has lost its hand-written markers; restore them (${HAND_WRITTEN_START} ... ${HAND_WRITTEN_END})`);
  return page.slice(start + HAND_WRITTEN_START.length, end).trim();
}

function proseBlock(prose: string): string {
  return `${HAND_WRITTEN_START}\n${prose === '' ? '' : `\n${prose}\n\n`}${HAND_WRITTEN_END}`;
}

/** A command or group with the words that reach it. */
interface Entry {
  path: string[];
  spec: Spec;
}

function entries(spec: Spec, parent: string[] = []): Entry[] {
  const path = [...parent, spec.name];
  return spec.kind === 'command' ? [{ path, spec }] : [{ path, spec }, ...children(spec).flatMap((child) => entries(child, path))];
}

function titleOf(spec: Spec): string {
  return `loopsctl ${spec.name}`;
}

function indexPage(specs: Spec[], prose: string): string {
  const rows = specs.map((spec) => `| [\`${spec.name}\`](${spec.name}.md) | ${cell(spec.summary)} |`);
  return [
    '# Commands',
    '',
    GENERATED_NOTE,
    '',
    proseBlock(prose),
    '',
    '## Areas',
    '',
    '| area | what it does |',
    '|---|---|',
    ...rows,
    '',
    '## Options of every command',
    '',
    optionsTable(GLOBAL_OPTIONS),
    '',
    'Options that reach the API (`--sandbox`, `--base-url`, `--profile`, `--timeout`, `--retries`, `--rate`) mean something only to commands that call it.',
    '',
    '## Environment',
    '',
    '| variable | meaning |',
    '|---|---|',
    ...ENVIRONMENT.map(([name, meaning]) => `| \`${name}\` | ${cell(meaning)} |`),
    '',
    '## Exit codes',
    '',
    '| code | meaning |',
    '|---|---|',
    ...EXIT_CODES.map(({ code, meaning }) => `| ${code} | ${cell(meaning)} |`),
    '',
    'Each command page lists the codes that command can end with. The man pages (`man loopsctl`, `man loopsctl-themes-list`) hold the same reference.',
    '',
  ].join('\n');
}

function areaPage(spec: Spec, prose: string): string {
  const all = entries(spec);
  const commands = all.filter((entry): entry is Entry & { spec: CommandSpec } => entry.spec.kind === 'command');
  const lines = [
    `# ${titleOf(spec)}`,
    '',
    GENERATED_NOTE,
    '',
    `${cell(spec.summary)}${spec.aliases?.length ? ` (alias ${spec.aliases.map((alias) => `\`${alias}\``).join(', ')})` : ''}.`,
    '',
  ];
  if (spec.kind === 'group') {
    lines.push(
      '| command | what it does |',
      '|---|---|',
      ...commands.map(({ path, spec: command }) => `| [\`loopsctl ${path.join(' ')}\`](#${anchor(path)}) | ${cell(command.summary)} |`),
      '',
    );
    if (spec.help !== undefined) lines.push(helpMarkdown(spec.help), '');
  }
  lines.push(proseBlock(prose), '', '## Reference', '');
  for (const entry of all) {
    if (entry.spec.kind === 'group') {
      if (entry.path.length > 1) lines.push(...nestedGroup(entry.path, entry.spec));
    } else {
      lines.push(...commandSection(entry.path, entry.spec));
    }
  }
  lines.push('Options of every command: see [the index](README.md#options-of-every-command).', '');
  return lines.join('\n');
}

function nestedGroup(path: string[], spec: GroupSpec): string[] {
  const lines = [`### loopsctl ${path.join(' ')}`, '', `${cell(spec.summary)}.`, ''];
  if (spec.aliases?.length) lines.push(`Aliases: ${spec.aliases.map((alias) => `\`${alias}\``).join(', ')}.`, '');
  if (spec.help !== undefined) lines.push(helpMarkdown(spec.help), '');
  return lines;
}

/** GitHub's anchor of a heading `loopsctl a b`. */
function anchor(path: string[]): string {
  return `loopsctl-${path.join('-')}`;
}

function commandSection(path: string[], spec: CommandSpec): string[] {
  const lines = [`### loopsctl ${path.join(' ')}`, '', `${cell(spec.summary)}.`, '', '```', usage(path, spec), '```', ''];
  if (spec.aliases?.length) lines.push(`Aliases: ${spec.aliases.map((alias) => `\`${alias}\``).join(', ')}.`, '');
  if (spec.args?.length) {
    lines.push(
      '| argument | meaning |',
      '|---|---|',
      ...spec.args.map((argument) => `| \`${argumentName(argument)}\` | ${cell(argument.description)}${argument.required === false ? ' (optional)' : ''} |`),
      '',
    );
  }
  if (spec.options?.length) lines.push(optionsTable(spec.options), '');
  if (spec.help !== undefined) lines.push(helpMarkdown(spec.help), '');
  if (spec.examples.length > 0) lines.push('```sh', ...spec.examples, '```', '');
  const codes = exitCodes(spec).map(({ code }) => (code === ExitCode.mismatch ? `1 (${spec.mismatch})` : String(code)));
  lines.push(`Exit codes: ${codes.join(', ')} (see [exit codes](README.md#exit-codes)).`, '');
  return lines;
}

function argumentName(argument: ArgumentSpec): string {
  const name = `${argument.name}${argument.variadic ? '...' : ''}`;
  return argument.required === false ? `[${name}]` : `<${name}>`;
}

export function usage(path: string[], spec: CommandSpec): string {
  const required = (spec.options ?? []).filter((option) => option.required).map((option) => option.flags.split(', ').at(-1)!);
  return [
    'loopsctl',
    ...path,
    ...(spec.args ?? []).map(argumentName),
    ...required,
    ...(spec.options?.some((option) => !option.required) ? ['[options]'] : []),
  ].join(' ');
}

function optionsTable(options: OptionSpec[]): string {
  return ['| option | meaning |', '|---|---|', ...options.map((option) => `| \`${option.flags}\` | ${cell(optionMeaning(option))} |`)].join('\n');
}

function optionMeaning(option: OptionSpec): string {
  const notes = [
    option.required ? 'required' : undefined,
    option.repeatable && !option.description.includes('repeatable') ? 'repeatable' : undefined,
    option.choices === undefined ? undefined : `one of ${option.choices.join(', ')}`,
    option.default === undefined || option.default === false ? undefined : `default ${String(option.default)}`,
  ].filter((note) => note !== undefined);
  return notes.length === 0 ? option.description : `${option.description} (${notes.join('; ')})`;
}

/**
 * The codes a command can end with: success, usage errors, the API's failures when it calls the
 * API, a check's mismatch where it makes one, and what every run can meet.
 */
export function exitCodes(spec: CommandSpec): { code: number; meaning: string }[] {
  const meaning = (code: number) => EXIT_CODES.find((row) => row.code === code)!.meaning;
  const short = (code: number) =>
    meaning(code)
      .replace(/ \(.*$/, '')
      .replace(/^usage error.*$/, 'usage error, or an input that cannot be used');
  const codes: { code: number; meaning: string }[] = [{ code: ExitCode.ok, meaning: 'success' }];
  if (spec.mismatch !== undefined) codes.push({ code: ExitCode.mismatch, meaning: spec.mismatch });
  codes.push({ code: ExitCode.usage, meaning: short(ExitCode.usage) });
  if (spec.remote) {
    for (const code of [ExitCode.auth, ExitCode.notFound, ExitCode.rejected, ExitCode.rateLimited, ExitCode.network, ExitCode.server, ExitCode.invalidResponse])
      codes.push({ code, meaning: short(code) });
  }
  if (spec.remote && spec.tier !== 'read') codes.push({ code: ExitCode.protected, meaning: short(ExitCode.protected) });
  for (const code of [ExitCode.internal, ExitCode.io, ExitCode.interrupted]) codes.push({ code, meaning: short(code) });
  return codes;
}

/** Help text as declared (wrapped lines, maybe an indented table): paragraphs, or a block where it is laid out. */
function helpMarkdown(help: string): string {
  return help
    .trim()
    .split(/\n\s*\n/)
    .map((paragraph) => (/\n[ \t]/.test(paragraph) ? `\`\`\`text\n${paragraph}\n\`\`\`` : paragraph))
    .join('\n\n');
}

/** Text for one cell of a table: one line, its pipes escaped. */
function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
}

// Man pages.

function manPages(specs: Spec[], version: string): [string, string][] {
  const all = specs.flatMap((spec) => entries(spec));
  return [
    ['loopsctl.1', rootManPage(specs, version)],
    ...all.map(({ path, spec }): [string, string] => [`loopsctl-${path.join('-')}.1`, manPage(path, spec, version)]),
  ];
}

function header(name: string, version: string, summary: string): string[] {
  return [MAN_NOTE, `.TH "${name.toUpperCase()}" "1" "" "loopsctl ${version}" "loopsctl manual"`, '.SH NAME', `${roff(name)} \\- ${roff(summary)}`];
}

function rootManPage(specs: Spec[], version: string): string {
  return [
    ...header('loopsctl', version, 'administer a Loops email account from the command line'),
    '.SH SYNOPSIS',
    '.B loopsctl',
    roff('<command> [<subcommand>] [options]'),
    '.SH DESCRIPTION',
    roff(
      'loopsctl administers a Loops account through its HTTP API. With --sandbox, any command runs against a built-in emulator of the API with seed data, and needs no key.',
    ),
    '.SH COMMANDS',
    ...specs.flatMap((spec) => [
      '.TP',
      `.B ${roff(`loopsctl ${spec.name}`)}`,
      `${roff(spec.summary)}.`,
      '.br',
      `See \\fBloopsctl\\-${roff(spec.name)}\\fR(1).`,
    ]),
    '.SH OPTIONS',
    ...manOptions(GLOBAL_OPTIONS),
    '.SH ENVIRONMENT',
    ...ENVIRONMENT.flatMap(([name, meaning]) => ['.TP', `.B ${roff(name)}`, roff(meaning)]),
    '.SH EXIT STATUS',
    ...EXIT_CODES.flatMap(({ code, meaning }) => ['.TP', `.B ${code}`, roff(meaning)]),
    '.SH SEE ALSO',
    specs.map((spec) => `\\fBloopsctl\\-${roff(spec.name)}\\fR(1)`).join(', '),
    '',
  ].join('\n');
}

function manPage(path: string[], spec: Spec, version: string): string {
  const name = `loopsctl-${path.join('-')}`;
  const lines = [...header(name, version, spec.summary), '.SH SYNOPSIS'];
  if (spec.kind === 'group') {
    lines.push(`.B ${roff(`loopsctl ${path.join(' ')}`)}`, roff('<command> [options]'), '.SH DESCRIPTION', roff(`${spec.summary}.`));
    if (spec.help !== undefined) lines.push(...manHelp(spec.help));
    if (spec.aliases?.length) lines.push('.PP', roff(`Aliases: ${spec.aliases.join(', ')}.`));
    lines.push('.SH COMMANDS', ...children(spec).flatMap((child) => ['.TP', `.B ${roff(`loopsctl ${[...path, child.name].join(' ')}`)}`, roff(child.summary)]));
  } else {
    lines.push(roff(usage(path, spec)), '.SH DESCRIPTION', roff(`${spec.summary}.`));
    if (spec.help !== undefined) lines.push(...manHelp(spec.help));
    if (spec.aliases?.length) lines.push('.PP', roff(`Aliases: ${spec.aliases.join(', ')}.`));
    if (spec.args?.length)
      lines.push('.SH ARGUMENTS', ...spec.args.flatMap((argument) => ['.TP', `.B ${roff(argumentName(argument))}`, roff(argument.description)]));
    if (spec.options?.length) lines.push('.SH OPTIONS', ...manOptions(spec.options));
  }
  // Long names, from the one list the program declares: a new global option appears here too.
  const globalFlags = GLOBAL_OPTIONS.map(({ flags }) => flags.replace(/ <.*>$/, '').replace(/^-\w, /, ''));
  lines.push('.SH OPTIONS OF EVERY COMMAND', roff(`See loopsctl(1): ${globalFlags.join(', ')}.`));
  if (spec.examples.length > 0) lines.push('.SH EXAMPLES', '.nf', ...spec.examples.map((example) => roff(`$ ${example}`)), '.fi');
  if (spec.kind === 'command') lines.push('.SH EXIT STATUS', ...exitCodes(spec).flatMap(({ code, meaning }) => ['.TP', `.B ${code}`, roff(meaning)]));
  const parent = path.length > 1 ? `loopsctl-${path.slice(0, -1).join('-')}` : 'loopsctl';
  lines.push('.SH SEE ALSO', `\\fB${roff(parent)}\\fR(1)`, '');
  return lines.join('\n');
}

function manOptions(options: OptionSpec[]): string[] {
  return options.flatMap((option) => ['.TP', `.B ${roff(option.flags)}`, roff(optionMeaning(option))]);
}

/** Help text in roff: paragraphs, and laid-out blocks kept as they are. */
function manHelp(help: string): string[] {
  return help
    .trim()
    .split(/\n\s*\n/)
    .flatMap((paragraph) =>
      /\n[ \t]/.test(paragraph) ? ['.PP', '.nf', ...paragraph.split('\n').map(roff), '.fi'] : ['.PP', roff(paragraph.replace(/\s*\n\s*/g, ' '))],
    );
}

/** Text that roff prints as it is: backslashes and hyphens escaped, no line taken for a request, backticks as bold. */
function roff(text: string): string {
  return text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .replace(/`([^`]+)`/g, '\\fB$1\\fR')
    .split('\n')
    .map((line) => (/^[.']/.test(line) ? `\\&${line}` : line))
    .join('\n');
}
