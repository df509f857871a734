/**
 * A test sandbox that records every request it answers and its answer, a way to run loopsctl
 * against it, and the check of both against the published description (the contract it derives,
 * test/contract).
 */
import { afterEach, expect } from 'vitest';
import type { ApiAnswer, ApiRequest } from '../../src/emulator/api.js';
import type { SandboxServer, SandboxServerOptions } from '../../src/emulator/server.js';
import { closedAfter } from './closing.js';
import { type RunOptions, run, sandboxEnv, startTestSandbox } from './main.js';
import { publishedDescription, requestProblems, responseProblems } from './openapi.js';

export const openApi = publishedDescription();

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
  /** The body the sandbox answered with. */
  answer: unknown;
}

export interface RecordingSandbox {
  server: SandboxServer;
  env: Record<string, string>;
  requests: Recorded[];
  /** Runs loopsctl in-process against this sandbox. */
  loopsctl(args: string[], options?: RunOptions): ReturnType<typeof run>;
  /** Problems of every recorded request and answer against the description; empty when it is absent. */
  problems(): string[];
  close(): Promise<void>;
}

export async function recordingSandbox(options: SandboxServerOptions = {}): Promise<RecordingSandbox> {
  const requests: Recorded[] = [];
  const record = (request: ApiRequest, answer: ApiAnswer) =>
    requests.push({
      method: request.method,
      path: request.path,
      query: request.query,
      headers: request.headers ?? {},
      body: jsonOf(request.body),
      text: request.body,
      status: answer.status,
      answer: answer.body,
    });
  // Tests here run several commands in a row, each pacing only itself: together they would go over
  // the rate limit, and its 429s (which the description does not list) would be recorded. A test
  // of the limit asks for it.
  const server = await startTestSandbox({ ...options, onRequest: record });
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

/** What does not fit the published description in the requests and answers. */
export function describedProblems(requests: Recorded[]): string[] {
  // Only the API's own paths: a presigned upload URL is storage's, not the API's.
  return requests
    .filter((request) => request.path.startsWith('/v1/'))
    .flatMap((request) => [
      ...requestProblems(openApi, request.method, request.path, request.body).map(
        (problem) => `${request.method} ${request.path} ${JSON.stringify(request.body)}: ${problem}`,
      ),
      ...responseProblems(openApi, request.method, request.path, request.status, request.answer).map(
        (problem) => `${request.method} ${request.path} answered ${request.status} ${JSON.stringify(request.answer)}: ${problem}`,
      ),
    ]);
}

/** Every request and answer fits the published description. */
export function expectDescribed(requests: Recorded[]): void {
  expect(describedProblems(requests)).toEqual([]);
}
