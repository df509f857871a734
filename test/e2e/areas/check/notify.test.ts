import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ApiServer, json, startApiServer } from '../../../support/api-server.js';
import { tempDir } from '../../../support/main.js';
import { sandboxEachTest } from '../../../support/recording.js';

interface Message {
  text: string;
  blocks: { type: string; text?: { type: string; text: string }; elements?: { type: string; text: string }[] }[];
}

const texts = (message: Message) => message.blocks.map((block) => block.text?.text ?? block.elements?.map((element) => element.text).join(' ') ?? '');

describe('check --format slack and --notify', () => {
  const openSandbox = sandboxEachTest();
  let webhook: ApiServer | undefined;
  afterEach(async () => {
    await webhook?.close();
    webhook = undefined;
  });

  it('prints the report as a Slack message: a header, then a section per severity', async () => {
    const sandbox = await openSandbox();
    const result = await sandbox.loopsctl(['check', '--format', 'slack']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const message = JSON.parse(result.stdout) as Message;
    expect(message.blocks[0]).toEqual({ type: 'header', text: { type: 'plain_text', text: 'loopsctl check' } });
    const sections = texts(message).slice(2);
    // A long severity goes on in the sections after its heading.
    expect(sections.map((text) => text.split('\n')[0]).filter((line) => line!.startsWith('*'))).toEqual(['*Warnings (19)*', '*Notes (28)*']);
    const warnings = sections.slice(0, -1).join('\n');
    expect(warnings).toContain('• workflow <https://app.loops.so/workflows/');
    expect(warnings).toContain('|"Upgrade thank-you">');
    expect(texts(message)[1]).toMatch(/^0 errors, 19 warnings, 28 notes; \d+ records read, \d+ emails checked\.$/);
  });

  it('posts what changed since the snapshot to the webhook, without the API key, and nothing when nothing changed', async () => {
    const sandbox = await openSandbox();
    webhook = await startApiServer();
    webhook.route('POST /services/T1/B1/token', (_req, res) => json(res, 200, 'ok'));
    const url = `${webhook.url}/services/T1/B1/token`;
    const snapshot = join(tempDir(), 'loops-check.json');
    const first = await sandbox.loopsctl(['check', '--only', 'wiring', '--snapshot', snapshot, '--notify', url]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(webhook.requests).toHaveLength(1);
    const [post] = webhook.requests;
    expect(post!.headers['content-type']).toBe('application/json');
    expect(post!.headers.authorization).toBeUndefined();
    expect(post!.body).not.toContain('sandbox-key');
    const message = JSON.parse(post!.body) as Message;
    expect(message.blocks[0]!.text!.text).toMatch(/^loopsctl check: \d+ new problems, 0 resolved$/);
    expect(texts(message).join('\n')).toContain('"Win-back (draft)"');
    // Every text in mrkdwn is verbatim: Slack links no address and parses no mention a record's name holds.
    const mrkdwn = message.blocks.flatMap((block) => [block.text, ...(block.elements ?? [])]).filter((text) => text?.type === 'mrkdwn');
    expect(mrkdwn.length).toBeGreaterThan(0);
    expect(mrkdwn.every((text) => (text as { verbatim?: boolean }).verbatim === true)).toBe(true);
    expect(JSON.parse(readFileSync(snapshot, 'utf8')).problems.length).toBeGreaterThan(0);

    const second = await sandbox.loopsctl(['check', '--only', 'wiring', '--snapshot', snapshot, '--notify', url]);
    expect([second.code, second.stderr]).toEqual([0, '']);
    expect(webhook.requests).toHaveLength(1);

    // A problem fixed in the account is posted as resolved, and only it.
    sandbox.server.update((state) => {
      const lists = state.mailingLists as { name: string }[];
      lists.splice(
        lists.findIndex((list) => list.name === 'Event invitations'),
        1,
      );
    });
    const third = await sandbox.loopsctl(['check', '--only', 'wiring', '--snapshot', snapshot, '--notify', url]);
    expect([third.code, third.stderr]).toEqual([0, '']);
    expect(webhook.requests).toHaveLength(2);
    const resolved = JSON.parse(webhook.requests[1]!.body) as Message;
    expect(resolved.blocks[0]!.text!.text).toBe('loopsctl check: 0 new problems, 1 resolved');
    expect(texts(resolved)[2]).toBe(
      '*Resolved (1)*\n• list <https://app.loops.so/settings?page=lists|"Event invitations"> no workflow or campaign uses this mailing list `unused-mailing-list`',
    );
  });

  it('refuses a webhook that is not https, and makes a refused post an error that keeps the snapshot', async () => {
    const sandbox = await openSandbox();
    const plain = await sandbox.loopsctl(['check', '--notify', 'http://hooks.example/services/x']);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain('--notify must be an https URL (plain http only to 127.0.0.1, ::1 or localhost), not the value given');
    expect(plain.stderr).not.toContain('services/x');
    const garbled = await sandbox.loopsctl(['check', '--notify', 'hooks.slack.com/services/x']);
    expect([garbled.code, garbled.stderr]).toEqual([2, expect.stringContaining('--notify must be an https URL (a Slack incoming webhook)')]);
    webhook = await startApiServer();
    webhook.route('POST /services/T1/B1/secret-token', (_req, res) => json(res, 404, 'no_service'));
    const snapshot = join(tempDir(), 'loops-check.json');
    const refused = await sandbox.loopsctl(['check', '--only', 'wiring', '--snapshot', snapshot, '--notify', `${webhook.url}/services/T1/B1/secret-token`]);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain(`POST ${webhook.url}/…: the webhook refused it (HTTP 404`);
    expect(refused.stderr).not.toContain('secret-token');
    expect(() => readFileSync(snapshot)).toThrow();
  });
});
