import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiServer, json, startApiServer } from '../support/api-server.js';
import { startFixtureSandbox } from '../support/fixture-sandbox.js';
import { theme as fxTheme } from '../support/fixtures.js';
import { run } from '../support/main.js';
import { runCli } from '../support/run-cli.js';
import { tempDir } from '../support/temp.js';

let api: ApiServer;
const dir = tempDir('loopsctl-features-');
const file = (name: string, content: string) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

const IPS = ['192.0.2.10', '2001:DB8::10'];

beforeAll(async () => {
  api = await startApiServer({
    'GET /v1/dedicated-sending-ips': (_req, res) => json(res, 200, IPS),
    'GET /v1/workflows/wf1': (_req, res) =>
      json(res, 200, {
        id: 'wf1',
        name: 'Welcome',
        rootNodeId: 't',
        nodes: {
          t: { typeName: 'SignupTrigger', nextNodeIds: ['s'] },
          s: { typeName: 'SendEmailAction', nextNodeIds: ['gone'], subject: 'Say "hi"' },
        },
      }),
  });
});

afterAll(() => api.close());

const cli = (args: string[], options: { input?: string; env?: Record<string, string> } = {}) =>
  runCli([...args, '--base-url', api.url], { input: options.input, env: { LOOPS_API_KEY: 'test-key', ...options.env } });

