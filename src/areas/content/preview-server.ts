/**
 * The server behind `content preview`: on 127.0.0.1 only, for the browser of the person who
 * started it. It serves the page, each email drawn as HTML, a stream of change events (the
 * directory is watched, so the page follows every save), and takes the sample values the page's
 * form saves. It reads nothing but the .lmx files the directory lists (no path of a request is
 * ever opened: a request names an email of the list, or gets 404) and writes nothing but an
 * email's values file; it never calls the account. Requests another web page could send (a
 * foreign Host or Origin) are refused by the guard it shares with the sandbox's inbox.
 */
import { mkdirSync, readFileSync, realpathSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, relative, sep } from 'node:path';
import { UsageError } from '../../base/errors.js';
import { EMAIL_POLICY, foreignRequest, openEventStream, pagePolicy, sendText } from '../../base/local-page.js';
import { componentIdsOf, parseLmx, variablesOf, type LmxDocument, type LmxKind } from '../../lmx/index.js';
import type { LmxValues } from '../../lmx/render.js';
import { renderNotes, treeContext, viewEmail } from './emails.js';
import { PREVIEW_CSS, PREVIEW_JS, previewPage, type ListedEmail, type SampleField, type ShownEmail } from './preview-page.js';
import { emailsOf, valuesFileOf, valuesFrom, type TreeEmail } from './tree.js';

export interface PreviewOptions {
  root: string;
  port: number;
  /** The kind of loose files, which the tree does not say. */
  kind?: LmxKind;
}

export interface PreviewServer {
  url: string;
  close(): Promise<void>;
}

/** How long file events are gathered before the page is told: an editor's save is several events. */
const SETTLE_MS = 60;
/** Sample values are a few short strings; more is not a form's. */
const MAX_VALUES_BYTES = 64 * 1024;

const PAGE_POLICY = pagePolicy("'self'");

class PreviewRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The emails of the directory, each checked, for the list. */
function listed(emails: TreeEmail[], kind: LmxKind | undefined): ListedEmail[] {
  return emails.map((email) => {
    const view = safeView(email, kind);
    const errors = view?.problems.filter((problem) => problem.severity === 'error').length ?? 1;
    return { ...email, errors, warnings: (view?.problems.length ?? 1) - errors };
  });
}

/** The email a request names, by its path in the list: the only way a request reaches a file. */
function emailNamed(root: string, path: string | null, kind: LmxKind | undefined): TreeEmail {
  const email = path === null ? undefined : emailsOf(root).find((candidate) => candidate.path === path);
  if (email === undefined) throw new PreviewRequestError(404, 'not an email of this directory');
  // A file the list holds is a regular file under the root; its real path must be too (no link out).
  const real = realpathSync(email.file);
  if (relative(realpathSync(root), real).split(sep)[0] === '..') throw new PreviewRequestError(404, 'not an email of this directory');
  return { ...email, kind: email.kind ?? kind };
}

function readValues(email: TreeEmail): LmxValues {
  try {
    return valuesFrom(valuesFileOf(email.file), JSON.parse(readFileSync(valuesFileOf(email.file), 'utf8')), email.kind);
  } catch {
    // No values saved yet, or a file edited into something else: the form starts empty.
    return {};
  }
}

function view(email: TreeEmail) {
  const source = readFileSync(email.file, 'utf8');
  return viewEmail({ file: email.file, source, kind: email.kind, values: readValues(email) });
}

/** An email's view, or undefined when its file cannot be read now (removed between the list and the read). */
function safeView(email: TreeEmail, kind: LmxKind | undefined) {
  try {
    return view({ ...email, kind: email.kind ?? kind });
  } catch {
    return undefined;
  }
}

/** The variables an email and the components it embeds use, with their saved values and fallbacks. */
function sampleFields(email: TreeEmail, values: LmxValues): SampleField[] {
  const context = treeContext(email.file);
  const { document } = parseLmx(readFileSync(email.file, 'utf8'));
  const documents: LmxDocument[] = [document, ...componentIdsOf(document).flatMap((id) => context.components.get(id) ?? [])];
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

function shownEmail(root: string, email: TreeEmail, version: number): ShownEmail {
  const values = readValues(email);
  const current = view(email);
  return {
    email,
    problems: current.problems,
    notes: renderNotes(current, email.path, true),
    fields: sampleFields(email, values),
    valuesPath: relative(root, valuesFileOf(email.file)).split(sep).join('/'),
    version,
    htmlBytes: current.htmlBytes,
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
  const isObject = (candidate: unknown): candidate is Record<string, unknown> =>
    typeof candidate === 'object' && candidate !== null && !Array.isArray(candidate);
  if (!isObject(value)) throw new PreviewRequestError(400, 'the values are not an object');
  for (const [namespace, names] of Object.entries(value)) {
    if (!['contact', 'event', 'data'].includes(namespace) || !isObject(names))
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

/** Starts the server; it stops when `close` is called. */
export async function startPreview(options: PreviewOptions): Promise<PreviewServer> {
  const { root, kind } = options;
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
        const shown = email === undefined ? undefined : shownEmail(root, { ...email, kind: email.kind ?? kind }, version);
        return sendText(res, 200, 'text/html; charset=utf-8', previewPage(root, listed(emails, kind), shown), { 'content-security-policy': PAGE_POLICY });
      }
      case 'GET /email.html': {
        const email = emailNamed(root, url.searchParams.get('path'), kind);
        return sendText(res, 200, 'text/html; charset=utf-8', view(email).html, { 'content-security-policy': EMAIL_POLICY });
      }
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
      case 'POST /values': {
        // Only the page itself saves values: a form of another site sends its own Origin.
        if (req.headers.origin !== `http://${req.headers.host}`) throw new PreviewRequestError(403, 'values are saved from the preview page only');
        if (!(req.headers['content-type'] ?? '').startsWith('application/json')) throw new PreviewRequestError(415, 'the values are sent as JSON');
        const email = emailNamed(root, url.searchParams.get('path'), kind);
        const values = postedValues(await body(req));
        const file = valuesFileOf(email.file);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, `${JSON.stringify(values, null, 2)}\n`);
        // The watcher tells the page too; this makes the redraw certain where file events are slow.
        changed();
        return sendText(res, 200, 'application/json', '{"saved":true}');
      }
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
