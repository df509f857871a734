/**
 * The reads of one run, kept for the rest of it: a read-through cache between a run's client and
 * its transport, so that a run that reads a record or a list in several of its steps (a plan's
 * check, its before-images, the write; a push's sides and its impact) asks the API once. A record
 * whose list's items are the record as its read answers it is taken from a page of the list the
 * run holds (LISTED_AS_READ, src/platform/state-answers.ts). It lives in one run's context
 * (src/core/context.ts) and ends with it: never kept on disk, never shared by two runs, nor by
 * two tool calls of `loopsctl mcp`.
 *
 * What a run's own write changes is asked again. A write forgets:
 * - the record its path names, what is under it (`/guardian`, a node), and what is above it (the
 *   lists of its kind, a node's workflow);
 * - every answer that names one of the ids of its path: a list that lists the record, a record
 *   that refers to it (a transactional email names its draft's id; a workflow names each node's
 *   email message, whose subject it shows);
 * - the records the write refers to (an `…Id` field of its body, of its answer, or of what the
 *   run read of the record and of what is above it): a node's email, a draft a publish replaces, a
 *   group an email moves to.
 * A read in flight when a write starts or ends is never kept, since it may have been answered
 * before or after the write. A write that asks only what would happen (`dryRun: true`: "Make a dry
 * run request using `dryRun: true`", the API's reference) changes nothing and forgets nothing; a
 * write loopsctl does not know forgets everything. A write whose answer holds a record as its read
 * answers it is kept as that read: an email message's update (ANSWERED_AS_READ), a workflow's node
 * writes, which answer the workflow as they left it (src/platform/state-answers.ts).
 *
 * What a guard reads is never taken from here: the reads that compare the account with what a plan
 * saw (a component's or theme's digest, a request call's record, the namesakes looked for before a
 * create) go to the API just before their write, through `freshReads`, as they did before there was
 * a cache; their answer replaces the kept one. A read taken from here was answered earlier in the
 * same run, after this run's last write to anything it names, so it is what a read at that moment
 * found; the guards the platform makes itself (a message's or a workflow's `expectedRevisionId`,
 * sent with the write) are the API's, and no read of the run takes part in them.
 */

import { configurationWrite } from '../platform/configuration-writes.js';
import { EMAIL_MESSAGE } from '../platform/email-messages/resource.js';
import { idsAt, type Operation } from '../platform/operation-row.js';
import { LISTED_AS_READ, statesAnswered } from '../platform/state-answers.js';
import type { ApiClient } from './client.js';
import type { HttpRequest, HttpResponse, Transport } from './http.js';

/** The requests a guard makes: read from the API whatever the run holds. */
const freshRequests = new WeakSet<HttpRequest>();

/** The client, whose reads all go to the API (a guard's), and whose answers replace what the run kept. */
export function freshReads(client: ApiClient): ApiClient {
  const fresh = Object.create(client) as ApiClient;
  fresh.answer = (req, schema) => {
    freshRequests.add(req);
    return client.answer(req, schema);
  };
  return fresh;
}

/**
 * The writes whose answer is the record as a read of the same path answers it, which the run keeps
 * in place of that read, with the fields only a write's answer holds: an email message's update
 * answers `EmailMessageResponse`, as its GET does (the API's reference, `POST
 * /v1/email-messages/{emailMessageId}`: "Email message updated"), whose `warnings` are "Only
 * present on update responses when warnings were produced": an answer with them is not kept.
 */
const ANSWERED_AS_READ: { read: Operation; writeOnly: string[] }[] = [{ read: EMAIL_MESSAGE.operations.getEmailMessage, writeOnly: ['warnings'] }];

interface Kept {
  /** The path without its query. */
  path: string;
  response: Promise<HttpResponse>;
  /** The answer's text, once it came: what a write's ids are looked for in. */
  text?: string;
  /** Its answer, once it came. */
  answer?: HttpResponse;
}

export class RunReads implements Transport {
  private readonly kept = new Map<string, Kept>();

  constructor(private readonly inner: Transport) {}

  async send(req: HttpRequest): Promise<HttpResponse> {
    if (req.method !== 'GET') return this.write(req);
    // A read with headers of its own may be answered otherwise: it is not kept.
    if (req.headers !== undefined) return this.inner.send(req);
    const key = keyOf(req);
    const fresh = freshRequests.has(req);
    const kept = fresh ? undefined : (this.kept.get(key) ?? this.listed(req));
    if (kept !== undefined) return copyOf(await kept.response);
    const entry: Kept = { path: pathOf(req.path), response: this.inner.send(req) };
    this.kept.set(key, entry);
    try {
      const response = await entry.response;
      entry.text = response.text;
      entry.answer = response;
      return copyOf(response);
    } catch (error) {
      if (this.kept.get(key) === entry) this.kept.delete(key);
      throw error;
    }
  }

