import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordDigest } from '../../../../src/core/import-journal.js';
import { tempDir } from '../../../support/main.js';
import { expectDescribed, sandboxEachTest } from '../../../support/recording.js';

const openSandbox = sandboxEachTest();

async function sandbox() {
  const recording = await openSandbox();
  const creates = () => recording.requests.filter((request) => request.path === '/v1/contacts/create');
  return { ...recording, creates };
}

const CSV = [
  'email,firstName,plan,seats,betaOptIn,subscribed',
  'a1@example.com,"Smith, Jo",pro,3,true,',
  'a2@example.com,,trial,,false,false',
  'a3@example.com,Bad,pro,lots,,',
  'A1@example.com,Dup,,,,',
  '',
].join('\n');

describe('contacts import', () => {
  it('checks every record in a dry run and sends nothing', async () => {
    const { loopsctl, creates } = await sandbox();
    const file = join(tempDir(), 'contacts.csv');
    writeFileSync(file, CSV);
    const result = await loopsctl(['contacts', 'import', file, '--dry-run', '--json']);
    expect(result.code).toBe(2);
    expect(result.json()).toEqual({ dryRun: true, valid: 2, failed: 2 });
    expect(result.stderr).toContain('line 4: seats: "lots" is not a number');
    expect(result.stderr).toContain('line 5: A1@example.com appears earlier in the file');
    expect(creates()).toEqual([]);
  });

  it('creates one contact per valid row with typed custom properties, journals each outcome, and a rerun creates nothing again', async () => {
    const { loopsctl, creates, requests } = await sandbox();
    const file = join(tempDir(), 'contacts.csv');
    writeFileSync(file, CSV);
    const first = await loopsctl(['contacts', 'import', file, '--json']);
    expect(first.json()).toEqual({ created: 2, updated: 0, skipped: 0, failed: 2, journal: `${file}.journal.jsonl` });
    expect(first.code).toBe(2);
    expect(first.stderr).toBe('line 4: seats: "lots" is not a number\nline 5: A1@example.com appears earlier in the file\n');
    expect(creates().map((request) => request.body)).toEqual(
      expect.arrayContaining([
        { email: 'a1@example.com', firstName: 'Smith, Jo', plan: 'pro', seats: 3, betaOptIn: true },
        { email: 'a2@example.com', plan: 'trial', betaOptIn: false, subscribed: false },
      ]),
    );
    const journal = readFileSync(`${file}.journal.jsonl`, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(journal[0]).toMatchObject({ journal: 'loopsctl-import', kind: 'contacts', runId: expect.any(String) });
    expect(
      journal
        .filter((entry) => entry.status === 'created')
        .map((entry) => entry.line)
        .sort(),
    ).toEqual([2, 3]);

    const second = await loopsctl(['contacts', 'import', file, '--json']);
    expect(second.json()).toMatchObject({ created: 0, skipped: 2, failed: 2 });
    expect(creates()).toHaveLength(2);
    expectDescribed(requests);
  });

  it.each(['people.jsonl', 'people.NDJSON'])('reads %s as JSON Lines without --format, and any other name as CSV', async (name) => {
    const { loopsctl, creates } = await sandbox();
    const dir = tempDir();
    const lines = `${JSON.stringify({ email: 'json.lines@example.com', seats: 4 })}\n`;
    writeFileSync(join(dir, name), lines);
    const jsonLines = await loopsctl(['contacts', 'import', join(dir, name), '--json']);
    expect(jsonLines.stderr).toBe('');
    expect(jsonLines.json()).toMatchObject({ created: 1, failed: 0 });
    expect(creates().map((request) => request.body)).toEqual([{ email: 'json.lines@example.com', seats: 4 }]);
    // The same lines in a file of another name are read as CSV, where they are not valid.
    writeFileSync(join(dir, 'people.txt'), lines);
    const csv = await loopsctl(['contacts', 'import', join(dir, 'people.txt'), '--dry-run']);
    expect(csv.code).toBe(2);
    expect(csv.stderr).toContain('people.txt: line 1: a quote inside an unquoted field');
  });

  it('resumes a run that stopped mid-send: a create that went through is found, not sent again', async () => {
    const { loopsctl, creates, requests } = await sandbox();
    const dir = tempDir();
    const file = join(dir, 'contacts.jsonl');
    const ada = JSON.stringify({ email: 'ada@example.com', plan: 'pro' });
    writeFileSync(file, `${ada}\n${JSON.stringify({ email: 'b@example.com', seats: 2 })}\n`);
    // A run that sent record 1 (ada exists) and was killed before it wrote the outcome.
    writeFileSync(`${file}.journal.jsonl`, `${JSON.stringify({ journal: 'loopsctl-import', version: 2, kind: 'contacts', runId: 'r1', input: file })}\n`);
    appendFileSync(`${file}.journal.jsonl`, `${JSON.stringify({ n: 1, line: 1, d: recordDigest(ada), status: 'sending' })}\n{"n":2,"li`);
    const result = await loopsctl(['contacts', 'import', file, '--json']);
    expect(result.code).toBe(0);
    expect(result.json()).toMatchObject({ created: 1, skipped: 1, failed: 0 });
    expect(creates().map((request) => (request.body as { email: string }).email)).toEqual(['b@example.com']);
    expect(requests.some((request) => request.path === '/v1/contacts/find' && request.query.get('email') === 'ada@example.com')).toBe(true);
  });

  it('updates with --update, and refuses a column that is no property before sending anything', async () => {
    const { loopsctl, requests } = await sandbox();
    const dir = tempDir();
    const good = join(dir, 'changes.csv');
    writeFileSync(good, 'userId,seats\nusr_ada,30\n');
    const updated = await loopsctl(['contacts', 'import', good, '--update', '--json']);
    expect(updated.json()).toMatchObject({ updated: 1, failed: 0 });
    expect(requests.at(-1)).toMatchObject({ method: 'PUT', body: { userId: 'usr_ada', seats: 30 } });
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, 'email,favouriteColour\nx@example.com,blue\n');
    const refused = await loopsctl(['contacts', 'import', bad]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`Error: ${bad}: the column "favouriteColour" is not a contact property of the account`);
    expect(requests.filter((request) => request.method !== 'GET')).toHaveLength(1);
  });

  it('names the property a column was meant for, by a key in another case or by its label, and quotes a new one', async () => {
    const { loopsctl } = await sandbox();
    const dir = tempDir();
    const hintFor = async (header: string, readAs = '') => {
      const file = join(dir, 'headers.csv');
      writeFileSync(file, `email,${header}\nx@example.com,1\n`);
      const refused = await loopsctl(['contacts', 'import', file]);
      expect(refused.stderr, header).toContain(`the column "${header}"${readAs} is not a contact property of the account`);
      return /^Hint: (.*)$/m.exec(refused.stderr)?.[1];
    };
    expect(await hintFor('Plan')).toBe(
      'did you mean the property plan (labelled "Plan")? A property is named by its key, and case counts; or leave the column out (--map Plan=), or add --create-properties',
    );
    expect(await hintFor('PLAN')).toMatch(/^did you mean the property plan \(labelled "Plan"\)\?/);
    // Words with separators are read as one camelCase name, which the command creates.
    expect(await hintFor('Favourite Colour', ' (read as favouriteColour)')).toContain(
      '`loopsctl contact-properties create --name favouriteColour --type string`',
    );
  });

  it('shows progress on a terminal, and fetches no properties for a file of standard columns only', async () => {
    const { loopsctl, requests } = await sandbox();
    const file = join(tempDir(), 'plain.csv');
    writeFileSync(file, 'email,firstName\np1@example.com,P\np2@example.com,Q\n');
    const result = await loopsctl(['contacts', 'import', file], { tty: { columns: 80 } });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/done 2 of 2 · failed 0 · [\d.]+\/s/);
    expect(result.stdout).toContain('2 created, 0 updated, 0 skipped, 0 failed');
    expect(requests.map((request) => request.path)).toEqual(['/v1/contacts/create', '/v1/contacts/create']);
  });

  it('refuses a journal of another kind, and a missing input file', async () => {
    const { loopsctl } = await sandbox();
    const dir = tempDir();
    const file = join(dir, 'c.csv');
    writeFileSync(file, 'email\na@example.com\n');
    writeFileSync(join(dir, 'j.jsonl'), `${JSON.stringify({ journal: 'loopsctl-import', version: 2, kind: 'events', runId: 'r' })}\n`);
    const wrongKind = await loopsctl(['contacts', 'import', file, '--journal', join(dir, 'j.jsonl')]);
    expect(wrongKind.code).toBe(2);
    expect(wrongKind.stderr).toContain('it was written by `events import`, not by `contacts import`');
    const missing = await loopsctl(['contacts', 'import', join(dir, 'none.csv')]);
    expect(missing).toMatchObject({ code: 2, stderr: `Error: cannot read "${join(dir, 'none.csv')}": no such file\n` });
  });
});
