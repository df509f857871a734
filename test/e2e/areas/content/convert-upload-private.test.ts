/**
 * `content convert --upload` (and the MCP tool content_convert) never downloads an image at a
 * loopback, private or reserved address into the account's public storage unless the person allows
 * it with --allow-private-links: such an image is listed, not fetched, and its host asked nothing.
 * An agent's tool call cannot allow it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiRequest } from '../../../../src/emulator/api.js';
import { run, sandboxEnv, startTestSandbox, tempDir } from '../../../support/main.js';
import { type McpRun, startMcp } from '../../../support/mcp.js';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(120, 7)]);

describe('content convert --upload, at addresses of this machine or its network', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });
  /** An image host on loopback, standing for an internal server (a cloud's metadata, an admin page). */
  async function internalHost() {
    const seen: string[] = [];
    const server = createServer((request, response) => {
      seen.push(request.url ?? '');
      response.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    return { seen, port: (server.address() as AddressInfo).port };
  }
  async function sandbox() {
    const seen: ApiRequest[] = [];
    const server = await startTestSandbox({ onRequest: (request) => seen.push(request) });
    closers.push(() => server.close());
    return { seen, env: sandboxEnv(server) };
  }
  const addresses = (port: number) => [
    `http://127.0.0.1:${port}/secret.png`,
    `http://localhost:${port}/secret.png`,
    `http://[::ffff:127.0.0.1]:${port}/secret.png`,
    `http://0x7f.1:${port}/secret.png`,
  ];
  const emailOf = (port: number) => {
    const root = tempDir('loopsctl-convert-src-');
    writeFileSync(
      join(root, 'welcome.html'),
      `<html><body>${addresses(port)
        .map((src) => `<img src="${src}" alt="Logo">`)
        .join('')}<p>Hello</p></body></html>`,
    );
    return root;
  };

  it('lists each such image, fetched from nowhere and uploaded nowhere, unless --allow-private-links', async () => {
    const { seen, env } = await sandbox();
    const host = await internalHost();
    const root = emailOf(host.port);
    const out = join(tempDir('loopsctl-convert-out-'), 'loops');
    const result = await run(['content', 'convert', join(root, 'welcome.html'), '--out', out, '--upload', '--json'], { env });
    // Exit 1: the images not uploaded, listed in the JSON; nothing on stderr.
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toBe('');
    const listed = JSON.parse(result.stdout).records[0].remediation.filter((item: { construct: string }) => item.construct.startsWith('--upload'));
    expect(listed.map((item: { done: string }) => item.done)).toEqual([
      `not uploaded: GET http://127.0.0.1:${host.port}/secret.png: a loopback address (127.0.0.0/8); not fetched without --allow-private-links`,
      `not uploaded: GET http://localhost:${host.port}/secret.png: a loopback address (localhost); not fetched without --allow-private-links`,
      `not uploaded: GET http://[::ffff:7f00:1]:${host.port}/secret.png: a loopback address (127.0.0.0/8), written as ::ffff:7f00:1; not fetched without --allow-private-links`,
      `not uploaded: GET http://127.0.0.1:${host.port}/secret.png: a loopback address (127.0.0.0/8); not fetched without --allow-private-links`,
    ]);
    expect(host.seen).toEqual([]);
    expect(seen).toEqual([]);
    expect(readFileSync(join(out, 'transactional/welcome/draft.lmx'), 'utf8')).toContain(`<Image src="http://127.0.0.1:${host.port}/secret.png"`);

    const allowed = await run(
      ['content', 'convert', join(root, 'welcome.html'), '--out', join(tempDir('loopsctl-convert-out-'), 'loops'), '--upload', '--allow-private-links'],
      {
        env,
      },
    );
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(host.seen.length).toBeGreaterThan(0);
  });

  it('refuses them to an agent: the MCP tool takes no --allow-private-links', async () => {
    const host = await internalHost();
    const root = emailOf(host.port);
    const mcp: McpRun = await startMcp(['--sandbox', '--allow-writes', '--root', root], { env: { LOOPSCTL_CONFIG_DIR: tempDir() } });
    closers.push(async () => {
      await mcp.close();
    });
    const { tools } = await mcp.client.listTools();
    const convert = tools.find((tool) => tool.name === 'content_convert')!;
    expect(Object.keys(convert.inputSchema.properties ?? {})).toContain('upload');
    expect(Object.keys(convert.inputSchema.properties ?? {})).not.toContain('allowPrivateLinks');
    type Answer = { isError?: boolean; structuredContent?: { records?: { remediation: { construct: string; done: string }[] }[] } };
    const asked = (await mcp.client.callTool({
      name: 'content_convert',
      arguments: { source: 'welcome.html', out: 'loops', upload: true, allowPrivateLinks: true },
    })) as Answer;
    expect(asked.isError).toBe(true);
    const converted = (await mcp.client.callTool({ name: 'content_convert', arguments: { source: 'welcome.html', out: 'loops', upload: true } })) as Answer;
    const listed = converted.structuredContent?.records?.[0]?.remediation.filter((item) => item.construct.startsWith('--upload')) ?? [];
    expect(listed.map((item) => item.done)).toEqual(addresses(host.port).map(() => expect.stringContaining('; not fetched without --allow-private-links')));
    expect(host.seen).toEqual([]);
  });
});
