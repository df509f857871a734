import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { JqFilter, type ResultSink } from '../../../src/render/jq.js';
import { type ApiServer, json, raw, startApiServer } from '../../support/api-server.js';
import { run, tempDir } from '../../support/main.js';
import { runCli } from '../../support/run-cli.js';

let server: ApiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const sandbox = (args: string[], options: Parameters<typeof run>[1] = {}) => run(['--sandbox', ...args], options);

describe('--jq', () => {
  it('prints strings raw, one per line, as gh --jq does', async () => {
    const all = (await sandbox(['themes', 'list', '--json'])).json<{ name: string }[]>();
    const result = await sandbox(['themes', 'list', '--jq', '.[].name']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(all.map((theme) => `${theme.name}\n`).join(''));
  });

  it('prints other values as compact JSON, numbers as written', async () => {
    server = await startApiServer({ 'GET /v1/x': (_req, res) => raw(res, 200, 'application/json', '{"a":{"b":[1.0,2]},"big":12345678901234567890}') });
    const env = { LOOPS_API_KEY: 'test-key', LOOPS_BASE_URL: server.url };
    expect((await run(['api', 'x', '--jq', '.a, .big, (.a.b | length), null'], { env })).stdout).toBe('{"b":[1.0,2]}\n12345678901234567890\n2\nnull\n');
  });

  it('reads an integer past 2^53 in a checked answer as the number the API sent', async () => {
    const body =
      '{"id":"t1","name":"Big","styles":{},"isDefault":false,"createdAt":"2024-01-01T00:00:00Z","updatedAt":"2024-01-01T00:00:00Z","big":12345678901234567890}';
    server = await startApiServer({ 'GET /v1/themes/:id': (_req, res) => raw(res, 200, 'application/json', body) });
    const env = { LOOPS_API_KEY: 'test-key', LOOPS_BASE_URL: server.url };
    expect((await run(['themes', 'get', 't1', '--jq', '.big, (.big | type)'], { env })).stdout).toBe('12345678901234567890\nnumber\n');
  });

  it('is the real jq language: functions, variables, reduce, string interpolation', async () => {
    const result = await sandbox([
      'themes',
      'list',
      '--jq',
      'def short: .[0:3]; map(select(.isDefault | not)) | length as $n | (reduce .[] as $t (0; . + 1)) == $n, "\\(.[0].name | short)!"',
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^true\n.{1,3}!\n$/);
  });

  it('runs under a memory limit below the least heap a thread starts in, which bounds what jq grows', async () => {
    const env = { LOOPSCTL_JQ_MEMORY_MB: '1' };
    const all = (await sandbox(['themes', 'list', '--json'])).json<unknown[]>();
    expect((await sandbox(['themes', 'list', '--jq', '[.[].name] | length'], { env })).stdout).toBe(`${all.length}\n`);
    const grown = await sandbox(['themes', 'list', '--jq', '[range(4000000)] | length'], { env });
    expect(grown.code).toBe(2);
    expect(grown.stderr).toContain('was stopped: it used more than 1 MB of memory');
  });

  it('applies to each item with --jsonl', async () => {
    const all = (await sandbox(['themes', 'list', '--json'])).json<{ id: string; isDefault: boolean }[]>();
    const result = await sandbox(['themes', 'list', '--jsonl', '--jq', 'select(.isDefault) | {id}']);
    expect(result.stdout).toBe(
      all
        .filter((theme) => theme.isDefault)
        .map((theme) => `{"id":"${theme.id}"}\n`)
        .join(''),
    );
  });

  it('filters a command that prints one record, and errors stay JSON on stderr', async () => {
    const config = { LOOPSCTL_CONFIG_DIR: tempDir() };
    const ips = await sandbox(['ips', 'list', '--jq', 'length'], { env: config });
    expect(ips.stdout).toMatch(/^\d+\n$/);
    const missing = await sandbox(['themes', 'get', 'cnonexistent0000000000000', '--jq', '.name'], { env: config });
    expect(missing.code).toBe(4);
    expect(JSON.parse(missing.stderr).error).toMatchObject({ code: 'not_found', message: 'theme cnonexistent0000000000000 not found' });
  });

  it("refuses an invalid expression with jq's message before any request", async () => {
    server = await startApiServer();
    const result = await run(['themes', 'list', '--jq', '.[] | {name'], { env: { LOOPS_API_KEY: 'test-key', LOOPS_BASE_URL: server.url } });
    expect(result.code).toBe(2);
    const { error } = JSON.parse(result.stderr);
    expect(error.code).toBe('jq');
    expect(error.message).toMatch(/^invalid --jq expression: syntax error/);
    expect(server.requests).toHaveLength(0);
  });

  it("reports an expression that fails on the data, with jq's message", async () => {
    const result = await sandbox(['themes', 'list', '--jq', '.[0].name | .[0]']);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stderr).error.message).toBe('the --jq expression failed on the output: Cannot index string with number');
  });

  it('indents and colours values on a terminal, and escapes control characters in raw strings', async () => {
    server = await startApiServer({ 'GET /v1/x': (_req, res) => json(res, 200, { name: 'bell\u0007 and \u001b[31mred', n: 1 }) });
    const env = { LOOPS_API_KEY: 'test-key', LOOPS_BASE_URL: server.url, FORCE_COLOR: '1' };
    const result = await run(['api', 'x', '--jq', '.name, {n}'], { env, tty: { columns: 80 } });
    expect(result.stdout.split('\n')[0]).toBe('bell\\x07 and \\x1b[31mred');
    // eslint-disable-next-line no-control-regex
    expect(result.stdout.replace(/\u001b\[[0-9;]*m/g, '')).toContain('{\n  "n": 1\n}\n');
    expect(result.stdout).toContain('\u001b[');
  });

  it('works in the built bundle, which finds jq.wasm beside its vendored jq', async () => {
    const result = await runCli(['--sandbox', 'themes', 'list', '--jq', 'map(select(.isDefault)) | length']);
    expect(result).toMatchObject({ code: 0, stdout: '1\n', stderr: '' });
    const invalid = await runCli(['--sandbox', 'themes', 'list', '--jq', '.[']);
    expect(invalid.code).toBe(2);
    expect(JSON.parse(invalid.stderr).error.message).toBe(
      'invalid --jq expression: syntax error, unexpected end of file (Unix shell quoting issues?) at <top-level>, line 1',
    );
  });

  it('leaves text output alone when no expression is given', async () => {
    const result = await sandbox(['themes', 'list']);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(/^\[/);
  });
});

describe('--jq with a plain path', () => {
  /** Each expression's filter, made once: making one runs jq to check the expression. */
  const filters = new Map<string, Promise<JqFilter>>();
  const filter = (expression: string) => {
    if (!filters.has(expression)) filters.set(expression, JqFilter.compile(expression, { signal: new AbortController().signal, message: () => undefined }));
    return filters.get(expression)!;
  };
  const outcome = async (expression: string, text: string) => {
    const printed: string[] = [];
    const sink: ResultSink = async (results) => void printed.push(...results);
    try {
      await (await filter(expression)).results(text, sink);
      return { printed };
    } catch (error) {
      return { printed, error: (error as Error).message.replace(expression, '<expression>') };
    }
  };

  const paths = ['.', '.a', '.name', '.a.name', '.[]', '.[0]', '.[1]', '.[].name', '.a[]', '.a[0].b', '.[][]', '.[0].a.name', '.b[].name', '.a.b.a'];
  // Strings most often, so that many paths find only strings and are answered without jq.
  const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { arbitrary: fc.string(), weight: 4 },
      fc.constant(null),
      fc.boolean(),
      fc.constantFrom(0, 1.5, 1e21, -2),
      { arbitrary: fc.array(tie('value'), { maxLength: 3 }), weight: 2 },
      { arbitrary: fc.dictionary(fc.constantFrom('a', 'b', 'name', '2', '10'), tie('value'), { maxKeys: 3 }), weight: 2 },
    ),
  })).value;

  it('answers exactly as jq does, strings by itself and anything else through jq', async () => {
    // JSON as the API writes it: keys in any order (JavaScript would put "2" before "b"), any number.
    const text = fc.oneof(
      { arbitrary: value.map((made) => JSON.stringify(made)), weight: 9 },
      fc.constantFrom('{"b":"x","2":"y"}', '[{"b":"x","10":"y","a":"z"}]', 'not JSON'),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), text, async (path, input) => {
        // In parentheses, the same expression is not a plain path: jq itself answers it.
        expect(await outcome(path, input)).toEqual(await outcome(`(${path})`, input));
      }),
      {
        numRuns: 200,
        // And the cases each reason to leave a path to jq is for, besides the random ones.
        examples: [
          ['.[]', '{"b":"x","2":"y"}'],
          ['.[].name', '[{"name":"a"},{}]'],
          ['.a', '{"a":12345678901234567890}'],
          ['.a.name', '{"a":"text"}'],
          ['.[0]', '{"0":"x"}'],
          ['.a[]', '{"a":null}'],
          ['.[1]', '["only"]'],
          ['.a', 'not JSON'],
        ],
      },
    );
  });
});
