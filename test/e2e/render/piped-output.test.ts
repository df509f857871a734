/** What a pipe gets: colour when FORCE_COLOR asks for it, output that ends its line, and notes when there is nothing. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seedState } from '../../../src/emulator/state/index.js';
import { run, sandboxEnv, startTestSandbox } from '../../support/main.js';

const dir = mkdtempSync(join(tmpdir(), 'loopsctl-piped-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let runs = 0;
const sandboxed = (argv: string[], env: Record<string, string> = {}) =>
  run(['--sandbox', ...argv], { env: { LOOPSCTL_CONFIG_DIR: join(dir, `config-${++runs}`), ...env } });

// eslint-disable-next-line no-control-regex
const SGR = /\u001b\[[\d;]*m/g;
const BOLD = '\u001b[1m';

describe('FORCE_COLOR on a pipe', () => {
  it('colours a table, its shape still tab-separated rows', async () => {
    const plain = await sandboxed(['themes', 'list']);
    const forced = await sandboxed(['themes', 'list'], { FORCE_COLOR: '1' });
    expect(plain.stdout).not.toMatch(SGR);
    expect(forced.stdout.startsWith(`${BOLD}ID`)).toBe(true);
    expect(forced.stdout.replace(SGR, '')).toBe(plain.stdout);
  });

  it('colours JSON, a listing and a record alike, the text the same without its colour', async () => {
    for (const argv of [
      ['themes', 'list', '--json'],
      ['groups', 'get', 'ch24244rhcexl3uljp3k3bbr0', '--json'],
      ['api', '/v1/api-key'],
    ]) {
      const plain = await sandboxed(argv);
      const forced = await sandboxed(argv, { FORCE_COLOR: '1' });
      expect(plain.stdout, argv.join(' ')).not.toMatch(SGR);
      expect(forced.stdout, argv.join(' ')).toMatch(SGR);
      expect(JSON.parse(forced.stdout.replace(SGR, ''))).toEqual(JSON.parse(plain.stdout));
    }
  });

  it('stays off with NO_COLOR, and for --jsonl, which scripts read line by line', async () => {
    expect((await sandboxed(['themes', 'list'], { FORCE_COLOR: '1', NO_COLOR: '1' })).stdout).not.toMatch(SGR);
    expect((await sandboxed(['themes', 'list', '--jsonl'], { FORCE_COLOR: '1' })).stdout).not.toMatch(SGR);
  });
});

describe('loopsctl api', () => {
  it('ends what it prints with a newline', async () => {
    const { code, stdout } = await sandboxed(['api', '/v1/api-key']);
    expect(code).toBe(0);
    expect(stdout.endsWith('}\n')).toBe(true);
    expect(stdout.slice(0, -1)).not.toContain('\n');
  });
});

describe('ips list with no addresses', () => {
  it('says so on stderr, whether as a table or plain, leaving stdout empty', async () => {
    const server = await startTestSandbox({ initialState: (modules) => ({ ...seedState(modules), sendingIps: [] }) });
    try {
      const env = { LOOPSCTL_CONFIG_DIR: join(dir, `config-${++runs}`), ...sandboxEnv(server) };
      for (const argv of [
        ['ips', 'list'],
        ['ips', 'list', '--plain'],
      ]) {
        const { code, stdout, stderr } = await run(argv, { env });
        expect(code).toBe(0);
        expect(stdout).toBe('');
        expect(stderr).toBe('No dedicated sending IPs for this team (shared IP addresses are never listed).\n');
      }
      const json = await run(['ips', 'list', '--json'], { env });
      expect(json.stdout).toBe('[]\n');
      expect(json.stderr).toBe('');
    } finally {
      await server.close();
    }
  });
});

describe('piped records', () => {
  it.each([
    ['transactional', 'get', 'c1h3243uwicgpgajrgexlzdl5'],
    ['groups', 'get', 'ch24244rhcexl3uljp3k3bbr0'],
    ['themes', 'get', 'c7crwqxfh61mqrdbvo6y02ssz'],
    ['segments', 'get', 'cptd30ckudge29hdrg6m3yqwh'],
    ['campaigns', 'get', 'c5hihv2wbzma9bzs8kg5hvd41'],
    ['components', 'get', 'ccudhxkdl4bdrw5mbo1ctnkae'],
    ['event-patterns', 'get', 'csve7qwvdwdyt9d0ynxsqrby9'],
    ['email-messages', 'get', 'csfe4lcc5y1ptxuffld4qk8zj'],
    ['workflow', 'nodes', 'get', 'cmypp2eo4jy28v8rq0khsjwhq', 'cyx7gpg1pt2tj9p2cj5mf6bu6'],
  ])('all have one shape, field and value, nested values as JSON in one cell: %s %s', async (...argv) => {
    const [text, json] = await Promise.all([sandboxed(argv), sandboxed([...argv, '--json'])]);
    expect(text.code, text.stderr).toBe(0);
    const rows = text.stdout.trimEnd().split('\n');
    expect(rows[0]).toBe('FIELD\tVALUE');
    const record = json.json<Record<string, unknown>>();
    // Every field of the API's record, in its order, each value text as it is or else JSON.
    expect(rows.slice(1)).toEqual(
      Object.entries(record).map(([field, value]) => `${field}\t${typeof value === 'string' ? value.replace(/\n/g, '\\n') : JSON.stringify(value)}`),
    );
  });
});
