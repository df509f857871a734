/**
 * A test sandbox that records every request it answers, a way to run loopsctl against it, and
 * the check of those requests against the published description (skipped when the description is
 * not beside the project).
 */
import { afterEach, expect } from 'vitest';
import type { ApiRequest } from '../../src/sandbox/api.js';
import type { SandboxServer, SandboxServerOptions } from '../../src/sandbox/server.js';
import { closedAfter } from './closing.js';
import { run, sandboxEnv, startTestSandbox, type RunOptions } from './main.js';
import { loadOpenApi, PUBLISHED_DESCRIPTION, requestProblems } from './openapi.js';

export const openApi = loadOpenApi(PUBLISHED_DESCRIPTION);

export interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | undefined>;
  /** The JSON body, parsed; undefined when none was sent. */
  body: any;
  /** The body as sent. */
  text: string;
  /** The status the sandbox answered with. */
  status: number;
}

export interface RecordingSandbox {
  server: SandboxServer;
  env: Record<string, string>;
  requests: Recorded[];
  /** Runs loopsctl in-process against this sandbox. */
  loopsctl(args: string[], options?: RunOptions): ReturnType<typeof run>;
  /** Problems of every recorded request against the description; empty when it is absent. */
  problems(): string[];
  close(): Promise<void>;
}

export async function recordingSandbox(options: SandboxServerOptions = {}): Promise<RecordingSandbox> {
  const requests: Recorded[] = [];
  const record = (request: ApiRequest, status: number) =>
    requests.push({
      method: request.method,
      path: request.path,
      query: request.query,
      headers: request.headers ?? {},
      body: jsonOf(request.body),
      text: request.body,
      status,
    });
  const server = await startTestSandbox({ ...options, onRequest: (request, answer) => record(request, answer.status) });
  const env = sandboxEnv(server);
  return {
    server,
    env,
    requests,
    loopsctl: (args, runOptions = {}) => run(args, { ...runOptions, env: { ...env, ...runOptions.env } }),
    problems: () => describedProblems(requests),
    close: () => server.close(),
  };
}

/**
 * recordingSandbox() for test files that open one in each test: every sandbox it opens is closed
 * after the test that opened it.
 */
export function sandboxEachTest(): (options?: SandboxServerOptions) => Promise<RecordingSandbox> {
  const keep = closedAfter(afterEach);
  return async (options) => keep(await recordingSandbox(options));
}

/** A JSON body, parsed; undefined for none, or for bytes that are not JSON (an upload's PUT). */
function jsonOf(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The description's schema for POST /v1/contacts/delete marks both email and userId required,
 * while its own text says to include only one (and that both is a 400); loopsctl sends one.
 */
const KNOWN_CONTRADICTIONS: Record<string, RegExp> = { 'POST /v1/contacts/delete': /^\$: missing required (email|userId)$/ };

/**
 * Operations the API reference (v1.22.1) documents that the published description (1.21.6)
 * predates: the reference is the authority, so their requests are not checked against it.
 */
const NEWER_THAN_DESCRIPTION: { method: string; path: RegExp }[] = [
  { method: 'GET', path: /^\/v1\/transactional-emails\/[^/]+\/metrics$/ },
  { method: 'GET', path: /^\/v1\/campaigns\/[^/]+\/metrics$/ },
  { method: 'GET', path: /^\/v1\/workflows\/[^/]+\/nodes\/[^/]+\/metrics$/ },
  { method: 'DELETE', path: /^\/v1\/workflows\/[^/]+$/ },
];

/** What does not fit the published description in the requests; empty when the description is absent. */
export function describedProblems(requests: Recorded[]): string[] {
  if (openApi === undefined) return [];
  const described = (request: Recorded) => !NEWER_THAN_DESCRIPTION.some(({ method, path }) => request.method === method && path.test(request.path));
  // Only the API's own paths: a presigned upload URL is storage's, not the API's.
  return requests.filter((request) => request.path.startsWith('/v1/') && described(request)).flatMap((request) => {
    const known = KNOWN_CONTRADICTIONS[`${request.method} ${request.path}`];
    return requestProblems(openApi, request.method, request.path, request.body)
      .filter((problem) => known === undefined || !known.test(problem))
      .map((problem) => `${request.method} ${request.path} ${JSON.stringify(request.body)}: ${problem}`);
  });
}

/** Every request body fits the published description (skipped when the description is absent). */
export function expectDescribed(requests: Recorded[]): void {
  expect(describedProblems(requests)).toEqual([]);
}
