/** What `loopsctl api` does: one request, or every page of a list, printed as received. */
import { STATUS_CODES } from 'node:http';
import type { HttpAnswer, HttpRequest, HttpTransport, Method } from '../../api/http.js';
import { honoursIdempotencyKey, KEYED_REQUESTS } from '../../api/idempotency.js';
import { describeBody } from '../../base/body-preview.js';
import { InvalidResponseError, LocalFileError, UsageError } from '../../base/errors.js';
import { jsonFault } from '../../base/parse-faults.js';
import { sanitize } from '../../base/sanitize.js';
import type { Page } from '../../base/shapes.js';
import { type Handler, handler, type Uses } from '../../core/capabilities.js';
import { readInput } from '../../core/input.js';
import { JsonArrayWriter } from '../../render/output.js';
import { bodyOf, type Field, parseField, queryOf } from './fields.js';
import { apiPath, methodOf, parseHeaders, withQuery } from './request.js';

interface ApiOptions {
  method?: Method;
  rawField?: string[];
  field?: string[];
  input?: string;
  header?: string[];
  idempotencyKey?: string;
  paginate?: boolean;
  jsonl?: boolean;
  include?: boolean;
}

export const api: Handler<[string], ApiOptions> = handler(['out', 'client', 'key', 'files'], async (context, [written], options) => {
  const request = await buildRequest(context, written, options);
  const { apiKey } = await context.credentials();
  const transport = await context.transport(apiKey);
  if (options.paginate) return paginate(context, transport, request, options);
  let attempts = 0;
  const { answer, error: failure } = await transport.exchange({ ...request, onAttempt: (attempt) => (attempts = attempt) });
  // A 409 to a retry of a send its key made safe: the attempt before reached the API, and the send
  // happened, its answer lost (see src/api/idempotency.ts). That is the run's success.
  const alreadySent = failure !== undefined && answer.status === 409 && request.idempotent && request.method !== 'GET' && attempts > 1;
  const error = alreadySent ? undefined : failure;
  if (alreadySent) context.out.note('Already sent: an earlier attempt reached the API, so it was not sent again; the answer below is the one to the retry.');
  if (options.include) writeHead(context, answer);
  // As gh does: an error's body is printed as it came, without --jq.
  if (error === undefined && context.out.filtered) checkJson(answer);
  await context.out.writeJsonText(answer.text, { filter: error === undefined });
  if (error !== undefined) throw error;
});

/** Everything checked before anything is sent: the path, fields, body, headers and flags that go together. */
async function buildRequest(context: Uses<'out' | 'files'>, written: string, options: ApiOptions): Promise<HttpRequest> {
  let stdinTaken = false;
  const readSource = async (file: string, what: string): Promise<string> => {
    if (file === '-') {
      if (stdinTaken) throw new UsageError('standard input can be read only once', { hint: 'put one of the values in a file' });
      stdinTaken = true;
    }
    return (await readInput(context.runtime, file, what)).text;
  };
  const fields: Field[] = [];
  for (const text of options.rawField ?? []) fields.push(await parseField(text, false, (file) => readSource(file, 'field value')));
  for (const text of options.field ?? []) fields.push(await parseField(text, true, (file) => readSource(file, 'field value')));

  const method = methodOf(options) as Method;
  if (method === 'GET' && options.input !== undefined)
    throw new UsageError('a GET request has no body, so --input does not apply', { hint: 'choose another method with -X' });
  if (options.paginate && method !== 'GET') throw new UsageError('--paginate follows lists, which are read with GET');
  if (options.jsonl && !options.paginate) throw new UsageError('--jsonl prints the items of --paginate', { hint: 'add --paginate, or leave --jsonl out' });

  let path = apiPath(written);
  let bodyText: string | undefined;
  if (options.input !== undefined) {
    bodyText = await readSource(options.input, '--input body');
    checkJsonBody(bodyText, options.input);
  }
  // Fields go in the query of a GET, and beside a body given with --input; else they are the body.
  if (method === 'GET' || bodyText !== undefined) path = withQuery(path, queryOf(fields));
  else if (fields.length > 0) bodyText = JSON.stringify(bodyOf(fields));

  const headers = parseHeaders(options.header ?? []);
  const keyed = options.idempotencyKey !== undefined && honoursIdempotencyKey(method, path);
  if (options.idempotencyKey !== undefined) {
    headers['idempotency-key'] = options.idempotencyKey;
    if (!keyed && method !== 'GET') {
      context.out.note(
        `${method} ${path.split('?')[0]} ignores Idempotency-Key (only ${KEYED_REQUESTS.join(' and ')} honour it): it is not sent again once it may have reached the API`,
      );
    }
  }
  return {
    method,
    path,
    bodyText,
    headers,
    // A second attempt is safe for a read, and for a send the API recognises by its key.
    idempotent: method === 'GET' || keyed,
  };
}

