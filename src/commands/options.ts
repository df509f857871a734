/** Argument parsers and option sets shared by several commands. */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { PER_PAGE_MAX, PER_PAGE_MIN, type ListOptions } from '../api/client.js';
import { RESERVED_GROUP_NAME } from '../api/schemas.js';
import { examples, integerIn } from './declare.js';

export { examples, integerIn };

export function addListOptions(command: Command): Command {
  return command
    .addOption(new Option('--per-page <n>', `items per page (${PER_PAGE_MIN}-${PER_PAGE_MAX}; default 20)`).argParser(integerIn(PER_PAGE_MIN, PER_PAGE_MAX)))
    .addOption(new Option('--limit <n>', 'stop after n items').argParser(integerIn(1, Number.MAX_SAFE_INTEGER)))
    .option('--cursor <cursor>', 'fetch only the page at this cursor (from pagination.nextCursor)')
    .option('--jsonl', 'print each item as one line of compact JSON, as pages arrive (instead of --json)');
}

export interface ListCommandOptions {
  perPage?: number;
  limit?: number;
  cursor?: string;
  jsonl?: boolean;
}

export function listOptions(options: ListCommandOptions): ListOptions {
  return { perPage: options.perPage, limit: options.limit, cursor: options.cursor };
}

/** A group name the API would refuse: the reserved name, or nothing at all. */
export function groupName(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('a group name must not be empty.');
  if (value.trim() === RESERVED_GROUP_NAME) {
    throw new InvalidArgumentError(`"${RESERVED_GROUP_NAME}" is reserved and cannot be given to a group.`);
  }
  return value;
}
