/**
 * The server behind `content preview`: on 127.0.0.1 only, for the browser of the person who
 * started it. It serves the page, each email drawn as HTML, the images the emails name (fetched by
 * loopsctl, src/base/page-images.ts), a stream of change events (the directory is watched, so the page
 * follows every save), and takes the sample values the page's form saves. It reads nothing but the .lmx files the directory lists (no path of a request is
 * ever opened: a request names an email of the list, or gets 404) and writes nothing but an
 * email's values file; it never calls the account. Requests another web page could send (a
 * foreign Host or Origin) are refused by the guard it shares with the sandbox's inbox.
 * Every file is read and written through src/base/tree-files.ts, never through a link, and read
 * without holding the server: at most the 100 KB of LMX the API takes, asynchronously.
 */
import { type FSWatcher, watch } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { relative, sep } from 'node:path';
import { UsageError } from '../../base/errors.js';
import { isJsonObject } from '../../base/json-object.js';
import { foreignRequest, emailPolicy as framedEmailPolicy, openEventStream, pagePolicy, sendText } from '../../base/local-page.js';
import { type ImageLoader, RoutedImages } from '../../base/page-images.js';
import { readTreeFileAsync, TreeFileTooLargeError } from '../../base/tree-files.js';
import { writeTreeFile } from '../../base/tree-writes.js';
import { componentIdsOf, elementsOf, type LmxDocument, type LmxKind, type LmxProblem, parseLmx, variablesOf } from '../../lmx/index.js';
import type { LmxValues } from '../../lmx/render/index.js';
import { type ListedEmail, PREVIEW_CSS, PREVIEW_JS, previewPage, type SampleField, type ShownEmail } from './preview-page.js';
import type { QaRules } from './shared/check-qa.js';
import { type EmailView, renderNotes, type TreeCache, type TreeContext, treeContext, viewEmail } from './shared/email-view.js';
import { type EnvValues, fillLmx } from './shared/env-values.js';
import { readLmxSourceAsync } from './shared/lmx-files.js';
import { emailsOf, type TreeEmail, valuesFileOf, valuesFrom } from './shared/tree.js';

export interface PreviewOptions {
  root: string;
  port: number;
  /** The kind of loose files, which the tree does not say. */
  kind?: LmxKind;
  /** An original email's HTML (`path` under `root`, never through a link), drawn beside each email: `content preview --compare`. */
  compare?: { root: string; path: string; name: string };
  /** The rules file, read when the preview starts: its say on the qa findings the check panel and the list show. */
  rules?: QaRules;
  /** The values of the environment the emails are drawn for, filling their `{env.NAME}`. */
  env?: EnvValues;
  /** What fetches the emails' images, which the preview serves them through (src/base/page-images.ts). */
  images: ImageLoader;
}

/** The original's HTML is read up to this (as `content convert` reads a source). */
const MAX_ORIGINAL_BYTES = 2 * 1024 * 1024;

