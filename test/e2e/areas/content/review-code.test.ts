/**
 * `content review --code <dir>`: each changed transactional email's sends in the app's source, as
 * `check --code` finds them, with the data variables the change adds that a send gives no value
 * for; in the JSON, the text and the page.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { run, tempDir } from '../../../support/main.js';
import { editTree, resetRepository, reviewRepository, TRANSACTIONAL } from '../../../support/review-tree.js';

let root: string;
let app: string;
beforeAll(() => {
  root = reviewRepository();
  app = tempDir('loopsctl-review-app-');
  mkdirSync(join(app, 'src'));
  // t01's id is cx1; t02's, cx2, which the change leaves alone.
  writeFileSync(
    join(app, 'src', 'mail.ts'),
    [
      "await loops.sendTransactionalEmail({ transactionalId: 'cx1', email: 'ada@example.com', dataVariables: { firstName: 'Ada' } });",
      "await loops.sendTransactionalEmail({ transactionalId: 'cx1', email: 'bo@example.com', dataVariables: { firstName: 'Bo', plan: 'pro' } });",
      "await loops.sendTransactionalEmail({ transactionalId: 'cx2', email: 'cy@example.com', dataVariables: { firstName: 'Cy' } });",
      '',
    ].join('\n'),
  );
});

describe('content review --code', () => {
  it('lists the sends of each changed transactional email, and the one that gives no value for a variable it adds', async () => {
    editTree(root, `${TRANSACTIONAL[0]}/draft.lmx`, 'It says something', 'It says something about your {data.plan} plan');
    const page = join(tempDir('loopsctl-review-code-'), 'review.html');
    const json = await run(['content', 'review', root, '--base', 'HEAD', '--code', join(app, 'src'), '--json']);
    const text = await run(['content', 'review', root, '--base', 'HEAD', '--code', join(app, 'src'), '--out', page]);
    resetRepository(root);
    expect(json.code, json.stderr).toBe(0);
    const emails = (JSON.parse(json.stdout) as { emails: { path: string; variables: object; callSites: object[] }[] }).emails;
    expect(emails.map((email) => email.path)).toEqual([TRANSACTIONAL[0]]);
    expect(emails[0]!.variables).toEqual({ added: ['data.plan'], removed: [] });
    const file = join(app, 'src', 'mail.ts');
    expect(emails[0]!.callSites).toEqual([
      { file, line: 1, column: expect.any(Number), gives: ['firstName'], missing: ['plan'], noLongerUsed: [] },
      { file, line: 2, column: expect.any(Number), gives: ['firstName', 'plan'], missing: [], noLongerUsed: [] },
    ]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stderr).toMatch(new RegExp(`T 01: sent at ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:1:\\d+ gives no value for plan\\n`));
    expect(text.stderr).not.toContain(':2:');
    const html = readFileSync(page, 'utf8');
    expect(html).toContain('Sent by the app (<code>--code</code>)');
    expect(html).toMatch(/mail\.ts:1:\d+ gives no value for plan/);
    expect(html).toMatch(/mail\.ts:2:\d+ gives what the email uses/);
  });
});
