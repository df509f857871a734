import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { seedId } from '../../../../src/emulator/module.js';
import { goInstalled, goRun, readGoPackage } from '../../../support/go-source.js';
import { tempDir } from '../../../support/main.js';
import { sandboxEachTest } from '../../../support/recording.js';

const WELCOME = seedId('transactional/Welcome');

/**
 * The compiler's errors under --strict for a program of these files, by file name, as messages.
 * One program for all the files a test checks, and the ES2022 library alone (no DOM): the compiler
 * is the slow part of this file, and a loaded two-core machine ran two programs past the time a test has.
 */
function compile(files: string[]): Map<string, string[]> {
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts'],
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: true,
    types: [],
  });
  const errors = new Map<string, string[]>(files.map((file) => [file.split('/').at(-1)!, []]));
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const name = diagnostic.file?.fileName.split('/').at(-1) ?? '';
    errors.set(name, [...(errors.get(name) ?? []), ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')]);
  }
  return errors;
}

describe('types', () => {
  const openSandbox = sandboxEachTest();

  it('writes a module that compiles with --strict and makes the compiler check a send', async () => {
    const sandbox = await openSandbox();
    const dir = tempDir();
    const module = join(dir, 'loops.generated.ts');
    const written = await sandbox.loopsctl(['types', '--out', module]);
    expect(written.code).toBe(0);
    expect(written.stdout).toBe('');
    const printed = await sandbox.loopsctl(['types']);
    expect(printed.stdout).toBe(readFileSync(module, 'utf8'));
    // The seed's published "Welcome" has a fallback for firstName: a send may leave it out.
    expect(printed.stdout).toContain(`  "Welcome": { id: "${WELCOME}", dataVariables: ["firstName", "loginUrl"], optionalDataVariables: ["firstName"] },`);
    // Not published: nothing can send it.
    expect(printed.stdout).not.toContain('Payment failed');
    expect(new Set(sandbox.requests.map((request) => request.method))).toEqual(new Set(['GET']));

    const app = join(dir, 'app.ts');
    writeFileSync(
      app,
      [
        "import { mailingLists, transactionalEmails, type SendEventParams, type SendTransactionalEmailParams } from './loops.generated';",
        "const id = transactionalEmails['Welcome'].id;",
        "export const welcome: SendTransactionalEmailParams<typeof id> = { transactionalId: id, email: 'ada@example.com', dataVariables: { firstName: 'Ada', loginUrl: 'https://app.example.com' } };",
        "export const link: SendTransactionalEmailParams = { transactionalId: transactionalEmails['Magic sign-in link'].id, email: 'ada@example.com', dataVariables: { signInUrl: 'x' } };",
        "export const trial: SendEventParams<'trial_started'> = { eventName: 'trial_started', email: 'ada@example.com', eventProperties: { seats: 3 }, mailingLists: { [mailingLists['Beta testers']]: true } };",
        '',
      ].join('\n'),
    );

    const wrong = join(dir, 'wrong.ts');
    writeFileSync(
      wrong,
      [
        "import { transactionalEmails, type SendEventParams, type SendTransactionalEmailParams } from './loops.generated';",
        "const id = transactionalEmails['Welcome'].id;",
        "export const missing: SendTransactionalEmailParams<typeof id> = { transactionalId: id, email: 'ada@example.com', dataVariables: { firstName: 'Ada' } };",
        "export const unknownId: SendTransactionalEmailParams = { transactionalId: 'cnotarealid', email: 'ada@example.com' };",
        "export const seats: SendEventParams<'trial_started'> = { eventName: 'trial_started', eventProperties: { seats: 'three' } };",
        '',
      ].join('\n'),
    );
    const byFile = compile([module, app, wrong]);
    expect(byFile.get('loops.generated.ts')).toEqual([]);
    expect(byFile.get('app.ts')).toEqual([]);
    const errors = byFile.get('wrong.ts')!;
    expect(errors).toHaveLength(3);
    expect(errors[0]).toContain("Property 'loginUrl' is missing");
    expect(errors[1]).toContain('"cnotarealid"');
    expect(errors[2]).toContain("Type 'string' is not assignable to type 'number'");
  });

  it('--check passes right after a write, and names what drifted once the account changes (exit 1)', async () => {
    const sandbox = await openSandbox();
    const module = join(tempDir(), 'loops.generated.ts');
    expect((await sandbox.loopsctl(['types', '--out', module])).code).toBe(0);
    const same = await sandbox.loopsctl(['types', '--out', module, '--check']);
    expect(same.code).toBe(0);
    sandbox.server.update((state) => {
      const emails = state.transactionalEmails as { record: { id: string; name: string; dataVariables: string[] } }[];
      const welcome = emails.find((email) => email.record.id === WELCOME)!;
      welcome.record.name = 'Welcome aboard';
      const reset = emails.find((email) => email.record.name === 'Password reset')!;
      reset.record.dataVariables.push('supportUrl');
    });
    const drifted = await sandbox.loopsctl(['types', '--out', module, '--check']);
    expect(drifted.code).toBe(1);
    expect(drifted.stderr).toContain('transactional email "Password reset": the file has');
    expect(drifted.stderr).toContain('"supportUrl"');
    expect(drifted.stderr).toContain('transactional email "Welcome aboard": in the account, not in the file');
    expect(drifted.stderr).toContain('transactional email "Welcome": in the file, no longer in the account');
    // One difference a line, not a literal "\n" between them.
    expect(drifted.stderr).toContain('any more:\ntransactional email ');
    expect(drifted.stderr).not.toContain('\\n');
    // --check writes nothing.
    expect(readFileSync(module, 'utf8')).not.toContain('Welcome aboard');
  });

  it("--check catches drift in every --format, keyed the same in every account (the name's slug)", async () => {
    const sandbox = await openSandbox();
    const dir = tempDir();
    const formats = ['json', 'env', 'py', 'go', 'rb'];
    for (const format of formats) {
      const file = join(dir, `loops.${format}`);
      expect((await sandbox.loopsctl(['types', '--format', format, '--out', file])).code).toBe(0);
      expect((await sandbox.loopsctl(['types', '--format', format, '--out', file, '--check'])).code).toBe(0);
    }
    const env = readFileSync(join(dir, 'loops.env'), 'utf8');
    expect(env).toContain(`LOOPS_TX_WELCOME='${WELCOME}'\n`);
    sandbox.server.update((state) => {
      const lists = state.mailingLists as { name: string }[];
      lists.find((list) => list.name === 'Beta testers')!.name = 'Beta';
    });
    for (const format of formats) {
      const drifted = await sandbox.loopsctl(['types', '--format', format, '--out', join(dir, `loops.${format}`), '--check']);
      expect(drifted.code, format).toBe(1);
      expect(drifted.stderr, format).toMatch(/in the file, not the account: .*beta.?testers/i);
      expect(drifted.stderr, format).toMatch(/in the account, not the file: .*beta/i);
      expect(drifted.stderr, format).toContain(`loopsctl types --format ${format} --out`);
    }
  });

  it('a later list whose name slugs the same renamed the constant an app already imports: the file keeps it, and --check names only the new one', async () => {
    const sandbox = await openSandbox();
    const dir = tempDir();
    const formats = ['json', 'env', 'py', 'go', 'rb'];
    for (const format of formats) expect((await sandbox.loopsctl(['types', '--format', format, '--out', join(dir, `loops.${format}`)])).code).toBe(0);
    const env = readFileSync(join(dir, 'loops.env'), 'utf8');
    const kept = /^LOOPS_LIST_BETA_TESTERS='(.+)'$/m.exec(env)![1]!;
    sandbox.server.update((state) => {
      const lists = state.mailingLists as { id: string; name: string }[];
      lists.push({ ...lists.find((list) => list.name === 'Beta testers')!, id: 'clistbetatesterstwo', name: 'Beta Testers' });
    });
    for (const format of formats) {
      const file = join(dir, `loops.${format}`);
      const drifted = await sandbox.loopsctl(['types', '--format', format, '--out', file, '--check']);
      expect(drifted.code, format).toBe(1);
      expect(drifted.stderr, format).toMatch(/in the account, not the file: .*clistbetatesterstwo/);
      expect(drifted.stderr, format).not.toContain('in the file, not the account');
      expect((await sandbox.loopsctl(['types', '--format', format, '--out', file])).code).toBe(0);
      expect((await sandbox.loopsctl(['types', '--format', format, '--out', file, '--check'])).code, format).toBe(0);
    }
    expect(readFileSync(join(dir, 'loops.env'), 'utf8')).toContain(`LOOPS_LIST_BETA_TESTERS='${kept}'\n`);
    expect(readFileSync(join(dir, 'loops.py'), 'utf8')).toContain(`LIST_BETA_TESTERS = "${kept}"\n`);
    expect(readFileSync(join(dir, 'loops.rb'), 'utf8')).toContain(`  LIST_BETA_TESTERS = "${kept}".freeze\n`);
    expect(readFileSync(join(dir, 'loops.go'), 'utf8')).toMatch(new RegExp(`\\tListBetaTesters += "${kept}"\\n`));
    expect(JSON.parse(readFileSync(join(dir, 'loops.json'), 'utf8')).mailingLists['beta-testers']).toBe(kept);
  });

  it("each --format loads in its language with the seed's events, whose names hold what each writes differently", async () => {
    const sandbox = await openSandbox();
    const dir = tempDir();
    const file = (format: string) => join(dir, `loops.${format}`);
    for (const format of ['json', 'env', 'py', 'go', 'rb']) expect((await sandbox.loopsctl(['types', '--format', format, '--out', file(format)])).code).toBe(0);
    const events = Object.values(JSON.parse(readFileSync(file('json'), 'utf8')).events as Record<string, { name: string }>).map((event) => event.name);
    // The seed's: quotes, a backslash, `$` and `#{`, a line break, a line separator, letters past ASCII, a keyword, two names that slug alike.
    expect(events).toEqual(expect.arrayContaining(['invoice "paid"', 'export\\path $HOME #{plan}', 'digest\nweekly', 'line\u2028separator', 'class']));
    expect(events).toContain('trial_started');
    expect(events).toContain('Trial Started!');
    const sorted = [...events].sort();

    // env: what Node's dotenv reader and the shell both read, every line a comment or NAME='value'.
    const env = readFileSync(file('env'), 'utf8');
    for (const line of env.trimEnd().split('\n')) expect(line).toMatch(/^(#.*|[A-Z][A-Z0-9_]*='[^'\n]*')$/);
    const fromEnv = parseEnv(env);
    expect(fromEnv.LOOPS_TX_WELCOME).toBe(WELCOME);
    expect(fromEnv.LOOPS_EVENT_EXPORT_PATH_HOME_PLAN).toBe('export\\path $HOME #{plan}');
    expect(env).toContain('# LOOPS_EVENT_DIGEST_WEEKLY left out');
    const shell = spawnSync('sh', ['-c', '. "$1" && printf %s "$LOOPS_EVENT_EXPORT_PATH_HOME_PLAN"', 'sh', file('env')], { encoding: 'utf8' });
    expect([shell.stderr, shell.stdout]).toEqual(['', 'export\\path $HOME #{plan}']);

    // py: run where Python is (CI has it); Go and Ruby run where their toolchains are, else read by their grammar.
    if (spawnSync('python3', ['--version']).status === 0) {
      const printed = spawnSync(
        'python3',
        [
          '-c',
          'import json, runpy, sys; ns = runpy.run_path(sys.argv[1]); print(json.dumps([[e["name"] for e in ns["EVENTS"].values()], ns["tx_welcome"]("ada@example.com", {"loginUrl": "https://x"})]))',
          file('py'),
        ],
        { encoding: 'utf8' },
      );
      expect(printed.stderr).toBe('');
      const [names, send] = JSON.parse(printed.stdout) as [string[], unknown];
      expect(names.sort()).toEqual(sorted);
      // What a send of the seed's "Welcome" takes: firstName has a fallback, loginUrl is required.
      expect(send).toEqual({ transactional_id: WELCOME, email: 'ada@example.com', data_variables: { loginUrl: 'https://x' } });
    } else console.warn('python3 is not on this machine: the py file was not run');
    const go = readGoPackage(readFileSync(file('go'), 'utf8'));
    expect(
      [...go.constants]
        .filter(([name]) => name.startsWith('Event'))
        .map(([, value]) => value)
        .sort(),
    ).toEqual(sorted);
    expect(go.structs.get('TxWelcomeData')!.map(({ name, json, omitempty }) => [name, json, omitempty])).toEqual([
      ['FirstName', 'firstName', true],
      ['LoginUrl', 'loginUrl', false],
    ]);
    const rubyLiterals = [...readFileSync(file('rb'), 'utf8').matchAll(/^ {2}EVENT_\w* = ("(?:[^"\\\n#]|\\["\\/bfnrt#]|\\u[0-9a-fA-F]{4})*")\.freeze$/gm)].map(
      (match) => JSON.parse(match[1]!.replace(/\\#/g, '#')) as string,
    );
    expect(rubyLiterals.sort()).toEqual(sorted);
    if (spawnSync('ruby', ['--version']).status === 0) {
      const printed = spawnSync(
        'ruby',
        ['-e', 'require "json"; load ARGV[0]; puts JSON.generate(Loops.constants.grep(/^EVENT_/).map { |c| Loops.const_get(c) })', file('rb')],
        { encoding: 'utf8' },
      );
      expect((JSON.parse(printed.stdout) as string[]).sort()).toEqual(sorted);
    } else console.warn('ruby is not on this machine: the rb file was read by its grammar only');
    if (goInstalled()) {
      const run = goRun(
        readFileSync(file('go'), 'utf8'),
        '\tbody, _ := json.Marshal(loops.TxWelcomeData{LoginUrl: "https://x"}.Payload("ada@example.com"))\n\tfmt.Println(string(body))',
      );
      expect([run.stderr, run.unformatted]).toEqual(['', '']);
      expect(JSON.parse(run.stdout)).toEqual({ transactionalId: WELCOME, email: 'ada@example.com', dataVariables: { loginUrl: 'https://x' } });
    } else console.warn('go is not on this machine: the go file was read by its grammar only');
  });

  it("keys the transactional emails by the content tree's directories (--tree), the same whatever the account calls them", async () => {
    const sandbox = await openSandbox();
    const root = join(tempDir(), 'loops');
    expect((await sandbox.loopsctl(['content', 'pull', root, '--only', 'transactional'])).code).toBe(0);
    const folder = readdirSync(join(root, 'transactional')).find((name) => name.endsWith(`--${WELCOME}`))!;
    // A directory renamed here keeps its record: the next pull records it under the new name.
    renameSync(join(root, 'transactional', folder), join(root, 'transactional', `sign-up--${WELCOME}`));
    expect((await sandbox.loopsctl(['content', 'pull', root, '--only', 'transactional'])).code).toBe(0);
    const env = await sandbox.loopsctl(['types', '--format', 'env', '--tree', root]);
    expect(env.code, env.stderr).toBe(0);
    expect(env.stdout).toContain(`LOOPS_TX_SIGN_UP='${WELCOME}'\n`);
    expect(env.stdout).not.toContain('LOOPS_TX_WELCOME=');
    const noTree = await sandbox.loopsctl(['types', '--format', 'env', '--tree', join(root, 'nowhere')]);
    expect([noTree.code, noTree.stderr]).toEqual([2, expect.stringContaining('holds no pulled content')]);
  });

  it('--check of a file that does not exist fails (exit 1) and says how to make it, writing nothing', async () => {
    const sandbox = await openSandbox();
    const module = join(tempDir(), 'loops.generated.ts');
    const result = await sandbox.loopsctl(['types', '--out', module, '--check']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${module} does not exist`);
    expect(result.stderr).toContain(`loopsctl types --out ${module}`);
    expect(existsSync(module)).toBe(false);
  });

  it('refuses --check without --out (exit 2)', async () => {
    const sandbox = await openSandbox();
    const result = await sandbox.loopsctl(['types', '--check']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--check compares with the file --out names');
    expect(sandbox.requests).toEqual([]);
  });
});