  private async write(req: HttpRequest): Promise<HttpResponse> {
    const write = configurationWrite(req.method, req.path, req.body);
    if (write === undefined && (req.body as { dryRun?: unknown } | undefined)?.dryRun === true) return this.inner.send(req);
    const path = pathOf(req.path);
    const named = write === undefined ? undefined : Object.values(write.ids);
    // What the record and what is above it refer to, read before they are forgotten.
    const referenced = this.referencedBy(path, req.body);
    const forget = () => (named === undefined ? this.kept.clear() : this.forget(path, named, referenced));
    forget();
    let response: HttpResponse;
    try {
      response = await this.inner.send(req);
    } catch (error) {
      forget();
      throw error;
    }
    // And what the write's answer refers to (a publish names the drafts it replaced and made).
    referencedIds(response.body, referenced);
    forget();
    const asRead = ANSWERED_AS_READ.find((each) => idsAt(each.read, path) !== undefined);
    const body = response.body as Record<string, unknown> | undefined;
    if (asRead !== undefined && typeof body === 'object' && body !== null && asRead.writeOnly.every((field) => !Object.hasOwn(body, field)))
      this.kept.set(keyOf({ path, query: undefined }), { path, response: Promise.resolve(response), text: response.text, answer: response });
    // A workflow its write answered as it left it (src/platform/state-answers.ts): where the run's writes left it, as a read would find it then.
    for (const [recordPath, record] of statesAnswered({ method: req.method, path, query: false, body: req.body }, response.body)) {
      const text = JSON.stringify(record);
      const kept: HttpResponse = { ...response, body: structuredClone(record), text };
      this.kept.set(keyOf({ path: recordPath, query: undefined }), { path: recordPath, response: Promise.resolve(kept), text, answer: kept });
    }
    return copyOf(response);
  }

  /** A record's read answered from a page of its list the run holds (LISTED_AS_READ), kept as its own read. */
  private listed(req: HttpRequest): Kept | undefined {
    const list = req.path.slice(0, req.path.lastIndexOf('/'));
    if (req.query !== undefined || !LISTED_AS_READ.includes(list)) return undefined;
    const id = decodeURIComponent(req.path.slice(list.length + 1));
    for (const { path, answer } of this.kept.values()) {
      if (path !== list || answer?.status !== 200) continue;
      const data = (answer.body as { data?: unknown } | undefined)?.data;
      const item = Array.isArray(data) ? data.find((each) => (each as { id?: unknown } | null)?.id === id) : undefined;
      if (item === undefined) continue;
      const text = JSON.stringify(item);
      const response: HttpResponse = { ...answer, body: structuredClone(item), text };
      const entry: Kept = { path: req.path, response: Promise.resolve(response), text, answer: response };
      this.kept.set(keyOf(req), entry);
      return entry;
    }
    return undefined;
  }

  /** The ids of the records a write to `path` refers to: in its body, and in what the run read of the record and of what is above it. */
  private referencedBy(path: string, body: unknown): Set<string> {
    const ids = new Set<string>();
    referencedIds(body, ids);
    for (const { path: keptPath, text } of this.kept.values()) {
      if (text !== undefined && (keptPath === path || path.startsWith(`${keptPath}/`))) referencedIds(parsed(text), ids);
    }
    return ids;
  }

  /** Forgets what a write to `path`, naming `named` and referring to `referenced`, may have changed. */
  private forget(path: string, named: string[], referenced: Set<string>): void {
    for (const [key, { path: keptPath, text }] of this.kept) {
      const changed =
        text === undefined ||
        keptPath === path ||
        keptPath.startsWith(`${path}/`) ||
        path.startsWith(`${keptPath}/`) ||
        named.some((id) => keptPath.includes(encodeURIComponent(id)) || text.includes(id)) ||
        [...referenced].some((id) => keptPath.split('/').includes(encodeURIComponent(id)));
      if (changed) this.kept.delete(key);
    }
  }
}

/** A read's key: its path and its query, in a fixed order. */
function keyOf(req: Pick<HttpRequest, 'path' | 'query'>): string {
  const query = Object.entries(req.query ?? {})
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`)
    .sort();
  return query.length === 0 ? req.path : `${req.path}${req.path.includes('?') ? '&' : '?'}${query.join('&')}`;
}

function pathOf(pathWithQuery: string): string {
  return pathWithQuery.split('?')[0]!;
}

/** The answer as each caller may change it: the body its own copy. */
function copyOf(response: HttpResponse): HttpResponse {
  return { ...response, body: structuredClone(response.body) };
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Every id a value refers to, at any depth: the strings of its `id` and `…Id` fields, and of its `…Ids` lists. */
function referencedIds(value: unknown, into: Set<string>): void {
  if (typeof value !== 'object' || value === null) return;
  for (const [key, field] of Object.entries(value)) {
    const names = key === 'id' || /[a-z]Id$/.test(key);
    if (names && typeof field === 'string' && field !== '' && !/revision/i.test(key)) into.add(field);
    else if (/[a-z]Ids$/.test(key) && Array.isArray(field))
      for (const id of field)
        if (typeof id === 'string' && id !== '') into.add(id);
        else referencedIds(field, into);
  }
}
