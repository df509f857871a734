/**
 * The command group of a resource described whole by its row (platform/operation-row.ts,
 * RecordResource): list, get, create and update, declared from its row's words and fields (loads
 * nothing; the schema and the behaviours load when a command runs).
 */
import { InvalidArgumentError } from 'commander';
import { command, group, type OptionSpec, PLAN_OPTIONS, type Spec } from '../../core/declare.js';
import type { IdList } from '../../core/id-lists.js';
import { listCommand } from '../../core/list.js';
import type { RecordRow } from '../../platform/whole-rows.js';

/** The flag that sets a field: `--name` sets `name`, `--sent-from` sets `sentFrom` (as commander names its option). */
function flagOf(name: string): string {
  return `--${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}

/** An option's parser that refuses, as commander says a value is wrong, what the field's rule refuses. */
function refusing(refusal: (value: string) => string | undefined): (value: string) => string {
  return (value) => {
    const refused = refusal(value);
    if (refused !== undefined) throw new InvalidArgumentError(refused);
    return value;
  };
}

/** A field's option, for a create or an update. */
function fieldOption(name: string, row: RecordRow, verb: 'create' | 'update'): OptionSpec {
  const field = row.records.fields[name]!;
  return {
    flags: `${flagOf(name)} <${field.value ?? name}>`,
    description: field[verb],
    ...(field.refusal === undefined ? {} : { parse: refusing(field.refusal) }),
    ...(verb === 'create' && field.required === true ? { required: true } : {}),
  };
}

/** Each row's declarations, made once: the directory's and the registry's are the same. */
const declared = new WeakMap<RecordRow, Spec>();

export function recordSpec(row: RecordRow): Spec {
  const made = declared.get(row) ?? declarations(row);
  declared.set(row, made);
  return made;
}

function declarations(row: RecordRow): Spec {
  const { area, commands, fields } = row.records;
  const names = Object.keys(fields);
  const idArgument = { name: 'id', description: `${row.noun} id`, completes: row.ids as IdList | undefined };
  const output = async () => (await row.records.load()).schema;
  const behaviour = (verb: 'list' | 'get' | 'create' | 'update') => async () => (await (await import('./commands.js')).recordCommands(row))[verb];
  return group({
    name: area.name,
    ...(area.aliases === undefined ? {} : { aliases: [...area.aliases] }),
    summary: area.summary,
    examples: [...area.examples],
    commands: () => [
      listCommand({ summary: commands.list.summary, example: commands.list.examples[0]!, output, load: behaviour('list') }),
      command({
        name: 'get',
        aliases: ['show', 'view'],
        summary: commands.get.summary,
        args: [idArgument],
        examples: [...commands.get.examples],
        remote: true,
        tier: 'read',
        output,
        load: behaviour('get'),
      }),
      command({
        name: 'create',
        summary: commands.create.summary,
        options: [...PLAN_OPTIONS, ...names.map((name) => fieldOption(name, row, 'create'))],
        examples: [...commands.create.examples],
        remote: true,
        tier: 'write',
        load: behaviour('create'),
      }),
      command({
        name: 'update',
        summary: commands.update.summary,
        args: [idArgument],
        options: [...PLAN_OPTIONS, ...names.map((name) => fieldOption(name, row, 'update'))],
        examples: [...commands.update.examples],
        remote: true,
        tier: 'write',
        constraints: { oneRequired: [{ flags: names.map(flagOf) }] },
        load: behaviour('update'),
      }),
    ],
  });
}
