import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../support/main.js';
import { sandboxEachTest } from '../../../support/recording.js';

const APP = 'test/examples/check-app';

/** Where text first stands in a file of the fixture app, 1-based. */
function locate(file: string, text: string): { file: string; line: number; column: number } {
  const lines = readFileSync(file, 'utf8').split('\n');
  const line = lines.findIndex((candidate) => candidate.includes(text));
  expect(line, `${text} in ${file}`).toBeGreaterThanOrEqual(0);
  return { file, line: line + 1, column: lines[line]!.indexOf(text) + 1 };
}

interface Found {
  rule: string;
  severity: string;
  kind: string;
  name: string;
  file?: string;
  line?: number;
  column?: number;
  message: string;
}

describe('check --code', () => {
  const openSandbox = sandboxEachTest();

  it('reports each planted mistake of the fixture app (TypeScript with the SDK, Python) at its line, and nothing of its right calls', async () => {
    const sandbox = await openSandbox();
    const result = await sandbox.loopsctl(['check', '--only', 'code', '--code', APP, '--json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    const found = result
      .json<Found[]>()
      .map(({ rule, file, line, column }) => ({ rule, file, line, column }))
      .sort((a, b) => a.file!.localeCompare(b.file!) || a.line! - b.line! || a.rule.localeCompare(b.rule));
    const ts = `${APP}/src/emails.ts`;
    const py = `${APP}/worker/mailer.py`;
    expect(found).toEqual([
      { rule: 'code-missing-data-variable', ...locate(ts, "'cc1hv1te56efs1g1ifrp90u0j'") },
      { rule: 'code-unpublished-transactional', ...locate(ts, "'clnbezeie7a6e97br15gg5obs'") },
      { rule: 'code-unknown-event', ...locate(ts, "'trial_startd'") },
      { rule: 'code-unknown-contact-property', ...locate(ts, 'company:') },
      { rule: 'code-unknown-mailing-list', ...locate(ts, 'cnolistwiththisid000000000') },
      { rule: 'code-unknown-transactional', ...locate(ts, "'cnotarealtransactional0000'") },
      { rule: 'code-missing-data-variable', ...locate(py, '"c1h3243uwicgpgajrgexlzdl5"') },
      { rule: 'code-unknown-data-variable', ...locate(py, '"c1h3243uwicgpgajrgexlzdl5"') },
    ]);
    const github = await sandbox.loopsctl(['check', '--only', 'code', '--code', APP, '--format', 'github']);
    const at = locate(ts, "'trial_startd'");
    expect(github.stdout).toContain(`::warning file=${ts},line=${at.line},col=${at.column},title=code-unknown-event%3A event trial_startd::`);
  });

  it('follows no symlink, skips files over 2 MB with a note, and reads files that are not valid UTF-8', async () => {
    const sandbox = await openSandbox();
    const root = tempDir();
    const app = join(root, 'app');
    const outside = join(root, 'outside');
    mkdirSync(app);
    mkdirSync(outside);
    writeFileSync(join(outside, 'send.js'), "loops.sendEvent({ email, eventName: 'from_outside' });\n");
    symlinkSync(outside, join(app, 'linked'));
    symlinkSync(join(outside, 'send.js'), join(app, 'linked.js'));
    writeFileSync(join(app, 'big.js'), `// ${'x'.repeat(2 * 1024 * 1024)}\nloops.sendEvent({ eventName: 'in_big_file' });\n`);
    writeFileSync(
      join(app, 'latin1.py'),
      Buffer.concat([Buffer.from('# caf\xe9\n', 'latin1'), Buffer.from('loops.send_event(email=e, event_name="after_bad_bytes")\n')]),
    );
    mkdirSync(join(app, 'node_modules'));
    writeFileSync(join(app, 'node_modules', 'dep.js'), "loops.sendEvent({ eventName: 'in_a_dependency' });\n");
    const result = await sandbox.loopsctl(['check', '--only', 'code', '--code', app, '--json']);
    const found = result.json<Found[]>();
    expect(found.filter((problem) => problem.rule === 'code-unknown-event').map((problem) => [problem.name, problem.line])).toEqual([['after_bad_bytes', 2]]);
    expect(found.filter((problem) => problem.rule === 'code-skipped').map((problem) => problem.name)).toEqual([
      join(app, 'big.js'),
      join(app, 'linked'),
      join(app, 'linked.js'),
    ]);
    expect(result.code).toBe(0);
  });

  it('reads files written to defeat a scanner within its budget, and names what it left unread (never exit 70)', async () => {
    const sandbox = await openSandbox();
    const app = tempDir();
    // A map type nested past the stack's depth, an unclosed map a million times over, a file over the token budget.
    writeFileSync(join(app, 'types.go'), `x := data_variables=${'[string'.repeat(250_000)}`);
    writeFileSync(join(app, 'maps.py'), 'data_variables={'.repeat(100_000));
    writeFileSync(join(app, 'deep.rb'), `send(event_name: "before_the_budget")\n${'['.repeat(1_100_000)}`);
    const result = await sandbox.loopsctl(['check', '--only', 'code', '--code', app, '--json']);
    expect(result.code).toBe(0);
    const found = result.json<(Found & { message: string })[]>();
    expect(found.filter((problem) => problem.rule === 'code-skipped').map(({ name, message }) => [name, message])).toEqual([
      [join(app, 'deep.rb'), 'not scanned: the rest from line 2, column 999995: over 1,000,000 tokens'],
    ]);
    expect(found.filter((problem) => problem.rule === 'code-unknown-event').map((problem) => problem.name)).toEqual(['before_the_budget']);
  });

  it('holds a send to a transactional id the account lacks for an error: the run fails', async () => {
    const sandbox = await openSandbox();
    const app = tempDir();
    writeFileSync(join(app, 'send.ts'), "await loops.sendTransactionalEmail({ transactionalId: 'cnotarealtransactional0000', email });\n");
    const result = await sandbox.loopsctl(['check', '--only', 'code', '--code', app, '--json']);
    expect(result.json<Found[]>().map(({ rule, severity }) => ({ rule, severity }))).toEqual([{ rule: 'code-unknown-transactional', severity: 'error' }]);
    expect(result.code).toBe(1);
    expect(result.json<Found[]>()[0]!.message).toContain('cnotarealtransactional0000');
  });

  it('refuses a --code path that is not a directory (exit 2) before reading the account', async () => {
    const sandbox = await openSandbox();
    const result = await sandbox.loopsctl(['check', '--code', join(tempDir(), 'missing')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--code');
    expect(sandbox.requests).toEqual([]);
  });
});
