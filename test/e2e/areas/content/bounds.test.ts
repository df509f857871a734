/**
 * Bounded work on any input, on every path that reads LMX: `content render`, `content check` and
 * the MCP tool `content_render` read no more than the API's 100 KB of an LMX file, and an email's
 * components cannot make its HTML without end.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LMX_MAX_BYTES } from '../../../../src/lmx/index.js';
import { type ApiServer, json, startApiServer } from '../../../support/api-server.js';
import { contentTree } from '../../../support/content-tree.js';
import { run, tempDir } from '../../../support/main.js';
import { type McpRun, startMcp } from '../../../support/mcp.js';

const offline = { LOOPS_API_KEY: undefined };
const EMAIL = 'transactional/welcome--cx1/draft.lmx';
const BIG = 'components/big--cmp_big/component.lmx';

/** Nearly 100 KB of paragraphs: about 1 MB of HTML each time it is drawn. */
const bigComponent = '<Paragraph>x</Paragraph>\n'.repeat(Math.floor(LMX_MAX_BYTES / 25));
/** Over the limit by a little, with non-ASCII text, whose bytes are what count. */
const overLimit = `<Paragraph>${'é'.repeat(LMX_MAX_BYTES / 2)}</Paragraph>\n`;

const tree = (email: string, component = bigComponent) =>
  contentTree({
    'transactional/welcome--cx1/transactional.json': '{"name":"Welcome"}\n',
    [EMAIL]: email,
    'components/big--cmp_big/component.json': '{"name":"Big"}\n',
    [BIG]: component,
  });

const embeds = (count: number) => '<Component componentId="cmp_big" />\n'.repeat(count);

const running: McpRun[] = [];
afterEach(async () => {
  for (const mcp of running.splice(0)) await mcp.close();
});

describe('content render', () => {
  it('stops an email whose components would draw more than 16 MB of HTML with a usage error, not a crash', async () => {
    // 40 embeds make about 40 MB; the 3,500 that fit in 100 KB would make gigabytes.
    const root = tree(embeds(40));
    const result = await run(['content', 'render', join(root, EMAIL)], { env: offline });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/components draw more than 16 MB of HTML/);
    expect(result.stderr).toMatch(/embed fewer components, or smaller ones/);
    expect(result.stderr).not.toMatch(/bug/i);
  });

  it('draws an email that embeds a large component a few times', async () => {
    const root = tree(embeds(3));
    const result = await run(['content', 'render', join(root, EMAIL)], { env: offline });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.match(/<p /g)!.length).toBeGreaterThan(3 * 4000);
  });

  it('refuses an email file over 100 KB counted in bytes, and leaves out a component file over it, unread', async () => {
    const refused = await run(['content', 'render', join(tree(overLimit), EMAIL)], { env: offline });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`larger than ${LMX_MAX_BYTES} bytes (100 KB)`);
    const root = tree(embeds(1), overLimit);
    const drawn = await run(['content', 'render', join(root, EMAIL)], { env: offline });
    expect(drawn.code, drawn.stderr).toBe(0);
    expect(drawn.stdout).not.toContain('éé');
    expect(drawn.stderr).toContain('Component cmp_big is not in the tree');
  });
});

describe('content render with a component from the account', () => {
  let server: ApiServer | undefined;
  afterEach(() => server?.close());

  it('refuses a component the account answers with over 100 KB of LMX, unparsed', async () => {
    server = await startApiServer({
      'GET /v1/components/:id': (_req, res) => json(res, 200, { id: 'cmp_far', name: 'Far', lmx: overLimit }),
    });
    const file = join(tempDir(), 'email.lmx');
    writeFileSync(file, '<Component componentId="cmp_far" />\n');
    const result = await run(['content', 'render', file], { env: { LOOPS_API_KEY: 'test-key-not-real', LOOPS_BASE_URL: server.url } });
    expect(result.code).toBe(9);
    expect(result.stderr).toContain(`the account's component cmp_far: ${LMX_MAX_BYTES + 24} bytes of LMX; the API takes at most ${LMX_MAX_BYTES}`);
    expect(result.stdout).toBe('');
  });
});

describe('content check', () => {
  it('reports a component file over 100 KB, counted in bytes, as too large', async () => {
    const root = tree(embeds(1), overLimit);
    const result = await run(['content', 'check', join(root, BIG), '--json'], { env: offline });
    expect(result.code).toBe(1);
    const [check] = result.json<{ errors: { rule: string; message: string }[] }[]>();
    expect(check!.errors).toEqual([expect.objectContaining({ rule: 'too-large', message: expect.stringMatching(/^102\d\d\d bytes of LMX/) })]);
  });
});

describe('content check of a long line', () => {
  it('shows a window of the line under each problem, not the whole line each time', async () => {
    // 20 KB on one line, with a problem every 6 bytes: the whole line under each would be 70 MB.
    const file = join(tempDir(), 'long.lmx');
    writeFileSync(file, `<Paragraph>${'a & b '.repeat(3500)}</Paragraph>\n`);
    const result = await run(['content', 'check', file], { env: offline });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/3500 errors/);
    const problems = result.stdout.match(/ unescaped-amp /g)!.length;
    expect(problems).toBe(3500);
    // Each problem's where names the file, as long as the temporary directory is deep: the window is what is bounded.
    expect(result.stdout.length).toBeLessThan(problems * (400 + file.length));
    // Each problem is four lines: where, the line, the caret, the fix; one from the middle of the line.
    const [, shown, caret] = result.stdout.split('\n').slice(4 * 1000, 4 * 1001);
    expect(shown).toMatch(/^1 \| …[ab& ]{60,}…$/);
    // The caret stands under the & the problem is about.
    expect(shown![caret!.indexOf('^')]).toBe('&');
  });
});

describe('the MCP tool content_render', () => {
  it('answers an email whose components would draw too much with an error of exit code 2', async () => {
    const root = tempDir();
    const loops = tree(embeds(40));
    const mcp = await startMcp(['--sandbox', '--root', join(loops, '..')], { env: { LOOPSCTL_CONFIG_DIR: root } });
    running.push(mcp);
    const answer = (await mcp.client.callTool({ name: 'content_render', arguments: { file: join('loops', EMAIL) } })) as {
      isError?: boolean;
      structuredContent?: { error?: { exitCode: number; message: string } };
    };
    expect(answer.isError).toBe(true);
    expect(answer.structuredContent?.error).toMatchObject({ exitCode: 2, message: expect.stringMatching(/components draw more than 16 MB/) });
  });
});