describe('ips check', () => {
  it('exits 0 when the file lists exactly the API addresses', async () => {
    const result = await cli(['ips', 'check', file('in-sync.txt', '# firewall\n2001:db8:0::10/128  # v6\n\n192.0.2.10\n')]);
    expect(result).toMatchObject({ code: 0, stdout: 'in sync: the file lists exactly the dedicated sending IPs\n', stderr: '' });
  });

  it('exits 1 with + and - lines when the list drifted', async () => {
    const result = await cli(['ips', 'check', file('drift.txt', '192.0.2.10\n198.51.100.0/24\n')]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('+ 2001:db8::10\n- 198.51.100.0/24\n');
    expect(result.stderr).toMatch(/^Error: .*drift\.txt is out of step with the API: 1 to add, 1 to remove\nHint: /);
  });

  it('says to edit the marked lines, as rewriting the file would drop its comments, and quotes its path for the shell', async () => {
    const kept = file('kept list.txt', '# office firewall\n192.0.2.10\n198.51.100.0/24 # old range\n');
    const result = await cli(['ips', 'check', kept]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `Hint: add the addresses marked + and remove the entries marked -; or, for a file without comments or ranges, write it anew with \`loopsctl ips list --plain > '${kept}'\`\n`,
    );
  });

  it('prints {inSync, added, removed} with --json, in sync or not', async () => {
    const drifted = await cli(['ips', 'check', join(dir, 'drift.txt'), '--json']);
    expect(drifted.code).toBe(1);
    expect(JSON.parse(drifted.stdout)).toEqual({ inSync: false, added: ['2001:db8::10'], removed: ['198.51.100.0/24'] });
    expect(JSON.parse(drifted.stderr).error).toMatchObject({
      code: 'mismatch',
      exitCode: 1,
      message: `${join(dir, 'drift.txt')} is out of step with the API: 1 to add, 1 to remove`,
    });
    const inSync = await cli(['ips', 'check', join(dir, 'in-sync.txt'), '--json']);
    expect(inSync.code).toBe(0);
    expect(JSON.parse(inSync.stdout)).toEqual({ inSync: true, added: [], removed: [] });
  });

  it('is a usage error, before any request, for a malformed line or a missing file', async () => {
    const before = api.requests.length;
    const bad = await cli(['ips', 'check', file('bad.txt', '192.0.2.10\n\n10.0.0.300 # typo\n')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`Error: ${join(dir, 'bad.txt')}:3: "10.0.0.300" is not an IP address or CIDR range`);
    const missing = await cli(['ips', 'check', join(dir, 'nope.txt')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file');
    expect(api.requests.length).toBe(before);
  });

  it('lists addresses as host CIDRs with --cidr, leaving --json as the API sent it', async () => {
    expect((await cli(['ips', 'list', '--plain', '--cidr'])).stdout).toBe('192.0.2.10/32\n2001:db8::10/128\n');
    expect((await cli(['ips', 'list', '--cidr'])).stdout).toBe('ADDRESS\tVERSION\n192.0.2.10/32\tIPv4\n2001:db8::10/128\tIPv6\n');
    expect(JSON.parse((await cli(['ips', 'list', '--cidr', '--json'])).stdout)).toEqual(IPS);
  });
});

describe('workflow show --format', () => {
  it('draws Mermaid', async () => {
    const result = await cli(['workflow', 'show', 'wf1', '--format', 'mermaid']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe(`flowchart TD
  %% workflow wf1: Welcome
  %% n0 = t
  n0(["SignupTrigger"])
  %% n1 = s
  n1["SendEmailAction<br/>#quot;Say #quot;hi#quot;#quot;"]
  m0["✗ gone<br/>missing node"]:::missing
  n0 --> n1
  n1 --> m0
  classDef missing stroke:#c00,stroke-dasharray:4 3,color:#c00
`);
  });

  it('draws DOT', async () => {
    const result = await cli(['workflow', 'show', 'wf1', '--format', 'dot']);
    expect(result.stdout).toBe(`digraph "wf1" {
  label="Welcome";
  labelloc=t;
  node [shape=box, style=rounded];
  n0 [label="SignupTrigger", tooltip="t", shape=oval];
  n1 [label="SendEmailAction\\n\\"Say \\"hi\\"\\"", tooltip="s"];
  m0 [label="✗ gone\\nmissing node", tooltip="gone", style=dashed, color=red, fontcolor=red];
  n0 -> n1;
  n1 -> m0;
}
`);
  });

  it('refuses an unknown format, and a diagram with --json', async () => {
    const unknown = await cli(['workflow', 'show', 'wf1', '--format', 'svg']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Allowed choices are tree, mermaid, dot');
    const both = await cli(['workflow', 'show', 'wf1', '--format', 'mermaid', '--json']);
    expect(both.code).toBe(2);
    expect(JSON.parse(both.stderr).error.message).toBe('--format and --json cannot be used together');
    const node = await cli(['workflow', 'show', 'wf1', '--format', 'dot', '--node', 'n1']);
    expect(node.stderr).toContain('--format and --node cannot be used together');
  });
});

describe('themes get (show)', () => {
  it('gets one theme by id, grouped as in the editor, exactly as returned under --json', async () => {
    const sandbox = await startFixtureSandbox();
    try {
      const env = { LOOPS_API_KEY: 'sandbox-key', LOOPS_BASE_URL: sandbox.url };
      const result = await run(['themes', 'show', 'theme_3'], { env: { ...env, NO_COLOR: '1' }, tty: { columns: 100 } });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('Theme 3\nid theme_3 · updated 2025-06-29T07:47:39.370Z\n');
      expect(result.stdout).toMatch(/\nHeading 3 +heading3Color +#111827\n/);
      expect(sandbox.requests.map((request) => request.path)).toEqual(['/v1/themes/theme_3']);
      const asJson = await runCli(['themes', 'get', 'theme_3', '--json'], { env });
      expect(JSON.parse(asJson.stdout)).toEqual(fxTheme(3));
      const missing = await runCli(['themes', 'get', 'nope'], { env });
      expect(missing.code).toBe(4);
      expect(missing.stderr).toContain('Hint: see the ids with `loopsctl themes list`\n');
    } finally {
      await sandbox.close();
    }
  });
});

describe('webhooks', () => {
  const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

  it('stops reading a body past its limit instead of filling memory', async () => {
    const result = await runCli(['webhooks', 'sign', '--secret', SECRET, '--body-file', '/dev/zero']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('larger than 67108864 bytes');
  });
  const BODY = '{"test": 2432232314}';
  const vector = ['--id', 'msg_p5jXN8AQM9LWM0D4loKWxJek', '--timestamp', '1614265330'];
  const SIGNATURE = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';
  const env = { LOOPS_WEBHOOK_SECRET: SECRET };

  it('accepts the published vector from stdin', async () => {
    const result = await runCli(['webhooks', 'verify', ...vector, '--signature', SIGNATURE, '--tolerance', '0'], { input: BODY, env });
    expect(result).toMatchObject({ code: 0, stdout: 'valid signature\n', stderr: '' });
  });

  it('reads the body byte for byte from --body-file', async () => {
    const args = ['webhooks', 'verify', ...vector, '--signature', SIGNATURE, '--tolerance', '0', '--json'];
    expect(JSON.parse((await runCli([...args, '--body-file', file('body.json', BODY)], { env })).stdout)).toEqual({ valid: true });
    const withNewline = await runCli([...args, '--body-file', file('body-nl.json', `${BODY}\n`)], { env });
    expect(withNewline.code).toBe(1);
    expect(JSON.parse(withNewline.stderr).error.message).toBe('invalid signature: no signature matches the body, id and timestamp');
    expect(JSON.parse(withNewline.stdout)).toEqual({ valid: false, problem: 'signature', reason: 'no signature matches the body, id and timestamp' });
  });

  it('exits 1 saying how old a stale timestamp is, not that the signature is invalid, without printing the secret', async () => {
    const twoDaysLater = () => new Date((1614265330 + 2 * 86_400) * 1000);
    const result = await run(['webhooks', 'verify', ...vector, '--signature', SIGNATURE], { input: BODY, env, now: twoDaysLater });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Error: too old \(2 days\): the timestamp is outside the tolerance of 300 s\nHint: .*--tolerance 0/);
    expect(result.stderr).not.toContain('invalid signature');
    expect(result.stdout + result.stderr).not.toContain(SECRET.slice(6));
    const json = await run(['webhooks', 'verify', ...vector, '--signature', SIGNATURE, '--json'], { input: BODY, env, now: twoDaysLater });
    expect(json.json()).toEqual({ valid: false, problem: 'timestamp', reason: 'too old (2 days): the timestamp is outside the tolerance of 300 s' });
  });

  it('calls a tampered body an invalid signature', async () => {
    const result = await runCli(['webhooks', 'verify', ...vector, '--signature', SIGNATURE, '--tolerance', '0'], { input: `${BODY} `, env });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('Error: invalid signature: no signature matches the body, id and timestamp\n');
  });

  it('is a usage error without a secret or with a malformed one', async () => {
    const none = await runCli(['webhooks', 'verify', ...vector, '--signature', SIGNATURE], { input: BODY });
    expect(none.code).toBe(2);
    expect(none.stderr).toBe('Error: no webhook secret\nHint: set LOOPS_WEBHOOK_SECRET (or pass --secret)\n');
    const bad = await runCli(['webhooks', 'verify', ...vector, '--signature', SIGNATURE, '--secret', 'whsec_!!'], { input: BODY });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Error: the webhook secret is not a whsec_ secret followed by base64\n');
    expect(bad.stderr).not.toContain('whsec_!!');
  });

  it('signs a body with the given id and timestamp, or fresh ones', async () => {
    const fixed = await runCli(['webhooks', 'sign', ...vector], { input: BODY, env });
    expect(fixed.stdout).toBe(`webhook-id: msg_p5jXN8AQM9LWM0D4loKWxJek\nwebhook-timestamp: 1614265330\nwebhook-signature: ${SIGNATURE}\n`);
    const fresh = JSON.parse((await runCli(['webhooks', 'sign', '--json', '--secret', SECRET], { input: BODY })).stdout);
    expect(fresh['webhook-id']).toMatch(/^msg_/);
    expect(Math.abs(Number(fresh['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(600);
    const roundTrip = await runCli(
      ['webhooks', 'verify', '--id', fresh['webhook-id'], '--timestamp', fresh['webhook-timestamp'], '--signature', fresh['webhook-signature']],
      { input: BODY, env },
    );
    expect(roundTrip.code).toBe(0);
  });
});
