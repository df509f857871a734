/**
 * The lists of records an argument can name by id, by name, with the API path of each and the
 * command that lists them: an index of the resources' rows (src/platform/operations.ts) that name
 * one. An argument declares which list its ids come from (ArgumentSpec.completes): shell
 * completion offers them (with LOOPSCTL_COMPLETE_IDS=1), and on a terminal, left out or with
 * --pick, the picker offers them with that list command's columns.
 */
import { OPERATIONS, RESOURCES, type Resource } from '../platform/operations.js';

type Listed = Extract<Resource, { list: { ids: string } }>;
export type IdList = Listed['list']['ids'];

const LISTED = RESOURCES.filter((row): row is Listed => 'list' in row && 'ids' in row.list);

/** The API path of each list. */
export const ID_LISTS = Object.fromEntries(
  LISTED.map((row) => [row.list.ids, (OPERATIONS as Record<string, { path: string }>)[row.list.operation]!.path]),
) as Record<IdList, string>;

/** The command that lists each (its words), whose columns the picker shows. */
export const LIST_COMMANDS = Object.fromEntries(LISTED.map((row) => [row.list.ids, row.list.command])) as unknown as Record<IdList, readonly string[]>;
