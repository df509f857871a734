/**
 * `content render` and `content preview`: emails shown as HTML on this machine, from their LMX, a
 * pulled tree's components and themes, and sample values. Nothing is sent; the account is read
 * only for a component or theme the tree lacks, and only when a key is at hand.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { ApiClient } from '../../api/client.js';
import { AuthError, InvalidResponseError, LocalFileError, NotFoundError, UsageError } from '../../base/errors.js';
import { sanitizeKeepingLines } from '../../base/sanitize.js';
import { readTreeFileAsync, TreeFileTooLargeError, treeEntryKind } from '../../base/tree-files.js';
import { writeTreeFile } from '../../base/tree-writes.js';
import { hasDisplay, openPage } from '../../core/browser.js';
import { type Handler, handler, type Uses } from '../../core/capabilities.js';
import { readInputBytes, readJsonInput } from '../../core/input.js';
import { boundedLmx, componentIdsOf, decodeLmx, LMX_KINDS, LMX_MAX_BYTES, type LmxDocument, type LmxKind, parseLmx, themeIdOf } from '../../lmx/index.js';
import { getComponent } from '../components/client.js';
import { getTheme } from '../themes/client.js';
import { type ChosenTheme, renderNotes, treeContext, viewEmail } from './shared/email-view.js';
import { fillLmx } from './shared/env-values.js';
import { chooseEnvironment, environmentAccount } from './shared/environment-choice.js';
import { DEFAULT_DIRECTORY } from './shared/files.js';
import { placeOf } from './shared/lmx-files.js';
import { placeInTree, readThemeFile, valuesFrom } from './shared/tree.js';

/** The kind --kind names, checked. */
export function kindOption(kind: string | undefined): LmxKind | undefined {
  if (kind === undefined) return undefined;
  if (!(LMX_KINDS as readonly string[]).includes(kind)) throw new UsageError(`--kind: unknown kind "${kind}"`, { hint: `choose from ${LMX_KINDS.join(', ')}` });
  return kind as LmxKind;
}

/**
 * Where a file a command names is read or written: under the root of `loopsctl mcp`, each segment
 * below it looked at; for a person's own run, below the root of the content tree it is in (or in
 * its own directory). Either way it is then reached without following a link (src/base/tree-files.ts).
 */
async function placeOfFile(context: Uses<'files'>, file: string): Promise<{ root: string; path: string }> {
  const root = context.runtime.files?.root;
  if (root !== undefined) return (await import('../../core/root.js')).placeUnder(root, file, `"${file}"`);
  return placeInTree(resolve(file));
}

/** An LMX file's text: at most the 100 KB the API takes, and UTF-8; a file, never a link to one. */
export async function readLmxFile(context: Uses<'files'>, file: string): Promise<string> {
  const tooLarge = (source: string) =>
    new LocalFileError(`${source} is larger than ${LMX_MAX_BYTES} bytes (100 KB), more LMX than the API takes`, {
      hint: 'split the email, or move repeated blocks into a component',
    });
  const { source, bytes } =
    file === '-' || context.runtime.files !== undefined
      ? await readInputBytes(context.runtime, file, 'LMX', LMX_MAX_BYTES, tooLarge)
      : await readOwnLmxFile(context, file, tooLarge);
  const decoded = decodeLmx(bytes);
  if ('problem' in decoded) {
    const { line, column, message, fix } = decoded.problem;
    throw new LocalFileError(`${source}:${line}:${column}: ${message}`, { hint: fix });
  }
  return decoded.source;
}

async function readOwnLmxFile(context: Uses<'files'>, file: string, tooLarge: (source: string) => LocalFileError) {
  const { root, path } = await placeOfFile(context, file);
  try {
    const bytes = await readTreeFileAsync(root, path, LMX_MAX_BYTES);
    if (bytes === undefined)
      throw new LocalFileError(`cannot read the LMX file "${file}": no such file`, { hint: 'give an .lmx file, or - to read it from stdin' });
    return { source: file, bytes };
  } catch (error) {
    if (error instanceof TreeFileTooLargeError) throw tooLarge(file);
    throw error;
  }
}

/**
 * The environment a file is drawn for: of the content tree it is in, or, named by --env, of its own
 * directory's environments.json; none for stdin or a loose file without --env.
 */
function fileEnvironment(context: Uses<'key'>, file: string, env: string | undefined) {
  const root = file === '-' ? undefined : placeOf(resolve(file)).root;
  if (root === undefined && env === undefined) return Promise.resolve(undefined);
  return chooseEnvironment(context, root ?? dirname(resolve(file)), env);
}

