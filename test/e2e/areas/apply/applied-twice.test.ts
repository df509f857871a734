/**
 * A plan that creates records, applied from two copies of its file (another path, another CI job,
 * a fresh checkout without `<plan>.applied`): the second apply finds the record in the account by
 * its name just before the create, and stops there at a conflict, sending no create.
 *
 * Then undo: the refused apply changed nothing, so it keeps no before-image, and `loopsctl undo`
 * of the plan, of the id the first apply printed, and of the latest change (no change named) all
 * find the first apply's change, never "Nothing to undo". `loopsctl log` shows what the refused
 * run sent, if anything, as refused.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { imageIds, imagesDirectory } from '../../../../src/config/before-images.js';
import type { JournalEntry } from '../../../../src/config/change-journal-files.js';
import { seedId } from '../../../../src/emulator/module.js';
import { tempDir } from '../../../support/main.js';
import { type Recorded, type RecordingSandbox, sandboxEachTest } from '../../../support/recording.js';

const BILLING = seedId('transactional-group/Billing');
const directories: string[] = [];
afterAll(() => directories.forEach((directory) => rmSync(directory, { recursive: true, force: true })));
const sandboxes = sandboxEachTest();
const writes = (requests: Recorded[]) => requests.filter((request) => request.method !== 'GET');

/** The plan file, and a copy of it under another path, as another job or checkout would hold it. */
function copies(): { plan: string; copy: string; env: Record<string, string>; directory: string } {
  const directory = tempDir('loopsctl-applied-twice-');
  directories.push(directory);
  mkdirSync(join(directory, 'elsewhere'));
  return {
    directory,
    plan: join(directory, 'change.json'),
    copy: join(directory, 'elsewhere', 'change.json'),
    env: { LOOPSCTL_CONFIG_DIR: join(directory, 'config') },
  };
}

/** Applies the plan, then its copy: the first creates, the second finds the record and sends nothing. */
async function appliedFromBoth(sandbox: RecordingSandbox, files: ReturnType<typeof copies>, created: { path: string; says: string }) {
  copyFileSync(files.plan, files.copy);
  sandbox.requests.length = 0;
  const first = await sandbox.loopsctl(['apply', files.plan], { env: files.env });
  expect(first.code, first.stderr).toBe(0);
  expect(writes(sandbox.requests).map((request) => `${request.method} ${request.path}`)).toContain(`POST ${created.path}`);

  sandbox.requests.length = 0;
  const second = await sandbox.loopsctl(['apply', files.copy], { env: files.env });
  expect(second.code, second.stderr).toBe(5);
  expect(second.stdout).toContain(`the account holds ${created.says} already: applied before, or made meanwhile`);
  expect(second.stderr).toContain('stopped at a conflict, nothing after it was sent');
  expect(writes(sandbox.requests)).toEqual([]);
  // The copy's own record says so; the first copy's is untouched.
  expect(existsSync(`${files.copy}.applied`)).toBe(true);
}

