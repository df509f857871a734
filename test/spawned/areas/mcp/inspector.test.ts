/**
 * The MCP Inspector's CLI against the built `loopsctl mcp --sandbox`: a client other than the
 * protocol SDK's own lists the tools and calls one over the process's stdin and stdout, and exits 0.
 * The other lists (resources, resource templates, prompts) are answered to the SDK's client in
 * process (test/e2e/areas/mcp).
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../support/temp.js';
import { BIN } from '../../../support/run-cli.js';

/** The Inspector's CLI mode itself: `inspector --cli` starts this in a process of its own with the environment given. */
const INSPECTOR_CLI = resolve(import.meta.dirname, '../../../../node_modules/@modelcontextprotocol/inspector/cli/build/index.js');

/** The config directory of every run: the first seeds the sandbox's state, and the next reads it. */
const config = tempDir();

async function inspect(method: string, ...more: string[]): Promise<any> {
  const { stdout } = await promisify(execFile)(process.execPath, [INSPECTOR_CLI, process.execPath, BIN, 'mcp', '--sandbox', '--method', method, ...more], {
    env: { PATH: process.env.PATH ?? '', HOME: config, LOOPSCTL_CONFIG_DIR: config },
  });
  return JSON.parse(stdout);
}

describe('the MCP Inspector (CLI mode)', () => {
  it('lists the tools', async () => {
    const { tools } = await inspect('tools/list');
    expect(tools.map(({ name }: { name: string }) => name)).toContain('themes_list');
  });

  it('calls a tool', async () => {
    const answer = await inspect('tools/call', '--tool-name', 'themes_list', '--tool-arg', 'limit=2');
    expect(answer.isError).toBeFalsy();
    expect(answer.structuredContent.data).toHaveLength(2);
  });
});
