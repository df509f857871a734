import { cpSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { digestOf, readState, STATE_FILE } from '../../../../src/areas/content/shared/files.js';
import { readRecords } from '../../../../src/areas/content/shared/record-files.js';
import { seedId } from '../../../../src/emulator/module.js';
import { seedState } from '../../../../src/emulator/state/index.js';
import { tempDir } from '../../../support/main.js';
import { expectDescribed, type Recorded, type RecordingSandbox, sandboxEachTest } from '../../../support/recording.js';

const PASSWORD_RESET = seedId('transactional/Password reset');
const PASSWORD_RESET_DRAFT = seedId('transactional/Password reset/draft');
const FOOTER = seedId('component/Footer');
/** Campaigns need an email message behind each, which only some sandboxes have: the tests keep to the rest. */
const ONLY = ['--only', 'transactional,components,themes'];

const directories: string[] = [];
afterAll(() => directories.forEach((directory) => rmSync(directory, { recursive: true, force: true })));
function contentDir(): string {
  const directory = tempDir('loopsctl-content-');
  directories.push(directory);
  return join(directory, 'loops');
}

const sandboxes = sandboxEachTest();

/** The directory of the record whose path ends in this id. */
function recordDir(root: string, kind: string, id: string): string {
  const name = readdirSync(join(root, kind)).find((entry) => entry.endsWith(`--${id}`));
  if (name === undefined) throw new Error(`no ${kind} record ${id} in ${root}`);
  return join(root, kind, name);
}

const writes = (requests: Recorded[]) => requests.filter((request) => request.method !== 'GET');

async function pulled(sandbox: RecordingSandbox): Promise<string> {
  const root = contentDir();
  const pull = await sandbox.loopsctl(['content', 'pull', root, ...ONLY]);
  expect(pull.code, pull.stderr).toBe(0);
  return root;
}

describe('content pull', () => {
  it('writes the state file with its records in path order, so a pull with no change rewrites it byte for byte', async () => {
    const sandbox = await sandboxes();
    const root = contentDir();
    const first = await sandbox.loopsctl(['content', 'pull', root]);
    expect(first.code, first.stderr).toBe(0);
    const written = readFileSync(join(root, STATE_FILE), 'utf8');
    const paths = Object.keys(JSON.parse(written).accounts['Acme Sandbox']);
    expect(paths).toEqual([...paths].sort());
    const again = await sandbox.loopsctl(['content', 'pull', root]);
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(join(root, STATE_FILE), 'utf8')).toBe(written);
  });

  it('writes one directory per record, the LMX in its own file, and the revisions in the state file', async () => {
    const sandbox = await sandboxes();
    const root = await pulled(sandbox);
    const reset = recordDir(root, 'transactional', PASSWORD_RESET);
    expect(readdirSync(reset).sort()).toEqual(['draft.json', 'draft.lmx', 'published.json', 'published.lmx', 'transactional.json']);
    const draft = (await sandbox.loopsctl(['email-messages', 'get', PASSWORD_RESET_DRAFT, '--json'])).json();
    expect(readFileSync(join(reset, 'draft.lmx'), 'utf8')).toBe(draft.lmx);
    expect(JSON.parse(readFileSync(join(reset, 'draft.json'), 'utf8'))).toMatchObject({ subject: draft.subject, fromEmail: draft.fromEmail });
    // Its group by the group's name: the id is the account's, which the file never holds.
    expect(JSON.parse(readFileSync(join(reset, 'transactional.json'), 'utf8'))).toEqual({ name: 'Password reset', group: 'Security' });
    const state = readState(root)!;
    const synced = state.accounts['Acme Sandbox']![`transactional/${reset.split('/').at(-1)}`]!;
    expect(synced).toMatchObject({ id: PASSWORD_RESET, revisions: { draft: draft.contentRevisionId } });
    expect(readFileSync(join(recordDir(root, 'components', FOOTER), 'component.lmx'), 'utf8')).toBe(
      (await sandbox.loopsctl(['components', 'get', FOOTER, '--json'])).json().lmx,
    );
    expect(writes(sandbox.requests)).toEqual([]);
  });

  it('--only narrows the kinds; --json lists every record', async () => {
    const sandbox = await sandboxes();
    const root = contentDir();
    const result = await sandbox.loopsctl(['content', 'pull', root, '--only', 'components', '--json']);
    expect(result.code).toBe(0);
    expect(readdirSync(root).sort()).toEqual(['components', STATE_FILE]);
    expect(result.json().records.map((record: { kind: string }) => record.kind)).toEqual(['components', 'components']);
    const unknownKind = await sandbox.loopsctl(['content', 'pull', root, '--only', 'emails']);
    expect(unknownKind.code).toBe(2);
    expect(unknownKind.stderr).toContain('Error: --only: unknown kind "emails"');
  });

  it('a second pull refuses to overwrite local edits, naming them, unless --force', async () => {
    const sandbox = await sandboxes();
    const root = await pulled(sandbox);
    const lmx = join(recordDir(root, 'components', FOOTER), 'component.lmx');
    writeFileSync(lmx, '<Paragraph>edited here</Paragraph>');
    const refused = await sandbox.loopsctl(['content', 'pull', root, ...ONLY]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`components/${lmx.split('/').at(-2)}`);
    expect(readFileSync(lmx, 'utf8')).toBe('<Paragraph>edited here</Paragraph>');
    const forced = await sandbox.loopsctl(['content', 'pull', root, ...ONLY, '--force']);
    expect(forced.code).toBe(0);
    expect(readFileSync(lmx, 'utf8')).not.toContain('edited here');
  });

  it('refusing a change made in the account too, does not send the user to a push that would skip it', async () => {
    const sandbox = await sandboxes();
    const root = await pulled(sandbox);
    const reset = recordDir(root, 'transactional', PASSWORD_RESET);
    expect((await sandbox.loopsctl(['email-messages', 'update', PASSWORD_RESET_DRAFT, '--subject', 'Changed in the app', '--force'])).code).toBe(0);
    writeFileSync(join(reset, 'draft.lmx'), '<Paragraph>Changed in git</Paragraph>');
    const pull = await sandbox.loopsctl(['content', 'pull', root, ...ONLY]);
    expect(pull.code).toBe(2);
    expect(pull.stderr).toContain(`transactional/${reset.split('/').at(-1)} changed in the account too, so a push would skip it as a conflict`);
    expect(pull.stderr).not.toContain('push them with');
  });
});

