/** The one way every `list` subcommand is declared: its paging options and examples. */
import { PER_PAGE_MAX, PER_PAGE_MIN } from '../base/paging.js';
import type { Handler } from './capabilities.js';
import { type CommandSpec, command, type FlagSet, integerIn, type OptionSpec } from './declare.js';

const LIST_OPTIONS: OptionSpec[] = [
  {
    flags: '--per-page <n>',
    description: `items per page (${PER_PAGE_MIN}-${PER_PAGE_MAX}; default ${PER_PAGE_MAX}, or less when --limit needs less)`,
    parse: integerIn(PER_PAGE_MIN, PER_PAGE_MAX, `the API serves pages of ${PER_PAGE_MIN} to ${PER_PAGE_MAX} items; to show fewer items, use --limit`),
  },
  { flags: '--limit <n>', description: 'stop after n items', parse: integerIn(1, Number.MAX_SAFE_INTEGER, 'leave --limit out to list every item') },
  { flags: '--cursor <cursor>', description: 'fetch only the page at this cursor (from pagination.nextCursor)' },
  { flags: '--jsonl', description: 'print each item as one line of compact JSON, as pages arrive (instead of --json)' },
];

/** --jsonl for a list the API answers in one array. */
export const JSONL_OPTION: OptionSpec = { flags: '--jsonl', description: 'print each item as one line of compact JSON (instead of --json)' };

/** --jsonl is an output form of its own, beside --json. */
export const JSON_OR_JSONL: FlagSet = { flags: ['--json', '--jsonl'], hint: 'choose one output form' };

/** A page cut short would leave a cursor past the items never shown. */
const CURSOR_OR_LIMIT: FlagSet = { flags: ['--cursor', '--limit'], hint: 'with --cursor, use --per-page to choose how many items the page holds' };

export interface ListOptionValues {
  perPage?: number;
  limit?: number;
  cursor?: string;
  jsonl?: boolean;
}

export function listCommand(spec: {
  summary: string;
  example: string;
  help?: string;
  load: () => Promise<Handler>;
  output?: CommandSpec['output'];
}): CommandSpec {
  const { example } = spec;
  return command({
    name: 'list',
    aliases: ['ls'],
    summary: spec.summary,
    help: spec.help,
    options: LIST_OPTIONS,
    examples: [example, `${example} --json --limit 100`, `${example} --jsonl > items.jsonl`, `${example} --per-page 10 --json`],
    remote: true,
    tier: 'read',
    constraints: { exclusive: [JSON_OR_JSONL, CURSOR_OR_LIMIT] },
    load: spec.load,
    output: spec.output,
  });
}
