/** A tool call's answer is bounded: a list of large items stops before the bound and goes on by cursor, nothing lost or repeated. */
import { describe, expect, it } from 'vitest';
import { ANSWER_MAX_CHARS, type Caller, callTool } from '../../../../src/areas/mcp/calls.js';
import { type Tool, toolsFrom } from '../../../../src/areas/mcp/tools.js';
import { specs } from '../../../../src/areas/registry.js';
import type { CommandInput } from '../../../../src/core/invoke.js';
import type { Invoked, Invoker } from '../../../../src/core/invoker.js';

const all = toolsFrom(specs);
const tool = (name: string): Tool => all.find((candidate) => candidate.name === name)!;

/** 120 themes of 100 KB each, served in the API's pages, as a command run with --cursor and --per-page prints them. */
const items = Array.from({ length: 120 }, (_, index) => ({ id: `theme${index}`, name: 'x'.repeat(100_000) }));
const invoker = {
  invoke: async (_path: string[], input: CommandInput): Promise<Invoked> => {
    const start = input.cursor === '' ? 0 : Number(input.cursor);
    const end = start + Number(input['per-page']);
    const page = { data: items.slice(start, end), pagination: { nextCursor: end < items.length ? String(end) : null } };
    return { exitCode: 0, stdout: JSON.stringify(page), written: [{ value: page }], held: [], live: [] };
  },
} as unknown as Invoker;

describe('the size of an answer', () => {
  it('stops a list before the bound and continues it by cursor', async () => {
    const caller: Caller = { invoker, tier: 'read' };
    const seen: string[] = [];
    let cursor: string | undefined;
    let answers = 0;
    do {
      const answer = await callTool(caller, tool('themes_list'), { limit: 1000, ...(cursor === undefined ? {} : { cursor }) });
      expect(answer.isError).toBeFalsy();
      expect(answer.content[0]!.text.length).toBeLessThanOrEqual(ANSWER_MAX_CHARS);
      const { data, nextCursor } = answer.structuredContent as { data: { id: string }[]; nextCursor: string | null };
      seen.push(...data.map(({ id }) => id));
      cursor = nextCursor ?? undefined;
      answers += 1;
    } while (cursor !== undefined);
    expect(seen).toEqual(items.map(({ id }) => id));
    expect(answers).toBeGreaterThan(10);
  });
});