describe('a state file lost or broken', () => {
  it('missing beside pulled records: diff, push and a refused pull say so, and how to restore it', async () => {
    const sandbox = await sandboxes();
    const root = await pulled(sandbox);
    rmSync(join(root, STATE_FILE));
    writeFileSync(join(recordDir(root, 'components', FOOTER), 'component.lmx'), '<Paragraph>New footer</Paragraph>');
    for (const command of ['diff', 'push', 'pull']) {
      const result = await sandbox.loopsctl(['content', command, root, ...ONLY]);
      expect(result.code, command).toBe(2);
      expect(result.stderr, command).toContain(`Error: ${join(root, STATE_FILE)} is missing, though ${root} holds pulled records\n`);
      expect(result.stderr, command).toContain(`Hint: restore it from git: \`git checkout ${join(root, STATE_FILE)}\``);
    }
    expect(writes(sandbox.requests)).toEqual([]);
  });

  it('that does not parse, from a newer loopsctl, or of another shape: each named as such, with what to do', async () => {
    const sandbox = await sandboxes();
    const root = await pulled(sandbox);
    const file = join(root, STATE_FILE);
    const pulledState = readFileSync(file, 'utf8');
    const cases: [string, string, string][] = [
      ['{\n  broken', `${file}:2:3: not valid JSON\n`, `restore it from git (\`git checkout ${file}\`)`],
      [
        pulledState.replace('  "format": 1,', '<<<<<<< HEAD\n"format": 1,\n=======\n"format": 1,\n>>>>>>> theirs'),
        `${file}:2: holds the markers of a merge conflict (<<<<<<<)`,
        'resolve the merge conflict',
      ],
      [
        pulledState.replace('"format": 1', '"format": 99'),
        `${file} was written by a newer loopsctl (state format 99; this one reads format 1)`,
        'upgrade loopsctl',
      ],
      ['[]\n', `${file} is not a loopsctl state file: `, `restore it from git (\`git checkout ${file}\`)`],
    ];
    for (const [text, error, hint] of cases) {
      writeFileSync(file, text);
      for (const command of ['diff', 'push', 'pull']) {
        const result = await sandbox.loopsctl(['content', command, root, ...ONLY]);
        expect(result.code, `${command}: ${error}`).toBe(2);
        expect(result.stderr, command).toContain(`Error: ${error}`);
        expect(result.stderr.slice(result.stderr.indexOf('\nHint: ')), command).toContain(hint);
      }
      expect(readFileSync(file, 'utf8')).toBe(text);
    }
    expect(writes(sandbox.requests)).toEqual([]);
  });
});

describe('a renamed record folder', () => {
  it('is the record its id names: diff, pull and push treat it as the record, and the state follows the new name', async () => {
    const sandbox = await sandboxes();
    const root = await pulled(sandbox);
    const old = recordDir(root, 'transactional', PASSWORD_RESET);
    const renamed = join(root, 'transactional', `reset-link--${PASSWORD_RESET}`);
    renameSync(old, renamed);
    writeFileSync(join(renamed, 'draft.lmx'), '<Paragraph>Reset it here.</Paragraph>\n');

    const diff = await sandbox.loopsctl(['content', 'diff', root, ...ONLY]);
    expect(diff.code).toBe(1);
    expect(diff.stdout).toContain(`# transactional/reset-link--${PASSWORD_RESET}: changed here\n`);
    expect(diff.stderr).toBe(`1 record differs between ${root} and Acme Sandbox.\n`);
    // The pull refuses for the local change, and sends the user on to a push that will take it.
    const pull = await sandbox.loopsctl(['content', 'pull', root, ...ONLY]);
    expect(pull.code).toBe(2);
    expect(pull.stderr).toContain(`pulling would overwrite local changes in transactional/reset-link--${PASSWORD_RESET}`);
    expect(pull.stderr).toContain('push them with `loopsctl content push`');

    const push = await sandbox.loopsctl(['content', 'push', root, ...ONLY]);
    expect(push.code, push.stderr).toBe(0);
    expect(push.stdout).toMatch(new RegExp(`updated\\s+transactional/reset-link--${PASSWORD_RESET}`));
    expect((await sandbox.loopsctl(['email-messages', 'get', PASSWORD_RESET_DRAFT, '--lmx'])).stdout).toBe('<Paragraph>Reset it here.</Paragraph>\n');
    const records = Object.keys(readState(root)!.accounts['Acme Sandbox']!);
    expect(records).toContain(`transactional/reset-link--${PASSWORD_RESET}`);
    expect(records).not.toContain(`transactional/${old.split('/').at(-1)}`);
    expect(await sandbox.loopsctl(['content', 'diff', root, ...ONLY])).toMatchObject({ code: 0, stdout: '' });
  });

  it('with no other change, is followed by the next push, which sends nothing, and the pull after it writes no second folder', async () => {
    const sandbox = await sandboxes();
    const root = await pulled(sandbox);
    const footer = recordDir(root, 'components', FOOTER);
    renameSync(footer, join(root, 'components', `site-footer--${FOOTER}`));
    const push = await sandbox.loopsctl(['content', 'push', root, ...ONLY]);
    expect(push, push.stderr).toMatchObject({ code: 0, stdout: '' });
    const records = Object.keys(readState(root)!.accounts['Acme Sandbox']!);
    expect(records).toContain(`components/site-footer--${FOOTER}`);
    expect(records).not.toContain(`components/${footer.split('/').at(-1)}`);
    const pull = await sandbox.loopsctl(['content', 'pull', root, ...ONLY]);
    expect(pull.code, pull.stderr).toBe(0);
    expect(readdirSync(join(root, 'components')).filter((name) => name.endsWith(`--${FOOTER}`))).toEqual([`site-footer--${FOOTER}`]);
    expect(writes(sandbox.requests)).toEqual([]);
  });

  it('copied, with the old folder still there, is not taken for the record, and the push says why', async () => {
    const sandbox = await sandboxes();
    const root = await pulled(sandbox);
    const reset = recordDir(root, 'transactional', PASSWORD_RESET);
    const copy = join(root, 'transactional', `reset-copy--${PASSWORD_RESET}`);
    cpSync(reset, copy, { recursive: true });
    writeFileSync(join(copy, 'transactional.json'), '{\n  "name": "Password reset copy"\n}\n');
    const plan = await sandbox.loopsctl(['content', 'push', root, ...ONLY, '--plan']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stderr).toContain(
      `transactional/reset-copy--${PASSWORD_RESET} ends in the id of transactional/${reset.split('/').at(-1)}, which is still here: it is not taken for that record but pushed as a record of its own; to rename transactional/${reset.split('/').at(-1)}, remove the old folder.\n`,
    );
    expect(plan.stdout).toContain(`# transactional/reset-copy--${PASSWORD_RESET}: would create`);
    expect(writes(sandbox.requests)).toEqual([]);
  });
});

