/**
 * A mailing list named by its id or by its name, wherever a command takes one (`--list` of
 * `contacts create` and `update`, `events send`, `workflow create` and `campaigns`, `workflow
 * set-list`, `contacts import --lists-column`): one resolver, which reads the account's lists once
 * a run, so that a list that is not there stops the command before anything is sent.
 */
import type { ApiClient } from '../../api/client.js';
import { UsageError } from '../../base/errors.js';
import { closeMatches } from '../../base/suggest.js';
import type { MailingList } from '../../platform/lists/schemas.js';
import { shellWord } from '../../render/shell-word.js';
import { listMailingLists } from './client.js';

export class MailingListNames {
  private lists?: Promise<MailingList[]>;

  constructor(private readonly api: () => Promise<ApiClient>) {}

  /** The account's lists, read on first use. */
  read(): Promise<MailingList[]> {
    this.lists ??= (async () => listMailingLists(await this.api()))();
    return this.lists;
  }

  /**
   * The id of the list `given` names: its id, else its name, exactly or but for case. `where` says
   * where it was given (`--list "Beta testers=true"`, `members.csv: line 3`); what no list is, or
   * a name several have, is a usage error, with the names it may have meant.
   */
  async idOf(given: string, where: string): Promise<string> {
    const lists = await this.read();
    const byId = lists.find((list) => list.id === given);
    if (byId !== undefined) return byId.id;
    const exact = lists.filter((list) => list.name === given);
    const named = exact.length > 0 ? exact : lists.filter((list) => list.name.toLowerCase() === given.toLowerCase());
    if (named.length === 1) return named[0]!.id;
    if (named.length > 1)
      throw new UsageError(`${where}: ${named.length} mailing lists are named "${given}"`, {
        hint: `name it by its id: ${named.map((list) => list.id).join(', ')}`,
      });
    throw new UsageError(`${where}: the account has no mailing list "${given}"`, { hint: unknownListHint(given, lists) });
  }
}

function unknownListHint(given: string, lists: MailingList[]): string {
  const names = lists.map((list) => list.name);
  const close = closeMatches(given, names, 3);
  if (close.length > 0) return `did you mean ${close.map((name) => `"${name}"`).join(', ')}? See the lists with \`loopsctl lists list\``;
  return `its lists: ${names.map((name) => `"${name}"`).join(', ') || 'none'}; see them with \`loopsctl lists list\`, or create one in the Loops app`;
}

/** `--list <list>=true|false` values, each list as given (its id or its name), in order. */
function parseListFlags(raws: string[] | undefined): [string, boolean][] | undefined {
  if (raws === undefined || raws.length === 0) return undefined;
  return raws.map((raw) => {
    const match = /^(.+)=(true|false)$/s.exec(raw);
    if (match === null || match[1]!.trim() === '')
      throw new UsageError(`--list "${raw}": expected <list>=true or <list>=false, the list by its id or its name`, {
        hint: 'see the lists with `loopsctl lists list`',
      });
    return [match[1]!, match[2] === 'true'];
  });
}

/** `--list <list>=true|false` flags as the API's mailingLists object, each list named by its id or its name. */
export async function mailingListsOf(raws: string[] | undefined, names: MailingListNames): Promise<Record<string, boolean> | undefined> {
  const given = parseListFlags(raws);
  if (given === undefined) return undefined;
  const lists: Record<string, boolean> = {};
  for (const [list, on] of given) lists[await names.idOf(list, `--list ${shellWord(`${list}=${on}`)}`)] = on;
  return lists;
}
