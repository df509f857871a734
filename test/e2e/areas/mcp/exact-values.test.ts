/**
 * A tool's answer is the value its command produced, not its printed JSON read back: an integer
 * the API sent past 2^53 reaches the client as the digits the API sent, in structuredContent as in
 * the text, for a client that reads JSON losslessly (the SDK's own client rounds it, so the test
 * reads the server's stdout itself).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseJsonKeepingIntegers } from '../../../../src/api/json-scan.js';
import { type ApiServer, json, raw, startApiServer } from '../../../support/api-server.js';
import { type McpRun, startMcp } from '../../../support/mcp.js';

const BIG = '12345678901234567890';
const THEME = `{"id":"t1","name":"Big","styles":{},"isDefault":false,"createdAt":"2024-01-01T00:00:00Z","updatedAt":"2024-01-01T00:00:00Z","big":${BIG}}`;

let api: ApiServer | undefined;
let mcp: McpRun | undefined;
afterEach(async () => {
  await mcp?.close();
  await api?.close();
  mcp = undefined;
  api = undefined;
});

/** The server's answers to tools/call, as the raw lines it wrote; the API server answers the one route given besides the team. */
async function serveWithRawAnswers(route: string, body: string): Promise<{ lines: () => string[] }> {
  api = await startApiServer({
    'GET /v1/api-key': (_req, res) => json(res, 200, { success: true, teamName: 'Acme' }),
    [route]: (_req, res) => raw(res, 200, 'application/json', body),
  });
  let stdout = '';
  mcp = await startMcp([], {
    env: { LOOPS_API_KEY: 'test-key', LOOPS_BASE_URL: api.url },
    onWrite: (stream, text) => void (stream === 'stdout' && (stdout += text)),
  });
  return { lines: () => stdout.split('\n').filter((line) => line.includes('"structuredContent"')) };
}

/** The structuredContent of a raw answer line, read as a lossless JSON reader reads it (an integer past 2^53 kept as its digits). */
function structuredOf(line: string): any {
  return (parseJsonKeepingIntegers(line) as { result: { structuredContent: unknown } }).result.structuredContent;
}
const EXACT = `\u0000int:${BIG}`;

describe('an integer past 2^53 in an answer', () => {
  it('reaches the client exact from a tool that reads one record', async () => {
    const server = await serveWithRawAnswers('GET /v1/themes/:id', THEME);
    const answer = (await mcp!.client.callTool({ name: 'themes_get', arguments: { id: 't1' } })) as { content: { text: string }[] };
    expect(answer.content[0]!.text).toContain(`"big": ${BIG}`);
    const [line] = server.lines();
    expect(structuredOf(line!).big).toBe(EXACT);
  });

  it('reaches the client exact from a list', async () => {
    const server = await serveWithRawAnswers(
      'GET /v1/themes',
      `{"pagination":{"totalResults":1,"returnedResults":1,"perPage":20,"totalPages":1,"nextCursor":null,"nextPage":null},"data":[${THEME}]}`,
    );
    const answer = (await mcp!.client.callTool({ name: 'themes_list', arguments: {} })) as { content: { text: string }[] };
    expect(answer.content[0]!.text).toContain(`"big":${BIG}`);
    const [line] = server.lines();
    expect(structuredOf(line!).data[0].big).toBe(EXACT);
  });
});
