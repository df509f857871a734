/**
 * The write gate (src/core/gate.ts) reading a test sandbox's state in this process: what a test
 * asks of a request the sandbox received (did it need a person's yes, with the account as it is
 * now?), without a request of its own on the sandbox's record of what loopsctl sent.
 */
import { NotFoundError, ServerError } from '../../src/base/errors.js';
import { WriteGate } from '../../src/core/gate.js';
import type { SandboxServer } from '../../src/emulator/server.js';

export function sandboxGate(server: Pick<SandboxServer, 'answer'>, apiKey: string): WriteGate {
  return new WriteGate(async (path) => {
    const answer = await server.answer({ method: 'GET', target: path, headers: { authorization: `Bearer ${apiKey}` }, body: Buffer.alloc(0) });
    if (answer.status === 404) throw new NotFoundError(`${path} not found`);
    if (answer.status >= 400) throw new ServerError(`${path} answered ${answer.status}`, { status: answer.status });
    return answer.body;
  });
}

/** The requests among these that needed a person's yes, with the account as it is now, as `METHOD path: why`. */
export async function neededYes(gate: WriteGate, requests: { method: string; path: string; body?: unknown }[]): Promise<string[]> {
  const needed: string[] = [];
  for (const request of requests) {
    const does = await gate.needsYes(request.method, request.path, request.body);
    if (does !== undefined) needed.push(`${request.method} ${request.path}: ${does}`);
  }
  return needed;
}