function checkJsonBody(text: string, file: string): void {
  try {
    JSON.parse(text);
  } catch {
    const where = file === '-' ? 'standard input' : `"${file}"`;
    throw new LocalFileError(`the body in ${where} is ${jsonFault(text)}`, { hint: '--input sends a JSON body as it is written' });
  }
}

/** --jq reads JSON; any other answer cannot be filtered. */
function checkJson(answer: HttpAnswer): void {
  if (answer.text === '') return;
  try {
    JSON.parse(answer.text);
  } catch {
    throw new InvalidResponseError(
      `the API answered HTTP ${answer.status} with a body that is not JSON, which --jq cannot filter (${describeBody(answer.text, answer.contentType)})`,
      {
        status: answer.status,
      },
    );
  }
}

/**
 * Every page of a list, its items printed as they arrive: one JSON array, or one item per line
 * with --jsonl. The client's paging applies: it stops on a cursor it has already followed.
 */
async function paginate(context: Uses<'out'>, transport: HttpTransport, request: HttpRequest, options: ApiOptions): Promise<void> {
  const { out } = context;
  // Loaded here: zod checks the pages, and a single request does without it.
  const [{ ApiClient }, { anyList }] = await Promise.all([import('../../api/client.js'), import('./client.js')]);
  // The client sends each page through this, so that every page carries the headers and can be shown.
  const client = new ApiClient({
    send: async (page) => {
      const response = await transport.send({ ...page, headers: request.headers });
      if (options.include) writeHead(context, response);
      return Array.isArray(response.body) ? { ...response, body: onePage(response.body) } : response;
    },
  });
  // A page size the path asks for is kept for every page; else the listing's own default.
  const asked = Number(new URL(request.path, 'http://path').searchParams.get('perPage') ?? Number.NaN);
  const pages = client.pages(anyList(request.path), Number.isInteger(asked) ? { perPage: asked } : {});
  if (!options.jsonl) return new JsonArrayWriter(out).writeAll(pages);
  for await (const page of pages) await out.writeJsonLines(page.data);
}

/**
 * A list that comes whole, as a JSON array (mailing lists, contact properties, sending IPs): one
 * page with no next one, so that --paginate prints it as any list, as `gh api --paginate` does.
 */
function onePage(items: unknown[]): Page<unknown> {
  const count = items.length;
  return { data: items, pagination: { totalResults: count, returnedResults: count, perPage: count, totalPages: 1, nextCursor: null, nextPage: null } };
}

/** -i: the status line and headers, on stderr so that stdout stays the body. */
function writeHead(context: Uses<'out'>, answer: Pick<HttpAnswer, 'status' | 'headers'>): void {
  const lines = [`HTTP ${answer.status} ${STATUS_CODES[answer.status] ?? ''}`.trimEnd()];
  for (const [name, value] of Object.entries(answer.headers)) {
    for (const one of Array.isArray(value) ? value : [value ?? '']) lines.push(`${name}: ${one}`);
  }
  context.runtime.stderr.write(`${lines.map(sanitize).join('\n')}\n\n`);
}
