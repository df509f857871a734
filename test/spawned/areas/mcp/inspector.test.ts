/**
 * The MCP Inspector's CLI against the built `loopsctl mcp --sandbox`: a client other than the
 * protocol SDK's own lists the tools and calls one over the process's stdin and stdout, and exits 0
 * (one run: the Inspector lists the tools to call one, and types its arguments by the list).
 * The other lists (resources, resource templates, prompts) are answered to the SDK's client in
 * process (test/e2e/areas/mcp).
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BIN } from '../../../support/run-cli.js';
import { tempDir } from '../../../support/temp.js';

/** The Inspector's CLI mode itself: `inspector --cli` starts this in a process of its own with the environment given. */
const INSPECTOR_CLI = resolve(import.meta.dirname, '../../../../node_modules/@modelcontextprotocol/inspector/cli/build/index.js');

describe('the MCP Inspector (CLI mode)', () => {
  it('lists the tools, and calls one with the arguments typed by the list', async () => {
    const config = tempDir();
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [INSPECTOR_CLI, process.execPath, BIN, 'mcp', '--sandbox', '--method', 'tools/call', '--tool-name', 'themes_list', '--tool-arg', 'limit=2'],
      { env: { PATH: process.env.PATH ?? '', HOME: config, LOOPSCTL_CONFIG_DIR: config } },
    );
    // The Inspector gives `limit=2` as a number only when the list it asked for first has the tool
    // with an integer `limit`: as the string "2", the call would be refused.
    const answer = JSON.parse(stdout);
    expect(answer.isError).toBeFalsy();
    expect(answer.structuredContent.data).toHaveLength(2);
  });
});