describe('a plan that creates, applied from a second copy of its file', () => {
  const records = [
    {
      kind: 'components',
      folder: 'receipt-footer',
      files: { 'component.json': '{ "name": "Receipt footer" }\n', 'component.lmx': '<Paragraph>Thanks for your order.</Paragraph>\n' },
      path: '/v1/components',
      says: 'component "Receipt footer"',
    },
    {
      kind: 'themes',
      folder: 'winter',
      files: { 'theme.json': '{ "name": "Winter" }\n' },
      path: '/v1/themes',
      says: 'theme "Winter"',
    },
    {
      kind: 'transactional',
      folder: 'order-shipped',
      files: { 'transactional.json': '{ "name": "Order shipped" }\n', 'draft.lmx': '<Paragraph>Your order is on its way.</Paragraph>\n' },
      path: '/v1/transactional-emails',
      says: 'transactional email "Order shipped"',
    },
  ];
  for (const record of records) {
    it(`content push of a new ${record.kind} record: the second apply creates nothing`, async () => {
      const sandbox = await sandboxes();
      const files = copies();
      const root = join(files.directory, 'loops');
      const only = ['--only', record.kind];
      const pull = await sandbox.loopsctl(['content', 'pull', root, ...only], { env: files.env });
      expect(pull.code, pull.stderr).toBe(0);
      const folder = join(root, record.kind, record.folder);
      mkdirSync(folder);
      for (const [name, text] of Object.entries(record.files)) writeFileSync(join(folder, name), text);
      const made = await sandbox.loopsctl(['content', 'push', root, ...only, '--plan', '--out', files.plan], { env: files.env });
      expect(made.code, made.stderr).toBe(0);
      await appliedFromBoth(sandbox, files, record);
    });
  }

  const commands = [
    { args: ['groups', 'create', '--name', 'Receipts'], path: '/v1/transactional-groups', says: 'transactional group "Receipts"' },
    { args: ['campaign-groups', 'create', '--name', 'Launches'], path: '/v1/campaign-groups', says: 'campaign group "Launches"' },
    { args: ['segments', 'create', '--name', 'Pro', '--filter-file'], path: '/v1/audience-segments', says: 'segment "Pro"' },
  ];
  for (const command of commands) {
    it(`${command.args.slice(0, 2).join(' ')} --plan --out: the second apply creates nothing`, async () => {
      const sandbox = await sandboxes();
      const files = copies();
      const filter = join(files.directory, 'filter.json');
      writeFileSync(filter, '{"match":"all","conditions":[{"type":"property","key":"plan","operator":"equals","value":"pro"}]}');
      const args = command.args.at(-1) === '--filter-file' ? [...command.args, filter] : command.args;
      const made = await sandbox.loopsctl([...args, '--plan', '--out', files.plan], { env: files.env });
      expect(made.code, made.stderr).toBe(0);
      await appliedFromBoth(sandbox, files, command);
    });
  }

  it('copies of one plan applied at the same moment create the record once', async () => {
    const sandbox = await sandboxes();
    const files = copies();
    const made = await sandbox.loopsctl(['groups', 'create', '--name', 'Receipts', '--plan', '--out', files.plan], { env: files.env });
    expect(made.code, made.stderr).toBe(0);
    const more = [join(files.directory, 'elsewhere', 'third.json'), join(files.directory, 'elsewhere', 'fourth.json')];
    for (const file of [files.copy, ...more]) copyFileSync(files.plan, file);
    sandbox.requests.length = 0;
    const runs = await Promise.all([files.plan, files.copy, ...more].map((file) => sandbox.loopsctl(['apply', file], { env: files.env })));
    expect(writes(sandbox.requests).map((request) => `${request.method} ${request.path}`)).toEqual(['POST /v1/transactional-groups']);
    expect(runs.filter((run) => run.code === 0)).toHaveLength(1);
    for (const run of runs.filter((each) => each.code !== 0)) expect(run.stderr).toContain('(the same digest) is being applied by another loopsctl run');
  });

  it('a record of the name made in the account meanwhile stops the first apply too', async () => {
    const sandbox = await sandboxes();
    const files = copies();
    const made = await sandbox.loopsctl(['groups', 'create', '--name', 'Receipts', '--plan', '--out', files.plan], { env: files.env });
    expect(made.code, made.stderr).toBe(0);
    const meanwhile = await sandbox.loopsctl(['groups', 'create', '--name', 'Receipts'], { env: files.env });
    expect(meanwhile.code, meanwhile.stderr).toBe(0);
    sandbox.requests.length = 0;
    const apply = await sandbox.loopsctl(['apply', files.plan], { env: files.env });
    expect(apply.code).toBe(5);
    expect(apply.stderr).toContain('stopped at a conflict, nothing after it was sent');
    expect(apply.stdout).toContain('the account holds transactional group "Receipts" already: applied before, or made meanwhile');
    expect(writes(sandbox.requests)).toEqual([]);
  });
});

/** Applies the plan, then its copy, refused at a conflict; the id the first apply printed. */
async function appliedThenCopyRefused(sandbox: RecordingSandbox, made: ReturnType<typeof copies>): Promise<string> {
  copyFileSync(made.plan, made.copy);
  const first = await sandbox.loopsctl(['apply', made.plan], { env: made.env });
  expect(first.code, first.stderr).toBe(0);
  const id = /`loopsctl undo (\S+)` puts it back/.exec(first.stderr)![1]!;
  const second = await sandbox.loopsctl(['apply', made.copy], { env: made.env });
  expect(second.code, second.stderr).toBe(5);
  expect(second.stderr).toContain('stopped at a conflict, nothing after it was sent');
  expect(second.stderr).not.toContain('loopsctl undo');
  // The refused apply changed nothing, and keeps nothing to undo.
  expect(imageIds(made.env.LOOPSCTL_CONFIG_DIR!)).toEqual([id]);
  return id;
}

