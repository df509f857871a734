/**
 * docs/agents.md says what the server does, from the server itself: its table of tools is what
 * tools/list answers (with a root, at every tier), and its start-up line is the one it writes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../support/main.js';
import { type McpRun, startMcp } from '../../../support/mcp.js';

const page = readFileSync(join(import.meta.dirname, '../../../../docs/agents.md'), 'utf8');

let mcp: McpRun | undefined;
afterEach(async () => {
  await mcp?.close();
  mcp = undefined;
});

describe('docs/agents.md', () => {
  it("lists the tools, and their hints, as the server's tools/list gives them", async () => {
    mcp = await startMcp(['--sandbox', '--allow-destructive', '--root', tempDir()]);
    const { tools } = await mcp.client.listTools();
    const served = tools
      .filter((tool) => !['search_commands', 'describe_command', 'run_command', 'approved_apply', 'workflow_propose', 'workflow_apply'].includes(tool.name))
      .map((tool) => {
        const yes = (hint: boolean | undefined) => (hint ? 'yes' : 'no');
        const hints = tool.annotations!;
        return `${tool.name} ${yes(hints.readOnlyHint)} ${yes(hints.destructiveHint)} ${yes(hints.idempotentHint)}`;
      });
    const documented = [...page.matchAll(/^\| `(\w+)` \| `loopsctl [^`]+` \| \w+ \| (yes|no) \| (yes|no) \| (yes|no) \|/gm)].map(
      ([, name, readOnly, destructive, idempotent]) => `${name} ${readOnly} ${destructive} ${idempotent}`,
    );
    expect(documented).toEqual(served);
  });

  it('shows the start-up line the server writes', async () => {
    mcp = await startMcp(['--sandbox']);
    const line = mcp.stderr().trim();
    expect(line).toMatch(/^loopsctl mcp: \d+ tools/);
    expect(page).toContain(`\n${line}\n`);
  });
});