/** The origins of the images an original's HTML names in full: the only hosts its frame loads from. */
function originalImageOrigins(html: string): string[] {
  const origins = new Set<string>();
  for (const match of html.matchAll(/<img\b[^>]*?\ssrc\s*=\s*["']?(https?):\/\/([A-Za-z0-9.-]+)(:\d{1,5})?/gi))
    origins.add(`${match[1]!.toLowerCase()}://${match[2]!.toLowerCase()}${match[3] ?? ''}`);
  return [...origins].sort();
}

export interface PreviewServer {
  url: string;
  close(): Promise<void>;
}

/** How long file events are gathered before the page is told: an editor's save is several events. */
const SETTLE_MS = 60;
/** Sample values are a few short strings; more is not a form's. */
const MAX_VALUES_BYTES = 64 * 1024;

/** The page runs its own script only and shows no image of its own; the frames show the emails, which run none. */
const PAGE_POLICY = pagePolicy("'self'", "'none'");
/**
 * An email runs nothing and loads nothing but images, and those only through the preview itself
 * (src/base/page-images.ts), which serves the images at hosts its LMX (and its components') writes
 * out in full: an address whose host is a variable, or anything the drawing adds, loads nothing, so
 * sample values go nowhere the email's own text does not name.
 */
function emailPolicy(imageOrigins: readonly string[]): string {
  return framedEmailPolicy(imageOrigins.length === 0 ? "'none'" : "'self'");
}

/** `https://cdn.acme.example/{data.id}.png` -> `https://cdn.acme.example`; undefined when the host is not written out. */
const LITERAL_ORIGIN = /^(https?):\/\/([A-Za-z0-9.-]+)(:\d{1,5})?(?=[/?#]|$)/i;

/** The origins of the images the documents name, written out in the LMX itself. */
function imageOriginsOf(documents: readonly LmxDocument[]): string[] {
  const origins = new Set<string>();
  for (const document of documents)
    for (const element of elementsOf(document)) {
      if (element.name !== 'Image') continue;
      for (const attribute of element.attributes) {
        if (attribute.name !== 'src' && attribute.name !== 'dynamicSrc') continue;
        const origin = LITERAL_ORIGIN.exec(attribute.value.trim());
        if (origin !== null) origins.add(`${origin[1]!.toLowerCase()}://${origin[2]!.toLowerCase()}${origin[3] ?? ''}`);
      }
    }
  return [...origins].sort();
}

class PreviewRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The emails of the directory, each checked, for the list. */
async function listed(root: string, emails: TreeEmail[], kind: LmxKind | undefined, drawing: Drawing): Promise<ListedEmail[]> {
  const listing: ListedEmail[] = [];
  // The tree's components and themes are read once for the list, not once for each email of it.
  const cache: TreeCache = new Map();
  for (const email of emails) {
    const drawn = await safeDraw(root, { ...email, kind: email.kind ?? kind }, drawing, cache);
    const problems = drawn === undefined ? undefined : 'problem' in drawn ? [drawn.problem] : drawn.view.problems;
    const errors = problems?.filter((problem) => problem.severity === 'error').length ?? 1;
    listing.push({ ...email, errors, warnings: (problems?.length ?? 1) - errors });
  }
  return listing;
}

/** The email a request names, by its path in the list (regular files, reached through no link): the only way a request reaches a file. */
function emailNamed(root: string, path: string | null, kind: LmxKind | undefined): TreeEmail {
  const email = path === null ? undefined : emailsOf(root).find((candidate) => candidate.path === path);
  if (email === undefined) throw new PreviewRequestError(404, 'not an email of this directory');
  return { ...email, kind: email.kind ?? kind };
}

/** An email's values file, from the root. */
const valuesPathOf = (root: string, email: TreeEmail) => relative(root, valuesFileOf(email.file)).split(sep).join('/');

async function readValues(root: string, email: TreeEmail): Promise<LmxValues> {
  // A link there is refused (the error is the page's): values read through it would go wherever the email's images point.
  const bytes = await readTreeFileAsync(root, valuesPathOf(root, email), MAX_VALUES_BYTES).catch((error: unknown) => {
    if (error instanceof TreeFileTooLargeError) return undefined;
    throw error;
  });
  try {
    return bytes === undefined ? {} : valuesFrom(valuesFileOf(email.file), JSON.parse(bytes.toString('utf8')), email.kind);
  } catch {
    // A file edited into something else: the form starts empty.
    return {};
  }
}

/** An email drawn, with what drawing it read; or the problem that keeps its file from being read (too large, not UTF-8). */
type Drawn = { view: EmailView; documents: LmxDocument[]; values: LmxValues; context: TreeContext } | { problem: LmxProblem };

/** What every email is drawn with: the rules file's say on the qa findings, and the environment's values. */
interface Drawing {
  rules?: QaRules;
  env?: EnvValues;
}

async function draw(root: string, email: TreeEmail, { rules, env }: Drawing, cache?: TreeCache): Promise<Drawn> {
  const decoded = await readLmxSourceAsync(root, email.path);
  if (decoded === undefined) throw new PreviewRequestError(404, 'not an email of this directory');
  if ('problem' in decoded) return decoded;
  const source = env === undefined ? decoded.source : fillLmx(decoded.source, env);
  const values = await readValues(root, email);
  const context = await treeContext(email.file, cache, env);
  const view = viewEmail({ file: email.file, source, kind: email.kind, values, ...(rules === undefined ? {} : { rules }) }, context);
  const { document } = parseLmx(source);
  const documents: LmxDocument[] = [document, ...componentIdsOf(document).flatMap((id) => context.components.get(id) ?? [])];
  return { view, documents, values, context };
}

/** An email drawn, or undefined when its file cannot be read now (removed between the list and the read). */
async function safeDraw(root: string, email: TreeEmail, drawing: Drawing, cache: TreeCache): Promise<Drawn | undefined> {
  try {
    return await draw(root, email, drawing, cache);
  } catch {
    return undefined;
  }
}

/** The variables an email and the components it embeds use, with their saved values and fallbacks. */
function sampleFields(drawn: Drawn): SampleField[] {
  if ('problem' in drawn) return [];
  const { documents, values, context } = drawn;
  const names = new Map<string, SampleField>();
  for (const document of documents) {
    for (const variable of variablesOf(document)) {
      const name = `${variable.namespace}.${variable.name}`;
      if (names.has(name)) continue;
      const value = values[variable.namespace]?.[variable.name];
      names.set(name, {
        name,
        value: value === undefined || value === null ? '' : String(value),
        fallback: context.fields.fallbacks[variable.namespace]?.[variable.name],
      });
    }
  }
  return [...names.values()];
}

/** The email the page shows, its check panel's findings ruled by the rules file (if any). */
export async function shownEmail(root: string, email: TreeEmail, version: number, drawing: Drawing, original?: string): Promise<ShownEmail> {
  const drawn = await draw(root, email, drawing);
  return {
    original,
    email,
    problems: 'problem' in drawn ? [drawn.problem] : drawn.view.problems,
    notes: 'problem' in drawn ? [] : renderNotes(drawn.view, email.path, true),
    fields: sampleFields(drawn),
    valuesPath: valuesPathOf(root, email),
    version,
    htmlBytes: 'problem' in drawn ? 0 : drawn.view.htmlBytes,
  };
}

/** The values the form posts: by namespace, names to text. */
function postedValues(text: string): Record<string, Record<string, string>> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new PreviewRequestError(400, 'the values are not JSON');
  }
  if (!isJsonObject(value)) throw new PreviewRequestError(400, 'the values are not an object');
  for (const [namespace, names] of Object.entries(value)) {
    if (!['contact', 'event', 'data'].includes(namespace) || !isJsonObject(names))
      throw new PreviewRequestError(400, `"${namespace}" is not a namespace of variables`);
    for (const field of Object.values(names)) if (typeof field !== 'string') throw new PreviewRequestError(400, 'each value is text');
  }
  return value as Record<string, Record<string, string>>;
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_VALUES_BYTES) throw new PreviewRequestError(413, 'too many values');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Saves the sample values the page's form posts for an email (named once the request is known to be the page's). */
async function saveValues(req: IncomingMessage, root: string, named: () => TreeEmail): Promise<void> {
  // Only the page itself saves values: a form of another site sends its own Origin.
  if (req.headers.origin !== `http://${req.headers.host}`) throw new PreviewRequestError(403, 'values are saved from the preview page only');
  if (!(req.headers['content-type'] ?? '').startsWith('application/json')) throw new PreviewRequestError(415, 'the values are sent as JSON');
  const email = named();
  const values = postedValues(await body(req));
  // A new file renamed into place: a link committed at that name is refused, never written through.
  writeTreeFile(root, valuesPathOf(root, email), `${JSON.stringify(values, null, 2)}\n`);
}

/** The original --compare names, as it sends: read now (it may have changed), running nothing, loading images from the hosts it names only (through the preview). */
async function serveOriginal(res: ServerResponse, compare: PreviewOptions['compare'], images: RoutedImages): Promise<void> {
  if (compare === undefined) throw new PreviewRequestError(404, 'not found');
  const bytes = await readTreeFileAsync(compare.root, compare.path, MAX_ORIGINAL_BYTES).catch((error: unknown) => {
    if (error instanceof TreeFileTooLargeError) throw new PreviewRequestError(413, `${compare.name} is over ${MAX_ORIGINAL_BYTES / 1024 / 1024} MB`);
    throw error;
  });
  if (bytes === undefined) throw new PreviewRequestError(404, `${compare.name} is not there any more`);
  const html = bytes.toString('utf8');
  const origins = originalImageOrigins(html);
  sendText(res, 200, 'text/html; charset=utf-8', images.routed(html, origins), { 'content-security-policy': emailPolicy(origins) });
}

/** Starts the server; it stops when `close` is called. */
export async function startPreview(options: PreviewOptions): Promise<PreviewServer> {
  const { root, kind } = options;
  const drawing: Drawing = { rules: options.rules, env: options.env };
  const images = new RoutedImages('/image', options.images);
  const streams = new Set<ServerResponse>();
  let version = 0;
  let pending: NodeJS.Timeout | undefined;
  const changed = () => {
    clearTimeout(pending);
    pending = setTimeout(() => {
      version += 1;
      for (const stream of streams) stream.write(`event: change\ndata: ${version}\n\n`);
    }, SETTLE_MS);
  };
  let watcher: FSWatcher;
  try {
    watcher = watch(root, { recursive: true, persistent: false }, changed);
  } catch (error) {
    throw new UsageError(`cannot watch ${root}: ${(error as Error).message}`);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof PreviewRequestError) sendText(res, error.status, 'text/plain; charset=utf-8', `${error.message}\n`);
      else sendText(res, 500, 'text/plain; charset=utf-8', `preview error: ${error instanceof Error ? error.message : String(error)}\n`);
    });
  });
  const port = () => (server.address() as AddressInfo).port;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A page elsewhere that resolves its own name to 127.0.0.1 still sends its own name as Host.
    const foreign = foreignRequest(req.headers, new URL(`http://127.0.0.1:${port()}`), 'this preview');
    if (foreign !== undefined) throw new PreviewRequestError(403, foreign);
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port()}`);
    const route = `${req.method} ${url.pathname}`;
    switch (route) {
      case 'GET /': {
        const emails = emailsOf(root);
        const asked = url.searchParams.get('email');
        const email = asked === null ? emails[0] : emailNamed(root, asked, kind);
        const shown = email === undefined ? undefined : await shownEmail(root, { ...email, kind: email.kind ?? kind }, version, drawing, options.compare?.name);
        return sendText(res, 200, 'text/html; charset=utf-8', previewPage(root, await listed(root, emails, kind, drawing), shown), {
          'content-security-policy': PAGE_POLICY,
        });
      }
      case 'GET /email.html': {
        const drawn = await draw(root, emailNamed(root, url.searchParams.get('path'), kind), drawing);
        if ('problem' in drawn) throw new PreviewRequestError(422, `not drawn: ${drawn.problem.message}`);
        const origins = imageOriginsOf(drawn.documents);
        return sendText(res, 200, 'text/html; charset=utf-8', images.routed(drawn.view.html, origins), { 'content-security-policy': emailPolicy(origins) });
      }
      case 'GET /original.html':
        return serveOriginal(res, options.compare, images);
      case 'GET /image':
        return images.serve(req, res, url);
      case 'GET /preview.css':
        return sendText(res, 200, 'text/css; charset=utf-8', PREVIEW_CSS);
      case 'GET /preview.js':
        return sendText(res, 200, 'text/javascript; charset=utf-8', PREVIEW_JS);
      case 'GET /events': {
        openEventStream(res, version);
        streams.add(res);
        req.on('close', () => streams.delete(res));
        return;
      }
      case 'POST /values':
        await saveValues(req, root, () => emailNamed(root, url.searchParams.get('path'), kind));
        // The watcher tells the page too; this makes the redraw certain where file events are slow.
        changed();
        return sendText(res, 200, 'application/json', '{"saved":true}');
      default:
        throw new PreviewRequestError(404, 'not found');
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new UsageError(
          `the preview cannot listen on 127.0.0.1:${options.port}: ${error.code === 'EADDRINUSE' ? 'the port is already in use' : error.message}`,
          { hint: 'pick another --port, or --port 0 for a free one' },
        ),
      ),
    );
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://127.0.0.1:${port()}/`,
    close: async () => {
      clearTimeout(pending);
      watcher.close();
      for (const stream of streams) stream.end();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
