/**
 * The MCP Inspector, in its CLI mode, against the built `loopsctl mcp --sandbox`: each method an
 * agent's client calls answers, and the Inspector exits 0.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../support/temp.js';
import { BIN } from '../../../support/run-cli.js';

const INSPECTOR = resolve(import.meta.dirname, '../../../../node_modules/@modelcontextprotocol/inspector/cli/build/cli.js');

async function inspect(method: string, ...more: string[]): Promise<any> {
  const config = tempDir();
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [INSPECTOR, '--cli', '-e', `LOOPSCTL_CONFIG_DIR=${config}`, process.execPath, BIN, 'mcp', '--sandbox', '--method', method, ...more],
    {
      env: { PATH: process.env.PATH ?? '', HOME: config },
    },
  );
  return JSON.parse(stdout);
}

describe('the MCP Inspector (CLI mode)', () => {
  it('lists the tools, resources, resource templates and prompts', async () => {
    const { tools } = await inspect('tools/list');
    expect(tools.map(({ name }: { name: string }) => name)).toContain('themes_list');
    expect((await inspect('resources/list')).resources[0].uri).toBe('loopsctl://context');
    expect(await inspect('resources/templates/list')).toEqual({ resourceTemplates: [] });
    expect(await inspect('prompts/list')).toEqual({ prompts: [] });
  });

  it('calls a tool', async () => {
    const answer = await inspect('tools/call', '--tool-name', 'themes_list', '--tool-arg', 'limit=2');
    expect(answer.isError).toBeFalsy();
    expect(answer.structuredContent.data).toHaveLength(2);
  });
});