describe('content diff and push', () => {
  it('a file a push could not send stops it, and its plan, before anything is sent', async () => {
    const sandbox = await sandboxes();
    const root = await pulled(sandbox);
    writeFileSync(join(recordDir(root, 'components', FOOTER), 'component.lmx'), '<Paragraph>New footer</Paragraph>');
    const draft = join(recordDir(root, 'transactional', PASSWORD_RESET), 'draft.json');
    writeFileSync(draft, '{"subject": 5}\n');
    for (const flags of [['--plan'], []]) {
      const push = await sandbox.loopsctl(['content', 'push', root, ...ONLY, ...flags]);
      expect(push.code, flags.join(' ')).toBe(2);
      expect(push.stderr).toContain('/draft.json: subject: Invalid input: expected string, received number');
      expect(push.stdout).toBe('');
    }
    expect(writes(sandbox.requests)).toEqual([]);
  });

  it('a push the team check refuses says nothing was sent, not that it wrote part of a record', async () => {
    const sandbox = await sandboxes();
    const root = await pulled(sandbox);
    writeFileSync(join(recordDir(root, 'components', FOOTER), 'component.lmx'), '<Paragraph>New footer</Paragraph>');
    const push = await sandbox.loopsctl(['content', 'push', root, ...ONLY, '--expect-team', 'Acme Production']);
    expect(push.code).toBe(11);
    expect(push.stderr).toContain('nothing was sent');
    expect(push.stderr).not.toContain('checks what this one wrote');
    expect(writes(sandbox.requests)).toEqual([]);
  });

  it('a pull then a push with no edits sends nothing, and diff finds nothing', async () => {
    const sandbox = await sandboxes();
    const root = await pulled(sandbox);
    const diff = await sandbox.loopsctl(['content', 'diff', root, ...ONLY]);
    expect(diff.code).toBe(0);
    expect(diff.stdout).toBe('');
    const before = sandbox.requests.length;
    const push = await sandbox.loopsctl(['content', 'push', root, ...ONLY]);
    expect(push.code).toBe(0);
    // The key check, and one recorded record that says this is the account the state knows: no other read, no write.
    const first = Object.entries(readState(root)!.accounts['Acme Sandbox']!)[0]!;
    expect(sandbox.requests.slice(before).map((request) => request.path)).toEqual(['/v1/api-key', `/v1/${first[0].split('/')[0]}/${first[1].id}`]);
    expect(writes(sandbox.requests)).toEqual([]);
  });

  it('pushes only the changed record, with the revision it was pulled at, after diff shows it', async () => {
    const sandbox = await sandboxes();
    const root = await pulled(sandbox);
    const reset = recordDir(root, 'transactional', PASSWORD_RESET);
    const pulledRevision = readState(root)!.accounts['Acme Sandbox']![`transactional/${reset.split('/').at(-1)}`]!.revisions!.draft;
    const original = readFileSync(join(reset, 'draft.lmx'), 'utf8');
    const edited = original.replace('</Paragraph>', ' Edited in review.</Paragraph>');
    expect(edited).not.toBe(original);
    writeFileSync(join(reset, 'draft.lmx'), edited);

    const diff = await sandbox.loopsctl(['content', 'diff', root, ...ONLY]);
    expect(diff.code).toBe(1);
    expect(diff.stderr).toBe(`1 record differs between ${root} and Acme Sandbox.\n`);
    expect(diff.stdout).toContain(`# transactional/${reset.split('/').at(-1)}: changed here`);
    expect(diff.stdout).toContain(`+++ b/transactional/${reset.split('/').at(-1)}/draft.lmx`);
    expect(diff.stdout).toMatch(/^\+.*Edited in review\.<\/Paragraph>$/m);
    expect(diff.stdout.match(/^# /gm)).toHaveLength(1);

    const plan = await sandbox.loopsctl(['content', 'push', root, ...ONLY, '--plan']);
    expect(plan.code).toBe(0);
    const planAndPublish = await sandbox.loopsctl(['content', 'push', root, ...ONLY, '--plan', '--publish']);
    expect(planAndPublish.code).toBe(2);
    expect(planAndPublish.stderr).toContain('Error: --plan and --publish cannot be used together');
    const publishUnchecked = await sandbox.loopsctl(['content', 'push', root, ...ONLY, '--publish', '--no-check']);
    expect(publishUnchecked.code).toBe(2);
    expect(publishUnchecked.stderr).toContain('Error: --publish and --no-check cannot be used together');
    expect(plan.stdout).toContain('would update');
    expect(writes(sandbox.requests)).toEqual([]);

    const push = await sandbox.loopsctl(['content', 'push', root, ...ONLY, '--json']);
    expect(push.code, push.stderr).toBe(0);
    const sent = writes(sandbox.requests);
    expect(sent.map((request) => `${request.method} ${request.path}`)).toEqual([`POST /v1/email-messages/${PASSWORD_RESET_DRAFT}`]);
    expect(sent[0]!.body).toEqual({ expectedRevisionId: pulledRevision, lmx: edited });
    expect(push.json().records).toMatchObject([{ status: 'updated', path: `transactional/${reset.split('/').at(-1)}` }]);
    expect((await sandbox.loopsctl(['email-messages', 'get', PASSWORD_RESET_DRAFT, '--lmx'])).stdout).toBe(edited);
    expect((await sandbox.loopsctl(['content', 'diff', root, ...ONLY])).code).toBe(0);
    // The new revision is recorded: a second edit pushes without a conflict.
    writeFileSync(join(reset, 'draft.lmx'), `${edited}<Paragraph>Again.</Paragraph>`);
    expect((await sandbox.loopsctl(['content', 'push', root, ...ONLY])).code).toBe(0);
    expectDescribed(sandbox.requests);
  });

  it('a record changed in the account since the pull is a conflict: listed, not overwritten; --force takes the local side', async () => {
    const sandbox = await sandboxes();
    const root = await pulled(sandbox);
    const reset = recordDir(root, 'transactional', PASSWORD_RESET);
    expect((await sandbox.loopsctl(['email-messages', 'update', PASSWORD_RESET_DRAFT, '--subject', 'Changed in the app', '--force'])).code).toBe(0);
    writeFileSync(join(reset, 'draft.lmx'), '<Paragraph>Changed in git</Paragraph>');
    const before = writes(sandbox.requests).length;
    const push = await sandbox.loopsctl(['content', 'push', root, ...ONLY]);
    expect(push.code).toBe(5);
    expect(push.stderr).toMatch(/^Pushed 0 records to Acme Sandbox; \d+ unchanged, 1 conflict\.\n$/);
    expect(push.stdout).toMatch(/conflict\s+transactional\/password-reset--/);
    expect(writes(sandbox.requests).length).toBe(before);
    const diff = await sandbox.loopsctl(['content', 'diff', root, ...ONLY]);
    expect(diff.stdout).toContain('changed here and in the account');
    const forced = await sandbox.loopsctl(['content', 'push', root, ...ONLY, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    const now = (await sandbox.loopsctl(['email-messages', 'get', PASSWORD_RESET_DRAFT, '--json'])).json();
    expect(now.lmx).toBe('<Paragraph>Changed in git</Paragraph>');
    // The local side is the whole file set: the subject the files hold replaces the app's.
    expect(now.subject).toBe(JSON.parse(readFileSync(join(reset, 'draft.json'), 'utf8')).subject);
  });

  it('checks the LMX of what it would send first, and sends nothing while a file has errors; --no-check leaves it to the API', async () => {
    const sandbox = await sandboxes();
    const root = await pulled(sandbox);
    const draft = join(recordDir(root, 'transactional', PASSWORD_RESET), 'draft.lmx');
    writeFileSync(draft, '<Paragraph>Reset it: <Bold>{data.resetUrl}</Bold></Paragraph>\n');
    writeFileSync(join(recordDir(root, 'components', FOOTER), 'component.lmx'), '<Paragraph>New footer</Paragraph>');
    const push = await sandbox.loopsctl(['content', 'push', root, ...ONLY]);
    expect(push.code).toBe(1);
    expect(push.stdout).toContain(`${draft}:1:22 unknown-tag <Bold> is not an LMX tag`);
    expect(push.stderr).toContain('1 LMX error in 1 file; nothing was sent');
    expect(writes(sandbox.requests)).toEqual([]);
    const json = await sandbox.loopsctl(['content', 'push', root, ...ONLY, '--json']);
    expect(json.json()).toEqual([
      { file: draft, kind: 'transactional', errors: [expect.objectContaining({ line: 1, column: 22, rule: 'unknown-tag' })], warnings: [] },
    ]);
    // Unchecked, the push reaches the API, which refuses the draft: it does not compile.
    const unchecked = await sandbox.loopsctl(['content', 'push', root, ...ONLY, '--no-check']);
    expect(unchecked.code).toBe(5);
    expect(unchecked.stderr).toContain('LMX failed to compile: line 1, column 22: <Bold> is not an LMX tag');
  });

  it('a Guardian error stops one record, which is put back as it was, while the others go through (exit 1)', async () => {
    const sandbox = await sandboxes();
    const root = await pulled(sandbox);
    const reset = recordDir(root, 'transactional', PASSWORD_RESET);
    const original = (await sandbox.loopsctl(['email-messages', 'get', PASSWORD_RESET_DRAFT, '--json'])).json();
    writeFileSync(join(reset, 'draft.lmx'), '<Paragraph>Reset it</Paragraph>\n<Button>Reset</Button>');
    const footer = join(recordDir(root, 'components', FOOTER), 'component.lmx');
    writeFileSync(footer, '<Paragraph>New footer</Paragraph>');
    // A plan sends nothing, and says the warned file is one a push would send.
    const plan = await sandbox.loopsctl(['content', 'push', root, ...ONLY, '--plan']);
    expect(plan.stderr).toMatch(/^LMX warnings in 1 file, which a push sends anyway: /);
    const push = await sandbox.loopsctl(['content', 'push', root, ...ONLY, '--publish']);
    expect(push.code).toBe(1);
    // The check foresees it, as a warning, and leaves the refusal to Guardian.
    expect(push.stderr).toMatch(
      /^LMX warnings in 1 file, sent anyway: \S+\/password-reset--\S+\/draft\.lmx \(see `loopsctl content check`\)\.\nPushed 1 record to Acme Sandbox; \d+ unchanged, 1 refused by Guardian\.\nWhat it changed was kept as it was before: `loopsctl undo \S+` puts it back\.\n$/,
    );
    expect(push.stdout).toMatch(/refused\s+transactional\/password-reset--\S+\s+Guardian: Missing button link/);
    expect(push.stdout).toMatch(/updated\s+components\/footer--/);
    const after = (await sandbox.loopsctl(['email-messages', 'get', PASSWORD_RESET_DRAFT, '--json'])).json();
    expect(after.lmx).toBe(original.lmx);
    expect(sandbox.requests.some((request) => request.path.endsWith('/publish'))).toBe(false);
    expect((await sandbox.loopsctl(['components', 'get', FOOTER, '--lmx'])).stdout).toBe('<Paragraph>New footer</Paragraph>');
    // Still a local change: the next push tries it again.
    expect(await sandbox.loopsctl(['content', 'diff', root, ...ONLY])).toMatchObject({
      code: 1,
      stderr: `1 record differs between ${root} and Acme Sandbox.\n`,
    });
    // Fixed as Guardian asked, it goes through: putting it back left the record in step, not stale.
    writeFileSync(join(reset, 'draft.lmx'), '<Paragraph>Reset it</Paragraph>\n<Button href="https://acme.example/reset">Reset</Button>');
    const fixed = await sandbox.loopsctl(['content', 'push', root, ...ONLY]);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stdout).toMatch(/updated\s+transactional\/password-reset--/);
  });

  it('phone links the check takes, the sandbox takes too: tel: and sms: buttons and links are pushed and published', async () => {
    const sandbox = await sandboxes();
    const root = await pulled(sandbox);
    const reset = recordDir(root, 'transactional', PASSWORD_RESET);
    writeFileSync(
      join(reset, 'draft.lmx'),
      '<Paragraph>Call <Link href="tel:+15550100">us</Link> or <Link href="sms:+15550100">text us</Link>.</Paragraph>\n<Button href="tel:+15550100">Call</Button>',
    );
    expect(await sandbox.loopsctl(['content', 'check', root])).toMatchObject({ code: 0 });
    const push = await sandbox.loopsctl(['content', 'push', root, ...ONLY, '--publish', '--json']);
    expect(push.code, push.stdout + push.stderr).toBe(0);
    expect(push.json().published).toEqual([`transactional/${reset.split('/').at(-1)}`]);
  });

  it('an edit to the published files is never sent, and the push says so; the next pull writes them anew', async () => {
    const sandbox = await sandboxes();
    const root = await pulled(sandbox);
    const reset = recordDir(root, 'transactional', PASSWORD_RESET);
    const path = `transactional/${reset.split('/').at(-1)}`;
    const published = readFileSync(join(reset, 'published.lmx'), 'utf8');
    writeFileSync(join(reset, 'published.lmx'), `${published}<Paragraph>Edited here</Paragraph>\n`);
    const push = await sandbox.loopsctl(['content', 'push', root, ...ONLY]);
    expect(push.code, push.stderr).toBe(0);
    expect(push.stderr).toContain(
      `Published files edited in ${path}: published.* show what is live, are written anew by every pull and never pushed; edit draft.* and push with --publish.\n`,
    );
    expect(writes(sandbox.requests)).toEqual([]);
    const pull = await sandbox.loopsctl(['content', 'pull', root, ...ONLY]);
    expect(pull.code, pull.stderr).toBe(0);
    expect(readFileSync(join(reset, 'published.lmx'), 'utf8')).toBe(published);
    expect(await sandbox.loopsctl(['content', 'push', root, ...ONLY])).toMatchObject({ code: 0, stderr: expect.not.stringContaining('Published files') });
  });

  it('--publish publishes the transactional emails whose drafts passed the checks', async () => {
    const sandbox = await sandboxes();
    const root = await pulled(sandbox);
    const reset = recordDir(root, 'transactional', PASSWORD_RESET);
    writeFileSync(join(reset, 'draft.lmx'), '<Paragraph>Reset your password: {data.resetUrl}</Paragraph>');
    const push = await sandbox.loopsctl(['content', 'push', root, ...ONLY, '--publish', '--json']);
    expect(push.code, push.stderr).toBe(0);
    expect(push.json().published).toEqual([`transactional/${reset.split('/').at(-1)}`]);
    const record = (await sandbox.loopsctl(['transactional', 'get', PASSWORD_RESET, '--json'])).json();
    const live = (await sandbox.loopsctl(['email-messages', 'get', record.publishedEmailMessageId, '--lmx'])).stdout;
    expect(live).toBe('<Paragraph>Reset your password: {data.resetUrl}</Paragraph>\n');
    // Published: what is live is the draft the files hold, and the copy kept for review follows it, so nothing differs.
    expect(readFileSync(join(reset, 'published.lmx'), 'utf8')).toBe(readFileSync(join(reset, 'draft.lmx'), 'utf8'));
    const diff = await sandbox.loopsctl(['content', 'diff', root, '--only', 'transactional', '--json']);
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.json().records).toEqual([]);
  });
});

describe('a record created from a new directory', () => {
  it('starts in step: its files are written as a pull writes them, and diff and the next push find nothing', async () => {
    const sandbox = await sandboxes();
    const root = await pulled(sandbox);
    const invoice = join(root, 'transactional', 'invoice');
    mkdirSync(invoice);
    writeFileSync(join(invoice, 'transactional.json'), '{"name":"Invoice"}\n');
    writeFileSync(join(invoice, 'draft.json'), '{"subject":"Your invoice","previewText":"","fromName":"Acme","fromEmail":"billing","emailFormat":"styled"}\n');
    writeFileSync(join(invoice, 'draft.lmx'), '<H1>Invoice {data.number}</H1>\n');
    const push = await sandbox.loopsctl(['content', 'push', root, ...ONLY, '--yes', '--json']);
    expect(push.code, push.stderr).toBe(0);
    const created = push.json().records.find((record: { status: string }) => record.status === 'created');
    expect(created).toMatchObject({ path: 'transactional/invoice', name: 'Invoice' });

    const diff = await sandbox.loopsctl(['content', 'diff', root, ...ONLY]);
    expect(diff.stdout).toBe('');
    expect(diff.code, diff.stdout).toBe(0);
    // Created in the account's default group, which the file now names as a pull would.
    expect(readFileSync(join(invoice, 'transactional.json'), 'utf8')).toBe('{\n  "name": "Invoice",\n  "group": "General"\n}\n');
    expect(JSON.parse(readFileSync(join(invoice, 'draft.json'), 'utf8'))).toMatchObject({ subject: 'Your invoice', fromEmail: 'billing' });
    expect(readFileSync(join(invoice, 'draft.lmx'), 'utf8')).toBe('<H1>Invoice {data.number}</H1>\n');
    expect(readState(root)!.accounts['Acme Sandbox']!['transactional/invoice']).toMatchObject({ id: created.id });
    const before = writes(sandbox.requests).length;
    expect(await sandbox.loopsctl(['content', 'push', root, ...ONLY])).toMatchObject({ code: 0, stdout: '' });
    expect(writes(sandbox.requests).length).toBe(before);
  });

  it('refused by Guardian when created, is pushed as a change once fixed, and is then in step', async () => {
    const sandbox = await sandboxes();
    const root = await pulled(sandbox);
    const receipt = join(root, 'transactional', 'receipt');
    mkdirSync(receipt);
    writeFileSync(join(receipt, 'transactional.json'), '{"name":"Receipt"}\n');
    writeFileSync(join(receipt, 'draft.json'), '{"subject":"Receipt"}\n');
    writeFileSync(join(receipt, 'draft.lmx'), '<Paragraph>Thanks</Paragraph>\n<Button>Pay</Button>\n');
    const refused = await sandbox.loopsctl(['content', 'push', root, ...ONLY, '--yes']);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/refused\s+transactional\/receipt\s+Guardian: Missing button link; put back as it was/);
    expect(refused.stderr).toContain('1 refused by Guardian');
    // The record was made, empty: the state knows it, so the fixed files update it rather than meet it as a stranger.
    writeFileSync(join(receipt, 'draft.lmx'), '<Paragraph>Thanks</Paragraph>\n<Button href="https://acme.example/pay">Pay</Button>\n');
    const fixed = await sandbox.loopsctl(['content', 'push', root, ...ONLY]);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stdout).toMatch(/updated\s+transactional\/receipt/);
    expect(await sandbox.loopsctl(['content', 'diff', root, ...ONLY])).toMatchObject({ code: 0, stdout: '' });
    expect(JSON.parse(readFileSync(join(receipt, 'draft.json'), 'utf8'))).toMatchObject({ subject: 'Receipt', emailFormat: 'styled' });
  });
});