/** The account's client when a key is at hand (a profile, LOOPS_API_KEY, --sandbox); undefined offline. */
async function accountIfKeyed(context: Uses<'client' | 'key'>): Promise<ApiClient | undefined> {
  try {
    await context.credentials();
  } catch (error) {
    if (error instanceof AuthError && error.code === 'no_key') return undefined;
    throw error;
  }
  return context.client();
}

/** The theme --theme names: a theme.json (or its directory, or `themes get --json` output), an id in the tree, or with a key one in the account. */
async function themeOption(context: Uses<'files'>, value: string, file: string, account: () => Promise<ApiClient | undefined>): Promise<ChosenTheme> {
  const place = await placeOfFile(context, value);
  const found = treeEntryKind(place.root, place.path);
  if (found !== undefined) {
    const path = found === 'directory' ? `${place.path}/theme.json` : place.path;
    const theme = await readThemeFile(place.root, path);
    return { styles: theme.styles, label: `"${theme.name}" (${found === 'directory' ? `${value}/theme.json` : value})` };
  }
  const inTree = (await treeContext(file)).themes.get(value);
  if (inTree !== undefined) return { styles: inTree.styles, label: `"${inTree.name}"` };
  const fromAccount = await accountTheme(value, account);
  if (fromAccount !== undefined) return fromAccount;
  throw new UsageError(
    `--theme ${value}: no such file, and no theme with this id in the pulled tree${(await account()) === undefined ? '' : ' or the account'}`,
    {
      hint: 'name a theme.json, or a theme id of the tree (or, with a key, of the account)',
    },
  );
}

