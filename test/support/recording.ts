/**
 * A test sandbox that records every request it answers, and checks their bodies against the
 * published description (skipped when the description is not beside the project).
 */
import type { ApiRequest } from '../../src/sandbox/api.js';
import type { SandboxServer, SandboxServerOptions } from '../../src/sandbox/server.js';
import { sandboxEnv, startTestSandbox } from './main.js';
import { loadOpenApi, PUBLISHED_DESCRIPTION, requestProblems } from './openapi.js';

export const openApi = loadOpenApi(PUBLISHED_DESCRIPTION);

export interface RecordingSandbox {
  server: SandboxServer;
  env: Record<string, string>;
  requests: ApiRequest[];
  /** Problems of every recorded request against the description; empty when it is absent. */
  problems(): string[];
  close(): Promise<void>;
}

export async function startRecordingSandbox(options: SandboxServerOptions = {}): Promise<RecordingSandbox> {
  const requests: ApiRequest[] = [];
  const server = await startTestSandbox({ ...options, onRequest: (request) => requests.push(request) });
  return {
    server,
    env: sandboxEnv(server),
    requests,
    problems: () =>
      openApi === undefined
        ? []
        : requests.flatMap((request) =>
            requestProblems(openApi, request.method, request.path, request.body === '' ? undefined : JSON.parse(request.body)).map(
              (problem) => `${request.method} ${request.path}: ${problem}`,
            ),
          ),
    close: () => server.close(),
  };
}
