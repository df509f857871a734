/** `loopsctl types`: the account read (GET requests only) and written out as a TypeScript module, or compared with one. */
import { resolve } from 'node:path';
import { type ApiClient, everyItem } from '../../api/client.js';
import { settleLimit } from '../../api/concurrency.js';
import { LocalFileError, MismatchError, UsageError } from '../../base/errors.js';
import { writeFileBytes } from '../../base/json-file.js';
import { namedFilePlace, readTreeFile } from '../../base/tree-files.js';
import { type Handler, handler } from '../../core/capabilities.js';
import { listContactProperties } from '../contact-properties/client.js';
import { chooseEnvironment } from '../content/shared/environment-choice.js';
import { DEFAULT_DIRECTORY, readState, STATE_FILE } from '../content/shared/files.js';
import { getEmailMessage } from '../email-messages/client.js';
import { eventPatterns, getEventPattern } from '../event-patterns/client.js';
import { listMailingLists } from '../lists/client.js';
import { transactionalEmails } from '../transactional/client.js';
import { type Format, generateFormat, lineDrift } from './formats.js';
import { drift, readSections, sectionEntries, type TypesInput } from './generate.js';
import type { TreeKeys } from './ids.js';

/** Event patterns read at once, under the client's pacer. */
const CONCURRENCY = 8;

/** Each read in turn, a few at once under the client's pacer; one that fails fails the command. */
async function readEach<T, R>(items: readonly T[], read: (item: T) => Promise<R>): Promise<R[]> {
  const outcomes = await settleLimit(items, CONCURRENCY, read, { dooms: () => true });
  return outcomes.map((outcome) => {
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  });
}

async function readAccount(api: ApiClient): Promise<TypesInput> {
  const [transactional, summaries, contactProperties, mailingLists] = await Promise.all([
    everyItem(api, transactionalEmails),
    everyItem(api, eventPatterns),
    listContactProperties(api, 'all'),
    listMailingLists(api),
  ]);
  const published = transactional.filter((email) => email.publishedEmailMessageId !== null && email.dataVariables.length > 0);
  // The fallbacks are on the published message: a variable with one may be left out of a send.
  const [patterns, messages] = await Promise.all([
    readEach(summaries, (summary) => getEventPattern(api, summary.id)),
    readEach(published, (email) => getEmailMessage(api, email.publishedEmailMessageId!)),
  ]);
  const dataVariablesFallbacks = Object.fromEntries(published.map((email, index) => [email.id, messages[index]!.dataVariablesFallbacks]));
  return { transactional, dataVariablesFallbacks, eventPatterns: patterns, contactProperties, mailingLists };
}

/**
 * The keys a content tree gives the transactional emails it holds: each directory's name without
 * the `--<id>` a pull ends it with, by the id of the record in every account the state file knows,
 * so that staging's and production's files share them. The tree --tree names, else ./loops when it
 * was pulled; none otherwise.
 */
function treeKeys(tree: string | undefined): TreeKeys {
  const root = tree ?? DEFAULT_DIRECTORY;
  const state = readState(root);
  if (state === undefined) {
    if (tree !== undefined)
      throw new LocalFileError(`${tree} holds no pulled content (no ${STATE_FILE})`, { hint: `pull it first: \`loopsctl content pull ${tree}\`` });
    return new Map();
  }
  const keys = new Map<string, string>();
  for (const records of Object.values(state.accounts)) {
    for (const [path, record] of Object.entries(records)) {
      if (!path.startsWith('transactional/')) continue;
      const folder = path.slice(path.indexOf('/') + 1);
      const ids = Object.values(state.accounts).flatMap((other) => other[path]?.id ?? []);
      const at = folder.lastIndexOf('--');
      keys.set(record.id, at > 0 && ids.includes(folder.slice(at + 2)) ? folder.slice(0, at) : folder);
    }
  }
  return keys;
}

/** A module of the account's types is far smaller: 16 MiB. */
const WRITTEN_MAX_BYTES = 16 * 1024 * 1024;

/** The file --out names as it stands, or undefined when there is none. */
function readWritten(file: string): string | undefined {
  const { root, path } = namedFilePlace(file);
  return readTreeFile(root, path, WRITTEN_MAX_BYTES)?.toString('utf8');
}

/** Written beside the file and renamed over it (base/json-file.ts): a reader never sees half a module. */
function writeWhole(file: string, text: string): void {
  try {
    writeFileBytes(file, Buffer.from(text));
  } catch (error) {
    throw new LocalFileError(`${file}: ${(error as Error).message}`, { cause: error });
  }
}

/** What differs between the file and the account, a line each; empty when only the text does. */
function differences(format: Format, written: string, text: string, input: TypesInput): string[] {
  if (format !== 'ts') return lineDrift(written, text);
  const sections = readSections(written);
  return sections === undefined ? [] : drift(sections, sectionEntries(input, sections));
}

type TypesOptions = { env?: string; out?: string; check?: boolean; format?: Format; tree?: string };

export const types: Handler<[], TypesOptions> = handler(
  ['out', 'client', 'files', 'key'],
  async (context, _args, options) => {
    const format = options.format ?? 'ts';
    const again = `loopsctl types${format === 'ts' ? '' : ` --format ${format}`}${options.tree === undefined ? '' : ` --tree ${options.tree}`} --out`;
    if (options.check && options.out === undefined)
      throw new UsageError('--check compares with the file --out names', { hint: 'loopsctl types --out src/loops.generated.ts --check' });
    if (options.tree !== undefined && format === 'ts')
      throw new UsageError('--tree keys the ids of --format json, env, py, go or rb', { hint: 'loopsctl types --format env --tree loops' });
    // The TypeScript module keys records by name; the other formats by the tree's directories where there is one.
    const tree = format === 'ts' ? new Map<string, string>() : treeKeys(options.tree);
    const input = await readAccount(await context.client());
    // Read as a tree's files are, never through a link: the drift quotes the file's lines, and CI
    // runs this check on whatever a pull request commits at that name. The names it gives stay.
    const written = options.out === undefined ? undefined : readWritten(options.out);
    const text = generateFormat(format, input, tree, written);
    const { out } = context;
    if (options.out === undefined) return out.json ? out.writeJson({ module: text }) : out.write(text);
    if (!options.check) {
      writeWhole(options.out, text);
      if (out.json) await out.writeJson({ file: options.out });
      return;
    }
    if (written === undefined) throw new MismatchError(`${options.out} does not exist`, { hint: `make it: ${again} ${options.out}` });
    if (written === text) return out.json ? out.writeJson({ file: options.out, drifted: [] }) : undefined;
    const drifted = differences(format, written, text, input);
    const what = drifted.length === 0 ? 'its text differs from what `loopsctl types` writes now' : drifted.join('\n');
    throw new MismatchError(`${options.out} is not the account's types any more:\n${what}`, {
      hint: `if the account is right, run \`${again} ${options.out}\` and fix what then fails; if the file is, change the account back`,
      // Lines of loopsctl's making, each name quoted as JSON: shown as lines, not escaped into one.
      multiline: true,
    });
  },
  {
    // --env: the account of that environment of the tree's environments.json, taken before the run picks its key.
    chooseAccount: async (context, _args, options) => {
      if (options.env !== undefined) await chooseEnvironment(context, resolve(options.tree ?? DEFAULT_DIRECTORY), options.env);
    },
  },
);