/** A theme of the account by id, when a key is at hand and the account has it. */
async function accountTheme(id: string, account: () => Promise<ApiClient | undefined>): Promise<ChosenTheme | undefined> {
  const api = await account();
  if (api === undefined) return undefined;
  try {
    const theme = await getTheme(api, id);
    return { styles: theme.styles, label: `"${theme.name}" (from the account)` };
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

/** Components the email embeds that the tree lacks, read from the account when a key is at hand. */
async function accountComponents(ids: string[], account: () => Promise<ApiClient | undefined>): Promise<Map<string, LmxDocument>> {
  const found = new Map<string, LmxDocument>();
  if (ids.length === 0) return found;
  const api = await account();
  if (api === undefined) return found;
  for (const id of ids) {
    try {
      const read = boundedLmx((await getComponent(api, id)).lmx);
      if ('problem' in read) throw new InvalidResponseError(`the account's component ${id}: ${read.problem.message}`);
      found.set(id, parseLmx(read.source).document);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
  }
  return found;
}

interface RenderOptions {
  env?: string;
  kind?: string;
  data?: string;
  theme?: string;
  out?: string;
}

/** `content render`: the HTML email document on stdout (or --out), and what it could not fill on stderr. */
export const render: Handler<[string], RenderOptions> = handler(
  ['out', 'client', 'key', 'files'],
  async (context, [file], options) => {
    const place = placeOf(resolve(file));
    // The environment's values, filled before anything reads the email: its components and fields too.
    const values = (await fileEnvironment(context, file, options.env))?.environment.values;
    const written = await readLmxFile(context, file);
    const source = values === undefined ? written : fillLmx(written, values);
    const kind = place.kind ?? kindOption(options.kind);
    const samples =
      options.data === undefined
        ? undefined
        : await readJsonInput(context.runtime, options.data, 'values').then(({ source: where, value }) => valuesFrom(where, value, kind));
    let account: Promise<ApiClient | undefined> | undefined;
    const accountOnce = () => (account ??= accountIfKeyed(context));
    const theme = options.theme === undefined ? undefined : await themeOption(context, options.theme, resolve(file), accountOnce);
    const tree = await treeContext(resolve(file), undefined, values);
    const { document } = parseLmx(source);
    const lacking = componentIdsOf(document).filter((id) => !tree.components.has(id));
    const extraComponents = await accountComponents(lacking, accountOnce);
    // A <Style themeId> the tree lacks is read from the account when it can be.
    const themeId = themeIdOf(document);
    const themeFromAccount = theme === undefined && themeId !== undefined && !tree.themes.has(themeId) ? await accountTheme(themeId, accountOnce) : undefined;
    const view = viewEmail({ file, source, kind, values: samples, theme: theme ?? themeFromAccount, extraComponents }, tree);
    const { out } = context;
    if (out.json) {
      const { html, missing, missingComponents, nestedComponents, dropped, inert, problems } = view;
      const errors = problems.filter((problem) => problem.severity === 'error');
      const warnings = problems.filter((problem) => problem.severity === 'warning');
      if (options.out !== undefined) await writeOut(context, options.out, html);
      return out.writeJson({
        file,
        kind: kind ?? null,
        ...(options.out === undefined ? { html } : { out: options.out }),
        missingVariables: missing,
        missingComponents,
        nestedComponents,
        dropped,
        inert,
        errors,
        warnings,
      });
    }
    // An email's text may hold escape sequences (a terminal's title, its clipboard): a terminal is shown them escaped.
    if (options.out === undefined) await out.write(out.tty ? sanitizeKeepingLines(view.html) : view.html);
    else await writeOut(context, options.out, view.html);
    for (const note of renderNotes(view, file)) out.note(note);
    if (options.out !== undefined) out.note(`Wrote ${options.out}, a local preview of ${file}.`);
  },
  {
    chooseAccount: async (context, [file], options) => {
      await fileEnvironment(context, file, options.env);
    },
  },
);

/** The HTML written to a new file renamed into place: never through a link at that name, nor (for `loopsctl mcp`) anywhere under its root. */
export async function writeOut(context: Uses<'files'>, file: string, html: string): Promise<void> {
  const { root, path } = await placeOfFile(context, file);
  try {
    writeTreeFile(root, path, html);
  } catch (error) {
    throw new LocalFileError(`cannot write ${file}: ${(error as Error).message}`, { cause: error });
  }
}

interface PreviewOptions {
  env?: string;
  port: number;
  open?: boolean;
  kind?: string;
  compare?: string;
  rules?: string;
  allowPrivateLinks?: boolean;
}

/** The original --compare names: an HTML email, read where it is, never through a link. */
function originalOf(file: string | undefined): { root: string; path: string; name: string } | undefined {
  if (file === undefined) return undefined;
  if (!/\.html?$/i.test(file))
    throw new UsageError(`--compare ${file}: the original is compared as the HTML it sends`, {
      hint: 'name its HTML: an .html email, or what your build makes of an MJML or React Email template (mjml email.mjml -o email.html; email export)',
    });
  const full = resolve(file);
  if (treeEntryKind(dirname(full), basename(full)) !== 'file') throw new UsageError(`--compare ${file}: no such file`);
  return { root: dirname(full), path: basename(full), name: basename(full) };
}

/** `content preview`: serves the page until interrupted; its address is the one line of output. */
export const preview: Handler<[string | undefined], PreviewOptions> = handler(
  ['out', 'files', 'programs', 'globals', 'key'],
  async (context, [directory], options) => {
    const root = resolve(directory ?? DEFAULT_DIRECTORY);
    if (!existsSync(root) || !statSync(root).isDirectory()) {
      throw new UsageError(`${root} is not a directory`, { hint: 'pull your content first (`loopsctl content pull`), or name a directory of .lmx files' });
    }
    const env = (await chooseEnvironment(context, root, options.env))?.environment.values;
    const [{ startPreview }, { readQaRules }, { servedPageImages }] = await Promise.all([
      import('./preview-server.js'),
      import('./shared/check-qa.js'),
      import('../../core/page-images.js'),
    ]);
    // The rules file `content check` reads (--rules, else loops.check.yaml here or in ./loops), read once as the preview starts.
    const rules = await readQaRules(options.rules, context.runtime.files?.root ?? '.');
    const { out, runtime } = context;
    // The emails' images, fetched by loopsctl as any address from content is: the time limit and proxy of the run.
    const images = servedPageImages(context, options.allowPrivateLinks === true, 'the preview');
    const server = await startPreview({
      root,
      port: options.port,
      kind: kindOption(options.kind),
      compare: originalOf(options.compare),
      ...(rules === undefined ? {} : { rules }),
      ...(env === undefined ? {} : { env }),
      images: (address) => images.load(address),
    }).catch(async (error: unknown) => {
      await images.close();
      throw error;
    });
    await out.write(`${server.url}\n`);
    out.note(`Previewing the emails of ${root} at ${server.url}`);
    out.note('The page follows your edits: save an .lmx file and it redraws. Nothing is sent. Press Ctrl-C to stop.');
    if (options.open) {
      if (!runtime.stdout.isTTY || !(runtime.env.BROWSER?.trim() || hasDisplay(runtime)))
        out.note('No browser can be shown here: open the address above yourself.');
      // The browser runs beside the server; a failure to start it is noted with the address.
      else void openPage(context, server.url);
    }
    await new Promise<void>((resolve) => {
      if (runtime.signal.aborted) return resolve();
      runtime.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await server.close();
    await images.close();
  },
  { chooseAccount: environmentAccount(([directory]) => resolve(directory ?? DEFAULT_DIRECTORY)) },
);