async function journal(sandbox: RecordingSandbox, made: ReturnType<typeof copies>): Promise<JournalEntry[]> {
  const log = await sandbox.loopsctl(['log', '--json'], { env: made.env });
  expect(log.code, log.stderr).toBe(0);
  return JSON.parse(log.stdout) as JournalEntry[];
}

/** The inverse plans `undo` writes for the plan file, for the id, and for the latest change: one and the same. */
async function inversesAgree(sandbox: RecordingSandbox, made: ReturnType<typeof copies>, id: string): Promise<unknown> {
  const units: unknown[] = [];
  for (const [name, change] of [
    ['by-plan', [made.plan]],
    ['by-id', [id]],
    ['latest', []],
  ] as const) {
    const out = join(made.directory, `undo-${name}.json`);
    const undo = await sandbox.loopsctl(['undo', ...change, '--out', out], { env: made.env });
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stderr).not.toContain('Nothing to undo');
    if (change.length === 0) expect(undo.stderr).toContain(`The latest change: ${id}, made by `);
    units.push((JSON.parse(readFileSync(out, 'utf8')) as { units: unknown }).units);
  }
  expect(units[1]).toEqual(units[0]);
  expect(units[2]).toEqual(units[0]);
  return units[0];
}

describe('undo after a copy of the plan was applied and refused', () => {
  it('a create plan: each undo names the record created and why the API cannot take it back', async () => {
    const sandbox = await sandboxes();
    const made = copies();
    const plan = await sandbox.loopsctl(['campaign-groups', 'create', '--name', 'Launches', '--plan', '--out', made.plan], { env: made.env });
    expect(plan.code, plan.stderr).toBe(0);
    const id = await appliedThenCopyRefused(sandbox, made);
    const entries = await journal(sandbox, made);
    // The copy was refused before it sent anything: its run wrote no line, and the create is the latest change.
    expect(entries.map((entry) => `${entry.method} ${entry.path} ${entry.outcome}`)).toEqual(['POST /v1/campaign-groups done']);
    const group = entries[0]!.ids.id!;
    sandbox.requests.length = 0;
    for (const change of [[made.plan], [id], []]) {
      const undo = await sandbox.loopsctl(['undo', ...change, '--yes'], { env: made.env });
      expect(undo.code, undo.stderr).toBe(5);
      expect(undo.stderr).toContain(
        `campaign group "Launches": not undone: the change created it, and the API cannot delete a campaign group; delete it in the Loops app (its id: ${group})`,
      );
      expect(undo.stderr).toContain(`Nothing of ${change[0] ?? id} can be undone through the API.`);
    }
    // Under --json, where notes are silent, the result says it.
    const json = await sandbox.loopsctl(['undo', id, '--yes', '--json'], { env: made.env });
    expect(json.code, json.stderr).toBe(5);
    expect(JSON.parse(json.stdout)).toMatchObject({
      applied: [],
      notUndone: [{ record: 'campaign group "Launches"', why: 'the change created it, and the API cannot delete a campaign group' }],
    });
    expect(writes(sandbox.requests)).toEqual([]);
  });

  it('an update plan: each undo puts the record back, and the undo is then the latest change', async () => {
    const sandbox = await sandboxes();
    const made = copies();
    const plan = await sandbox.loopsctl(['groups', 'update', BILLING, '--name', 'Bills', '--plan', '--out', made.plan], { env: made.env });
    expect(plan.code, plan.stderr).toBe(0);
    const id = await appliedThenCopyRefused(sandbox, made);
    const calls = (await inversesAgree(sandbox, made, id)) as { calls: { body?: { name?: string } }[] }[];
    expect(calls.flatMap((unit) => unit.calls.map((call) => call.body?.name))).toContain('Billing');
    expect((await journal(sandbox, made)).map((entry) => `${entry.command} ${entry.outcome}`)).toEqual(['apply done']);

    sandbox.requests.length = 0;
    const undo = await sandbox.loopsctl(['undo', '--yes'], { env: made.env });
    expect(undo.code, undo.stderr).toBe(0);
    expect(writes(sandbox.requests).map((request) => [request.path, (request.body as { name?: string }).name])).toEqual([
      [`/v1/transactional-groups/${BILLING}`, 'Billing'],
    ]);
    const entries = await journal(sandbox, made);
    expect(entries.map((entry) => `${entry.command} ${entry.outcome}`)).toEqual(['apply done', 'undo done']);
    // Its line names the change it took back, as one of `undo <id>` would.
    expect(entries[1]!.files).toEqual([id]);
    // The undo is kept as a change in its turn: the latest now, naming what it undid.
    const latest = await sandbox.loopsctl(['undo', '--out', join(made.directory, 'redo.json')], { env: made.env });
    expect(latest.code, latest.stderr).toBe(0);
    expect(latest.stderr).toContain(`, made by \`undo ${id}\` at `);
  });

  it('the latest of two changes taken in one second is the one whose time is last, whatever their ids', async () => {
    const sandbox = await sandboxes();
    const made = copies();
    const plan = await sandbox.loopsctl(['groups', 'update', BILLING, '--name', 'Bills', '--plan', '--out', made.plan], { env: made.env });
    expect(plan.code, plan.stderr).toBe(0);
    const id = await appliedThenCopyRefused(sandbox, made);
    // Another change of the same second, taken a moment later, whose id sorts before the first's.
    const before = imagesDirectory(made.env.LOOPSCTL_CONFIG_DIR!);
    const image = JSON.parse(readFileSync(join(before, `${id}.json`), 'utf8')) as { id: string; at: string };
    const later = `${id.slice(0, 16)}-${id.endsWith('000000') ? '000001' : '000000'}`;
    const at = new Date(Date.parse(image.at) + 1).toISOString();
    writeFileSync(join(before, `${later}.json`), JSON.stringify({ ...image, id: later, at }), { mode: 0o600 });
    const undo = await sandbox.loopsctl(['undo', '--out', join(made.directory, 'undo.json')], { env: made.env });
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stderr).toContain(`The latest change: ${later}, made by \`groups update\`, applied from ${made.plan} at ${at}.`);
  });

  it('a content push plan: the refused copy is journaled as refused, and undo finds the push', async () => {
    const sandbox = await sandboxes();
    const made = copies();
    const root = join(made.directory, 'loops');
    const only = ['--only', 'transactional'];
    const pull = await sandbox.loopsctl(['content', 'pull', root, ...only], { env: made.env });
    expect(pull.code, pull.stderr).toBe(0);
    const folder = readdirSync(join(root, 'transactional')).find((name) => name.startsWith('magic-sign-in-link--'))!;
    const draft = join(root, 'transactional', folder, 'draft.lmx');
    writeFileSync(draft, readFileSync(draft, 'utf8').replace('<H1>Sign in to Acme</H1>', '<H1>Sign in to Acme now</H1>'));
    const plan = await sandbox.loopsctl(['content', 'push', root, ...only, '--plan', '--out', made.plan], { env: made.env });
    expect(plan.code, plan.stderr).toBe(0);
    const id = await appliedThenCopyRefused(sandbox, made);
    // The copy's write went out and the platform refused it as stale: the log shows it so, after the change it did not make.
    const entries = await journal(sandbox, made);
    expect(entries.map((entry) => `${entry.files?.join(' ')} ${entry.outcome}`)).toEqual([`${made.plan} done`, `${made.copy} refused`]);
    expect(entries[1]!.status).toBe(409);
    await inversesAgree(sandbox, made, id);

    sandbox.requests.length = 0;
    const undo = await sandbox.loopsctl(['undo', '--yes'], { env: made.env });
    expect(undo.code, undo.stderr).toBe(0);
    const sent = writes(sandbox.requests).map((request) => request.text);
    expect(sent.some((text) => text.includes('Sign in to Acme') && !text.includes('Sign in to Acme now'))).toBe(true);
  });
});
