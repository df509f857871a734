/**
 * A plan that creates records, applied from two copies of its file (another path, another CI job,
 * a fresh checkout without `<plan>.applied`): the second apply finds the record in the account by
 * its name just before the create, and stops there at a conflict, sending no create.
 */
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../support/main.js';
import { sandboxEachTest, type Recorded, type RecordingSandbox } from '../../../support/recording.js';

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