describe('content of campaigns', () => {
  it("pulls each campaign's email message and pushes an edit with its revision", async () => {
    const sandbox = await sandboxes();
    const root = contentDir();
    expect((await sandbox.loopsctl(['content', 'pull', root])).code).toBe(0);
    const campaigns = (await sandbox.loopsctl(['campaigns', 'list', '--json'])).json();
    const draft = campaigns.find(
      (campaign: { status: string; emailMessageId: string | null }) => campaign.status === 'Draft' && campaign.emailMessageId !== null,
    );
    const directory = recordDir(root, 'campaigns', draft.id);
    const message = (await sandbox.loopsctl(['email-messages', 'get', draft.emailMessageId, '--json'])).json();
    expect(readFileSync(join(directory, 'email.lmx'), 'utf8')).toBe(message.lmx);
    writeFileSync(join(directory, 'email.lmx'), '<Paragraph>New campaign body</Paragraph>');
    const push = await sandbox.loopsctl(['content', 'push', root]);
    expect(push.code, push.stderr).toBe(0);
    expect(writes(sandbox.requests).map((request) => [request.path, request.body])).toEqual([
      [`/v1/email-messages/${draft.emailMessageId}`, { expectedRevisionId: message.contentRevisionId, lmx: '<Paragraph>New campaign body</Paragraph>' }],
    ]);
    expectDescribed(sandbox.requests);
  });

  it('lists an edit of a sent campaign as not editable, sends nothing of it, and still pushes the rest', async () => {
    const sandbox = await sandboxes();
    const root = contentDir();
    expect((await sandbox.loopsctl(['content', 'pull', root])).code).toBe(0);
    const sent = recordDir(root, 'campaigns', seedId('campaign/October newsletter'));
    writeFileSync(join(sent, 'email.lmx'), readFileSync(join(sent, 'email.lmx'), 'utf8').replace('October', 'Oct'));
    const footer = join(recordDir(root, 'components', FOOTER), 'component.lmx');
    writeFileSync(footer, '<Paragraph>New footer</Paragraph>');
    const plan = await sandbox.loopsctl(['content', 'push', root, '--plan']);
    expect(plan.code).toBe(5);
    expect(plan.stdout).toMatch(/: would skip \(the campaign is Sent, and only a draft campaign's email can be edited/);
    expect(plan.stderr).toContain('1 to send, 1 skipped; nothing was sent.');
    const push = await sandbox.loopsctl(['content', 'push', root, '--force']);
    expect(push.code).toBe(5);
    expect(push.stdout).toMatch(/^refused\tcampaigns\/october-newsletter--\w+\tthe campaign is Sent, /m);
    expect(push.stderr).toContain('Pushed 1 record to Acme Sandbox; ');
    expect(push.stderr).toContain(', 1 not editable in the account.');
    // The component after it went; nothing was sent for the campaign.
    expect(writes(sandbox.requests).map((request) => request.path)).toEqual([`/v1/components/${FOOTER}`]);
    expect((await sandbox.loopsctl(['components', 'get', FOOTER, '--json'])).json().lmx).toBe('<Paragraph>New footer</Paragraph>');
  });
});

describe('content push to a second account', () => {
  it('matches records by name, creates what is missing (with --yes), and touches nothing else', async () => {
    const staging = await sandboxes();
    const production = await sandboxes({
      initialState: (modules) => ({ ...seedState(modules), teamName: 'Acme Production' }),
    });
    // Staging has a component and a transactional email production lacks.
    const component = await staging.loopsctl(['components', 'create', '--name', 'Sign-off', '--lmx-file', '-', '--json'], {
      input: '<Paragraph>Cheers</Paragraph>',
    });
    expect(component.code).toBe(0);
    const email = await staging.loopsctl(['transactional', 'create', '--name', 'Trial ending', '--json']);
    expect(email.code).toBe(0);
    const root = await pulled(staging);
    const trial = recordDir(root, 'transactional', email.json().id);
    writeFileSync(join(trial, 'draft.lmx'), '<Paragraph>Your trial ends soon.</Paragraph>');
    writeFileSync(
      join(trial, 'draft.json'),
      `${JSON.stringify({ ...JSON.parse(readFileSync(join(trial, 'draft.json'), 'utf8')), subject: 'Trial ending' }, null, 2)}\n`,
    );

    const asked = await production.loopsctl(['content', 'push', root, ...ONLY]);
    expect(asked.code).toBe(2);
    // The seed's payment-failed draft, with its button that leads nowhere, is among what would be sent.
    expect(asked.stderr).toMatch(
      /^LMX warnings in 1 file, sent anyway: \S+\/payment-failed--\S+\/draft\.lmx \(see `loopsctl content check`\)\.\nError: Create components\/sign-off--\S+, transactional\/trial-ending--\S+ in Acme Production: not confirmed\n/,
    );
    expect(writes(production.requests)).toEqual([]);

    const push = await production.loopsctl(['content', 'push', root, ...ONLY, '--yes', '--json']);
    expect(push.code, push.stderr).toBe(0);
    const created = push.json().records.filter((record: { status: string }) => record.status === 'created');
    expect(created.map((record: { name: string }) => record.name).sort()).toEqual(['Sign-off', 'Trial ending']);
    const written = writes(production.requests).map((request) => `${request.method} ${request.path.replace(/\/c[a-z0-9]{24}$/, '/<id>')}`);
    // The component an email may embed, before the email.
    expect(written).toEqual(['POST /v1/components', 'POST /v1/transactional-emails', 'POST /v1/email-messages/<id>']);
    const productionEmail = created.find((record: { name: string }) => record.name === 'Trial ending').id;
    const draft = (await production.loopsctl(['transactional', 'get', productionEmail, '--json'])).json().draftEmailMessageId;
    expect((await production.loopsctl(['email-messages', 'get', draft, '--json'])).json()).toMatchObject({
      subject: 'Trial ending',
      lmx: '<Paragraph>Your trial ends soon.</Paragraph>',
    });
    // The state keeps each account's ids apart.
    const state = readState(root)!;
    expect(Object.keys(state.accounts).sort()).toEqual(['Acme Production', 'Acme Sandbox']);
    const trialPath = `transactional/${trial.split('/').at(-1)}`;
    expect(state.accounts['Acme Production']![trialPath]!.id).toBe(productionEmail);
    expect(state.accounts['Acme Sandbox']![trialPath]!.id).toBe(email.json().id);
    // A second push sends nothing to either account.
    const before = writes(production.requests).length;
    expect((await production.loopsctl(['content', 'push', root, ...ONLY])).code).toBe(0);
    expect(writes(production.requests).length).toBe(before);
    expectDescribed(production.requests);
  });

  it('--plan exits 5 on a conflict and sends nothing; without one it exits 0', async () => {
    const sandbox = await sandboxes();
    const root = await pulled(sandbox);
    const reset = recordDir(root, 'transactional', PASSWORD_RESET);
    writeFileSync(join(reset, 'draft.lmx'), '<Paragraph>Changed in git</Paragraph>');
    const clean = await sandbox.loopsctl(['content', 'push', root, ...ONLY, '--plan']);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout).toContain(`# transactional/${reset.split('/').at(-1)}: would update`);
    expect((await sandbox.loopsctl(['email-messages', 'update', PASSWORD_RESET_DRAFT, '--subject', 'Changed in the app', '--force'])).code).toBe(0);
    const before = writes(sandbox.requests).length;
    const plan = await sandbox.loopsctl(['content', 'push', root, ...ONLY, '--plan']);
    expect(plan.code).toBe(5);
    expect(plan.stderr).toBe('Plan for Acme Sandbox: 0 to send, 1 skipped; nothing was sent.\n');
    expect(plan.stdout).toContain(`# transactional/${reset.split('/').at(-1)}: would skip (changed in the account since the last pull`);
    // With --force the conflict is settled for the local side: the plan says so and exits as the push would.
    const forced = await sandbox.loopsctl(['content', 'push', root, ...ONLY, '--plan', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain(`# transactional/${reset.split('/').at(-1)}: would update (taking the local side (--force))`);
    expect(writes(sandbox.requests).length).toBe(before);
  });

  it('an edit made only in the account is no conflict: push sends nothing and exits 0, diff says where it changed', async () => {
    const sandbox = await sandboxes();
    const root = await pulled(sandbox);
    const reset = recordDir(root, 'transactional', PASSWORD_RESET);
    expect((await sandbox.loopsctl(['email-messages', 'update', PASSWORD_RESET_DRAFT, '--subject', 'Changed in the app', '--force'])).code).toBe(0);
    const before = writes(sandbox.requests).length;
    const push = await sandbox.loopsctl(['content', 'push', root, ...ONLY]);
    expect(push.code, push.stderr).toBe(0);
    expect(push.stdout).not.toContain('conflict');
    const plan = await sandbox.loopsctl(['content', 'push', root, ...ONLY, '--plan']);
    expect(plan.code).toBe(0);
    expect(writes(sandbox.requests).length).toBe(before);
    const diff = await sandbox.loopsctl(['content', 'diff', root, ...ONLY]);
    expect(diff.code).toBe(1);
    expect(diff.stderr).toBe(`1 record differs between ${root} and Acme Sandbox.\n`);
    expect(diff.stdout).toContain(`# transactional/${reset.split('/').at(-1)}: changed in the account since the last pull`);
  });

  it('a record only in the account: diff says so, exit 1', async () => {
    const sandbox = await sandboxes();
    const root = await pulled(sandbox);
    const created = await sandbox.loopsctl(['components', 'create', '--name', 'Sign-off', '--lmx-file', '-', '--json'], { input: '<Paragraph>Hi</Paragraph>' });
    expect(created.code).toBe(0);
    const diff = await sandbox.loopsctl(['content', 'diff', root, '--only', 'components']);
    expect(diff.code).toBe(1);
    expect(diff.stderr).toBe(`1 record differs between ${root} and Acme Sandbox.\n`);
    expect(diff.stdout).toContain(`# components/sign-off--${created.json().id}: only in the account`);
    expect(diff.stdout).toContain('+++ /dev/null');
  });

  it('two records of the same name are pushed as two, and a second push makes no third', async () => {
    const staging = await sandboxes();
    const production = await sandboxes({ initialState: (modules) => ({ ...seedState(modules), teamName: 'Acme Production' }) });
    for (const text of ['One', 'Two']) {
      expect(
        (await staging.loopsctl(['components', 'create', '--name', 'Sign-off', '--lmx-file', '-'], { input: `<Paragraph>${text}</Paragraph>` })).code,
      ).toBe(0);
    }
    const root = await pulled(staging);
    expect(readdirSync(join(root, 'components')).filter((name) => name.startsWith('sign-off--'))).toHaveLength(2);
    const signOffs = async () =>
      (await production.loopsctl(['components', 'list', '--json'])).json().filter((component: { name: string }) => component.name === 'Sign-off');
    const first = await production.loopsctl(['content', 'push', root, '--only', 'components', '--yes']);
    expect(first.code, first.stderr).toBe(0);
    expect(await signOffs()).toHaveLength(2);
    for (let push = 0; push < 2; push++) {
      const again = await production.loopsctl(['content', 'push', root, '--only', 'components', '--yes']);
      expect(again.code, again.stderr).toBe(0);
      expect(await signOffs()).toHaveLength(2);
    }
    // Nor does the account the records came from get a third.
    expect((await staging.loopsctl(['content', 'push', root, '--only', 'components', '--yes'])).code).toBe(0);
    expect(
      (await staging.loopsctl(['components', 'list', '--json'])).json().filter((component: { name: string }) => component.name === 'Sign-off'),
    ).toHaveLength(2);
  });

  it('a record whose name several records of the account share is matched to none of them, and none is written', async () => {
    const staging = await sandboxes();
    const production = await sandboxes({ initialState: (modules) => ({ ...seedState(modules), teamName: 'Acme Production' }) });
    const root = await pulled(staging);
    const created = await production.loopsctl(['components', 'create', '--name', 'Footer', '--lmx-file', '-'], {
      input: '<Paragraph>Second footer</Paragraph>',
    });
    expect(created.code, created.stderr).toBe(0);
    writeFileSync(join(recordDir(root, 'components', FOOTER), 'component.lmx'), '<Paragraph>Staging footer</Paragraph>');
    const before = production.requests.length;
    const push = await production.loopsctl(['content', 'push', root, '--only', 'components', '--yes']);
    expect(push.stdout).toBe(
      `STATUS\tRECORD\tNOTE\nconflict\tcomponents/footer--${FOOTER}\tseveral records in the account have this name: rename them in the app so that one matches\n`,
    );
    expect(push.stderr).toBe('Pushed 0 records to Acme Production; 1 unchanged, 1 conflict.\n');
    expect(push.code).toBe(5);
    // Not even --force picks one of them.
    const forced = await production.loopsctl(['content', 'push', root, '--only', 'components', '--yes', '--force']);
    expect(forced.stdout).toContain('several records in the account have this name');
    expect(forced.stderr).toBe('Pushed 0 records to Acme Production; 1 unchanged, 1 conflict.\n');
    expect(forced.code).toBe(5);
    // The plan exits as the push does.
    const plan = await production.loopsctl(['content', 'push', root, '--only', 'components', '--plan']);
    expect(plan.stdout).toContain('would skip (several records in the account have this name');
    expect(plan.stderr).toBe('Plan for Acme Production: 0 to send, 1 skipped; nothing was sent.\n');
    expect(plan.code).toBe(5);
    expect(writes(production.requests.slice(before))).toEqual([]);
  });

  it('a record of the same name whose content the files never saw is a conflict there', async () => {
    const staging = await sandboxes();
    const production = await sandboxes({ initialState: (modules) => ({ ...seedState(modules), teamName: 'Acme Production' }) });
    const root = await pulled(staging);
    const footer = join(recordDir(root, 'components', FOOTER), 'component.lmx');
    writeFileSync(footer, '<Paragraph>Staging footer</Paragraph>');
    const push = await production.loopsctl(['content', 'push', root, '--only', 'components']);
    expect(push.code).toBe(5);
    expect(push.stderr).toBe('Pushed 0 records to Acme Production; 1 unchanged, 1 conflict.\n');
    expect(push.stdout).toMatch(/conflict\s+components\/footer--/);
    expect(writes(production.requests)).toEqual([]);
  });
});

describe('content files', () => {
  it('the digest covers what a push sends, not the published copy kept for review', () => {
    const a = new Map([
      ['draft.lmx', 'x'],
      ['published.lmx', 'y'],
    ]);
    const b = new Map([
      ['published.lmx', 'z'],
      ['draft.lmx', 'x'],
    ]);
    expect(digestOf(a)).toBe(digestOf(b));
    expect(digestOf(a)).not.toBe(digestOf(new Map([['draft.lmx', 'x2']])));
    expect(readRecords(contentDir(), ['components'])).toEqual([]);
  });
});
