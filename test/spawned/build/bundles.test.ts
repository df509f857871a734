/**
 * What the built CLI loads to start: help of every command comes from the main bundle alone, and
 * V8's code cache serves every start, also under V8 flags. Spawns bin/loopsctl.js (npm test builds
 * first); nothing here is timed.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { madeCompletionScript } from '../../../src/areas/completion/made.js';
import { SHELLS } from '../../../src/areas/completion/scripts.js';
import { specs } from '../../../src/areas/registry.js';
import { helpPages } from '../../../src/build/help-pages.js';
import { type Spec, walkSpecs } from '../../../src/core/declare.js';
import { seedId } from '../../../src/emulator/module.js';
import { openDeliveryStore } from '../../../src/webhooks/store/index.js';
import { BIN, HUNG_AFTER_MS } from '../../support/run-cli.js';
import { runInTerminal, script } from '../../support/run-in-terminal.js';
import { tempDir } from '../../support/temp.js';

/**
 * Runs bin/loopsctl.js in its process and records what it loads (test/support/record-loads.cjs):
 * with no Node flags, the run uses the code cache the build shipped, as a user's does.
 */
const RECORD_LOADS = resolve(import.meta.dirname, '../../support/record-loads.cjs');
const scratch = tempDir('loopsctl-startup-');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
// The runs against the sandbox read its state, seeded once here (a first run would seed it).
beforeAll(async () => expect(await spawnCli(['sandbox', 'reset'])).toMatchObject({ code: 0 }));

interface Spawned {
  code: number | null;
  stdout: string;
  stderr: string;
}

function spawnCli(args: string[], env: Record<string, string> = {}, bin = BIN): Promise<Spawned> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: scratch, LOOPSCTL_CONFIG_DIR: join(scratch, 'config'), XDG_CACHE_HOME: join(scratch, 'cache'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), HUNG_AFTER_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}

let plainStartRun: Promise<Spawned> | undefined;
/** A start of the program that prints the version and reports its code cache: one run, which two tests read. */
const plainStart = () => (plainStartRun ??= spawnCli(['--json', '--version'], { LOOPSCTL_REPORT_CODE_CACHE: '1' }));

/**
 * The completion script the build wrote for a shell, which the declarations make (checked below,
 * once: making one costs more than a run of the CLI).
 */
function shippedCompletion(shell: string): string {
  return readFileSync(resolve(BIN, `../../dist/completion/loopsctl.${shell}`), 'utf8');
}

/**
 * A copy of the built package (bin/, package.json and dist/) in the scratch directory, of the
 * files `keep` keeps, by their paths in the package: each file copied by the system (copyFileSync),
 * not read and written through the worker, and never linked, so that a run writing into the copy
 * cannot change the package's own.
 */
function packageCopy(name: string, keep: (file: string) => boolean): string {
  const root = resolve(BIN, '../..');
  const copy = join(scratch, name);
  const files = [
    'package.json',
    ...['bin', 'dist'].flatMap((dir) => readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' }).map((file) => join(dir, file))),
  ];
  for (const file of files.filter(keep)) {
    if (statSync(join(root, file)).isDirectory()) continue;
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    copyFileSync(join(root, file), join(copy, file));
  }
  return copy;
}

/** The words of every group and command, as typed before --help. */
function helpPaths(list: Spec[], prefix: string[] = []): string[][] {
  return list.flatMap((spec) => (spec.kind === 'group' ? [[...prefix, spec.name], ...helpPaths(spec.commands, [...prefix, spec.name])] : []));
}

/** Runs at most `width` of the jobs at a time, keeping their order in the results. */
async function inBatches<T, R>(items: T[], width: number, job: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += width) results.push(...(await Promise.all(items.slice(start, start + width).map(job))));
  return results;
}

const ON_A_TERMINAL = script.title('on a terminal at least 80 columns wide, prints the page, loading no bundle; on a narrower one, the program lays it out');

describe('--help of every command', () => {
  const paths = [[], ...helpPaths(specs), ...walkSpecs(specs).map(({ path }) => path)];
  const pages = helpPages(specs);
  /** The page of the command these words name, as the build wrote it. */
  const pageOf = (words: string[]) => pages.pages[words.reduce((at, word) => pages.nodes[at]!.words[word]!, 0)];

  it('off a terminal, prints the page the build wrote, loading no bundle', async () => {
    expect(paths.length).toBeGreaterThan(20);
    // What bin/loopsctl.js prints for every command's words, as it finds it: the page the build's
    // index leads to, which a pipe takes whole (half of what it holds: 32 KiB on Linux, else 16).
    const dist = resolve(BIN, '../../dist/help');
    const index = JSON.parse(readFileSync(join(dist, 'index.json'), 'utf8')) as { words: Record<string, number> }[];
    const pipeRoom = (process.platform === 'linux' ? 32 : 16) * 1024;
    const shipped = paths.map((path) => {
      const page = readFileSync(join(dist, `${path.reduce((at, word) => index[at]!.words[word]!, 0)}.txt`));
      expect(page.length, `loopsctl ${path.join(' ')} --help`).toBeLessThanOrEqual(pipeRoom);
      return page.toString('utf8');
    });
    expect(shipped).toEqual(paths.map(pageOf));
    // Runs of a sample print it with no bundle loaded: the first command at each depth, and the largest page.
    const depths = [...new Set(paths.map((path) => path.length))];
    const largest = paths[shipped.reduce((at, page, next) => (page.length > shipped[at]!.length ? next : at), 0)]!;
    const sample = [...new Set([...depths.map((depth) => paths.find((path) => path.length === depth)!), largest])];
    const loads = await inBatches(sample, 4, async (path) => {
      const file = join(scratch, `loads-${path.join('-') || 'root'}`);
      const result = await spawnCli([...path, '--help'], { LOADS_FILE: file }, RECORD_LOADS);
      expect(result, `loopsctl ${path.join(' ')} --help`).toEqual({ code: 0, stdout: pageOf(path), stderr: '' });
      return [`loopsctl ${[...path, '--help'].join(' ')}`, readFileSync(file, 'utf8').split('\n').filter(Boolean)] as const;
    });
    const expected = loads.map(([command]) => [command, []]);
    expect(loads).toEqual(expected);
  });

  it('off a terminal, prints the page for each way of asking for help, and nothing else for other words', async () => {
    const cases: [string[], string[]][] = [
      [[], []],
      [['-h'], []],
      [['help'], []],
      [['contacts'], ['contacts']],
      [
        ['contact', 'suppression'],
        ['contacts', 'suppression'],
      ],
      [
        ['help', 'contact', 'find'],
        ['contacts', 'find'],
      ],
      [
        ['workflow', 'nodes', '-h'],
        ['workflow', 'nodes'],
      ],
    ];
    for (const [args, words] of cases) {
      const file = join(scratch, `loads-form-${args.join('-') || 'none'}`);
      const result = await spawnCli(args, { LOADS_FILE: file }, RECORD_LOADS);
      expect(result, `loopsctl ${args.join(' ')}`).toEqual({ code: 0, stdout: pageOf(words), stderr: '' });
      expect(readFileSync(file, 'utf8'), `loopsctl ${args.join(' ')}`).toBe('');
    }
    // A command that is not a group runs, though named alone: `commands` lists every command.
    const file = join(scratch, 'loads-not-help');
    expect(await spawnCli(['commands'], { LOADS_FILE: file }, RECORD_LOADS)).toMatchObject({ stdout: expect.not.stringMatching(/^Usage:/) });
    expect(readFileSync(file, 'utf8').split('\n')).toContain('dist/cli.cjs');
  });

  it.skipIf(script.skip)(ON_A_TERMINAL, async () => {
    const loadsIn = (name: string) => ({ LOADS_FILE: join(scratch, name), NODE_OPTIONS: `--require ${RECORD_LOADS}` });
    for (const columns of [undefined, 80, 200]) {
      const result = await runInTerminal(['contacts', '--help'], loadsIn(`loads-terminal-${columns}`), undefined, columns);
      expect(result, `${columns} columns`).toEqual({ code: 0, stdout: pageOf(['contacts']), stderr: '' });
      expect(readFileSync(join(scratch, `loads-terminal-${columns}`), 'utf8'), `${columns} columns`).toBe('');
    }
    const narrow = await runInTerminal(['contacts', '--help'], loadsIn('loads-terminal-60'), undefined, 60);
    expect(narrow.code).toBe(0);
    expect(narrow.stdout).not.toBe(pageOf(['contacts']));
    expect(
      Math.max(
        ...narrow.stdout
          .split('\n')
          .filter((line) => !line.startsWith('  $ '))
          .map((line) => line.length),
      ),
    ).toBeLessThanOrEqual(60);
    expect(readFileSync(join(scratch, 'loads-terminal-60'), 'utf8').split('\n')).toContain('dist/cli.cjs');
  });

  it('goes to the program for words the pages do not answer, and without the pages', async () => {
    // A topic of `loopsctl help` is printed by the program.
    const file = join(scratch, 'loads-help-topic');
    const topic = await spawnCli(['help', 'exit-codes'], { LOADS_FILE: file }, RECORD_LOADS);
    expect(topic).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Exit codes:\n/), stderr: '' });
    expect(readFileSync(file, 'utf8').split('\n')).toEqual(['dist/cli.cjs']);
    // A copy of the package whose build wrote no pages prints the same help from the program.
    const copy = packageCopy('without-pages', (file) => !file.startsWith('dist/help/'));
    // The report of the code cache says which bundles ran: the group's declarations are its area's.
    const result = await spawnCli(['contacts', '--help'], { LOOPSCTL_REPORT_CODE_CACHE: '1' }, join(copy, 'bin/loopsctl.js'));
    const used = (bundle: string) => `code cache: used ${join(copy, 'dist', `${bundle}.${process.version}-${process.arch}.cache`)}\n`;
    expect(result).toEqual({ code: 0, stdout: pageOf(['contacts']), stderr: `${used('cli.cjs')}${used('areas-contacts.cjs')}` });
  });
});

describe('a command', () => {
  /** The bundled files a run loads, and how it ended: its exit code and the error message it printed, if any. */
  async function loads(args: string[], env: Record<string, string>): Promise<{ files: string[]; code: number | null; message: string | null }> {
    const file = join(scratch, `loads-${args.join('-').replace(/\W/g, '_')}`);
    const { code, stderr } = await spawnCli(args, { LOADS_FILE: file, ...env }, RECORD_LOADS);
    return { files: readFileSync(file, 'utf8').split('\n'), code, message: /^Error: .*$/m.exec(stderr)?.[0] ?? null };
  }

  it('that never calls the API loads its area, neither the API client nor the sandbox', async () => {
    const secret = { LOOPS_WEBHOOK_SECRET: 'whsec_bG9vcHNjdGwtdGVzdC1zZWNyZXQ=' };
    // The input it reads (stdin) is read by code in the main bundle; the secret, by the ground the
    // webhooks' areas share with deliveries (its replay signs with it too).
    expect(await loads(['webhooks', 'sign'], secret)).toEqual({
      files: ['dist/areas-webhooks-shared.cjs', 'dist/areas-webhooks.cjs', 'dist/cli.cjs'],
      code: 0,
      message: null,
    });
    // A completion script that a pipe takes whole is the build's file, printed without the program;
    // a larger one (zsh's) goes through the program, which waits for a slow reader without holding Ctrl-C.
    const bash = await spawnCli(['completion', 'bash'], { LOADS_FILE: join(scratch, 'loads-bash') }, RECORD_LOADS);
    expect(bash).toEqual({ code: 0, stdout: shippedCompletion('bash'), stderr: '' });
    expect(readFileSync(join(scratch, 'loads-bash'), 'utf8')).toBe('');
    expect(await loads(['completion', 'zsh'], {})).toEqual({ files: ['dist/areas-completion.cjs', 'dist/cli.cjs'], code: 0, message: null });
  });

  it('that names no group reads no area: the groups are declared by name from the main bundle', async () => {
    expect(await loads(['--json', '--version'], {})).toEqual({ files: ['dist/cli.cjs'], code: 0, message: null });
    expect(await loads(['workflw', 'list'], {})).toEqual({ files: ['dist/cli.cjs'], code: 2, message: "Error: unknown command 'workflw'" });
  });

  it("that writes a short text to a pipe, stdin the null device, loads none of Node's stream, socket or terminal modules", async () => {
    // The bash completion script (26 KB) counts as short on Linux, where a pipe holds 64 KiB.
    // (`webhooks sign` is not among them: its HMAC is node:crypto's, whose Hmac is a stream.)
    const completion = process.platform === 'linux' ? [['completion', 'bash']] : [];
    for (const args of [['--help'], ['transactional', '--help'], ['webhooks', '--help'], ...completion]) {
      const builtins = join(scratch, `builtins-${args.join('-')}`);
      expect((await loads(args, { BUILTINS_FILE: builtins })).code).toBe(0);
      const loaded = readFileSync(builtins, 'utf8').split('\n');
      expect(loaded).toContain('fs');
      expect(
        loaded.filter((name) => /^(stream|net|tty)$/.test(name)),
        `loopsctl ${args.join(' ')}`,
      ).toEqual([]);
    }
  });

  it('`content check` of an .lmx file loads its area, LMX and the default theme, and no area that calls the API', async () => {
    const email = join(scratch, 'welcome.lmx');
    writeFileSync(email, '<H1>Hello</H1>\n<Paragraph>Hi {contact.firstName}.</Paragraph>\n');
    // The tree's file reading has a bundle of its own; neither the API client (with zod), nor the
    // workflows' parser and rules, nor the API areas a pull or push calls are loaded.
    const check = await loads(['content', 'check', '--kind', 'campaign', email], {});
    expect(check).toEqual({
      files: [
        'dist/areas-content.cjs',
        'dist/areas-themes.cjs',
        'dist/cli.cjs',
        'dist/lmx.cjs',
        'dist/render.cjs',
        'dist/tree-files.cjs',
        'dist/vendor/icon-glyphs.cjs',
      ],
      code: 0,
      message: null,
    });
    // Whatever bundles hold them: none of what it loaded has zod, the API client or its transport
    // (a bundle names another's modules it may require as `other-bundle:`; their code is not in it).
    // The vendored files, which have no map, are named above: zod's is not among them.
    const sources = check.files
      .filter((file) => !file.startsWith('dist/vendor/'))
      .flatMap((file) => (JSON.parse(readFileSync(join(resolve(BIN, '../..'), `${file}.map`), 'utf8')) as { sources: string[] }).sources)
      .filter((source) => !source.startsWith('other-bundle:'));
    expect(sources.length).toBeGreaterThan(50);
    expect(sources.filter((source) => /node_modules\/zod\/|src\/api\/|src\/base\/zod\.ts/.test(source))).toEqual([]);
    // A workflow's directory brings the workflows' rules.
    const workflow = join(scratch, 'welcome-flow');
    mkdirSync(workflow, { recursive: true });
    writeFileSync(join(workflow, 'workflow.yaml'), 'name: Welcome\n');
    expect((await loads(['content', 'check', workflow], {})).files).toContain('dist/areas-workflows.cjs');
  });

  it('`deliveries` of a SQLite store loads its area, the store and the table writer: not the API client, zod, the config bundle or pg', async () => {
    const file = join(scratch, 'deliveries.db');
    const store = await openDeliveryStore(`sqlite:${file}`);
    const body = JSON.stringify({
      eventName: 'email.hardBounced',
      eventTime: 1_700_000_000,
      webhookSchemaVersion: '1.0.0',
      contactIdentity: { id: 'c_ada', email: 'ada@example.com', userId: null },
      email: { id: 'e_1', emailMessageId: 'm_1', subject: 'Hello' },
      sourceType: 'campaign',
    });
    await store.record({ webhookId: 'msg_bounce', receivedAt: new Date(), headers: {}, body, verified: true });
    await store.close();
    const local = ['dist/areas-deliveries.cjs', 'dist/cli.cjs', 'dist/delivery-store.cjs', 'dist/render.cjs'];
    const builtins = join(scratch, 'builtins-deliveries-find');
    const find = await loads(['deliveries', 'find', '--store', file, '--event', 'email.*', '--since', '2023-11-01'], { BUILTINS_FILE: builtins });
    expect(find).toEqual({ files: local, code: 0, message: null });
    // Nor Node's HTTP server and client, which only `webhooks listen` and a replay use; the store's
    // waits read the clock without perf_hooks.
    expect(
      readFileSync(builtins, 'utf8')
        .split('\n')
        .filter((name) => /^(_?https?|_http_\w+|net|stream|crypto|perf_hooks)$/.test(name)),
    ).toEqual([]);
    expect(await loads(['deliveries', 'show', 'msg_bounce', '--store', file], {})).toEqual({ files: local, code: 0, message: null });
    // stats reads the alert rules' rates, from the ground the webhooks' areas share.
    expect(await loads(['deliveries', 'stats', '--store', file], {})).toEqual({
      files: [...local, 'dist/areas-webhooks-shared.cjs'].sort(),
      code: 0,
      message: null,
    });
    const sources = local
      .flatMap((bundle) => (JSON.parse(readFileSync(join(resolve(BIN, '../..'), `${bundle}.map`), 'utf8')) as { sources: string[] }).sources)
      .filter((source) => !source.startsWith('other-bundle:'));
    expect(sources.filter((source) => /node_modules\/(zod|pg|pg-\w+)\/|src\/api\/|src\/base\/zod\.ts/.test(source))).toEqual([]);
    // A postgres:// store (nothing listens on port 9) loads the PostgreSQL client besides.
    const postgres = await loads(['deliveries', 'find', '--store', 'postgres://app:secret@127.0.0.1:9/deliveries'], {});
    expect(postgres).toEqual({
      files: [...local, 'dist/vendor/pg.cjs'],
      code: 2,
      message: 'Error: the store postgres://[redacted]@127.0.0.1:9/deliveries cannot be reached: nothing listens there (is PostgreSQL running?)',
    });
  });

  it('that calls the API adds the client, and no other area', async () => {
    // Nothing listens on port 9: the request fails (exit 7) after every bundle it needs has loaded.
    const args = ['ips', 'list', '--base-url', 'http://127.0.0.1:9', '--retries', '0'];
    expect(await loads(args, { LOOPS_API_KEY: 'test-key' })).toEqual({
      files: ['dist/areas-ips.cjs', 'dist/cli.cjs', 'dist/client.cjs', 'dist/vendor/zod.cjs'],
      code: 7,
      message: expect.stringContaining('Error: GET /v1/dedicated-sending-ips: could not connect to http://127.0.0.1:9 '),
    });
  });

  it('against the sandbox loads the emulator, and LMX only for a command that reads content', async () => {
    const builtins = join(scratch, 'builtins-sandbox-list');
    const list = await loads(['--sandbox', 'workflow', 'list'], { BUILTINS_FILE: builtins });
    expect(list.code).toBe(0);
    // A read of workflows loads no other area: not the mailing lists, segments and email messages
    // that the workflow edits check against, nor LMX; nor core.cjs, since the running of a listing
    // is with the writing of a list in render.cjs.
    expect(list.files).toEqual(['dist/areas-workflows.cjs', 'dist/cli.cjs', 'dist/client.cjs', 'dist/emulator.cjs', 'dist/render.cjs', 'dist/vendor/zod.cjs']);
    // Nor their declarations: a group's are in its area's bundle, and the main bundle holds only the top-level commands'.
    const mainSources: string[] = JSON.parse(readFileSync(resolve(BIN, '../../dist/cli.cjs.map'), 'utf8')).sources;
    const declarations = mainSources.map((source) => source.replace(/^(\.\.\/)+/, '')).filter((source) => /^src\/areas\/[\w-]+\/index\.ts$/.test(source));
    expect(declarations).toHaveLength(specs.filter((spec) => spec.kind === 'command').length);
    // The sandbox answers in this process: no HTTP server or client, and no OpenSSL for a seed that
    // exists; its pace and the client's read the clock without Node's perf_hooks.
    const loadedBuiltins = readFileSync(builtins, 'utf8').split('\n');
    expect(loadedBuiltins).toContain('fs');
    expect(loadedBuiltins.filter((name) => /^(_?https?|_http_\w+|crypto|perf_hooks)$/.test(name))).toEqual([]);
    const check = await loads(['--sandbox', 'email-messages', 'check', seedId('email-message/trial-ending')], {});
    expect(check.files).toContain('dist/lmx.cjs');
  });

  it('against the sandbox, `contacts find` loads neither the bulk machinery of an import nor its sockets and hashes', async () => {
    const builtins = join(scratch, 'builtins-sandbox-find');
    const find = await loads(['--sandbox', 'contacts', 'find', '--email', 'ada@example.com'], { BUILTINS_FILE: builtins });
    expect(find.code).toBe(0);
    // src/core/ (core.cjs) holds the journal and the bulk runner an import loads; a find needs neither.
    expect(find.files).not.toContain('dist/core.cjs');
    // Nor the custom properties a contact's writes are checked against: only the lists' area, whose
    // resolver names the lists Ada is on.
    expect(find.files).toEqual([
      'dist/areas-contacts.cjs',
      'dist/areas-lists.cjs',
      'dist/cli.cjs',
      'dist/client.cjs',
      'dist/emulator.cjs',
      'dist/render.cjs',
      'dist/vendor/zod.cjs',
    ]);
    const loadedBuiltins = readFileSync(builtins, 'utf8').split('\n');
    expect(loadedBuiltins).toContain('fs');
    expect(loadedBuiltins.filter((name) => /^(net|readline|crypto|stream)$/.test(name))).toEqual([]);
  });

  it("builds its schemas with zod's functional form, one copy of it that the CLI and both libraries share, and no classic zod", () => {
    // Classic zod installs its methods on each schema class a run meets (src/base/zod.ts): a
    // module that imported from 'zod' rather than src/base/zod.ts would bring them back into every
    // start. The MCP SDK's own bundle (dist/vendor/mcp-sdk.cjs) carries the classic zod its
    // protocol is written in, and loads only with `loopsctl mcp`.
    const dist = resolve(BIN, '../../dist');
    const own = [...readdirSync(dist).filter((name) => name.endsWith('.cjs')), 'vendor/zod.cjs', 'sandbox/sandbox.cjs', 'webhooks/index.cjs'];
    const text = (name: string) => readFileSync(join(dist, name), 'utf8');
    const defines = (name: string, zodClass: string) => text(name).includes(`$constructor("${zodClass}"`);
    expect(own.filter((name) => defines(name, 'ZodMiniType'))).toEqual(['vendor/zod.cjs']);
    expect(own.filter((name) => defines(name, 'ZodType'))).toEqual([]);
    for (const [library, shared] of [
      ['client.cjs', './vendor/zod.cjs'],
      ['sandbox/sandbox.cjs', '../vendor/zod.cjs'],
      ['webhooks/index.cjs', '../vendor/zod.cjs'],
    ])
      expect(text(library!)).toContain(`require("${shared}")`);
  });
  it('against the sandbox, for a workflow edit, loads the areas it checks against, and the edit goes through', async () => {
    // Each run is a new process, so each request loads only its own route modules and what its operation uses.
    const file = join(scratch, 'loads-workflow-create');
    const args = ['--sandbox', 'workflow', 'create', '--name', 'Loads its uses', '--list', seedId('mailing-list/Product updates'), '--json'];
    const created = await spawnCli(args, { LOADS_FILE: file }, RECORD_LOADS);
    expect(created.code).toBe(0);
    expect(readFileSync(file, 'utf8').split('\n')).toEqual(
      expect.arrayContaining(['dist/areas-lists.cjs', 'dist/areas-segments.cjs', 'dist/areas-email-messages.cjs']),
    );
    const { id, rootNodeId } = JSON.parse(created.stdout) as { id: string; rootNodeId: string };
    // A send-email node comes with an email message of its own, which another area keeps.
    const added = await loads(['--sandbox', 'workflow', 'nodes', 'add', id, '--type', 'SendEmailAction', '--after', rootNodeId], {});
    expect(added).toMatchObject({ code: 0, message: null });
  });

  it('with --jq, starts jq only for an expression that is more than a path to strings', async () => {
    // jq runs in a worker thread: node:worker_threads is loaded only to start it.
    const builtinsOf = async (expression: string) => {
      const file = join(scratch, `builtins-jq-${expression.replace(/\W/g, '_')}`);
      expect((await loads(['--sandbox', 'themes', 'list', '--jq', expression], { BUILTINS_FILE: file })).code).toBe(0);
      return readFileSync(file, 'utf8').split('\n');
    };
    expect(await builtinsOf('.[].name')).not.toContain('worker_threads');
    expect(await builtinsOf('.[].name | length')).toContain('worker_threads');
  });

  it('whose key is in the config file loads no keychain module, and a proxy no bundle of its own', async () => {
    const config = join(scratch, 'file-key');
    mkdirSync(config, { mode: 0o700 });
    writeFileSync(join(config, 'config.json'), JSON.stringify({ profiles: { default: { keyStorage: 'file', apiKey: 'test-key' } } }), { mode: 0o600 });
    const args = ['ips', 'list', '--base-url', 'http://127.0.0.1:9', '--retries', '0'];
    const direct = await loads(args, { LOOPSCTL_CONFIG_DIR: config, HTTPS_PROXY: 'http://127.0.0.1:9', NO_PROXY: '' });
    expect(direct).toEqual({
      files: ['dist/areas-ips.cjs', 'dist/cli.cjs', 'dist/client.cjs', 'dist/config.cjs', 'dist/vendor/zod.cjs'],
      code: 7,
      message: expect.stringContaining('could not connect to http://127.0.0.1:9 '),
    });
    // Through a proxy (that is not there: exit 10), the same bundles; a key in the keychain brings its module.
    const proxied = await loads([...args, '--proxy', 'http://127.0.0.1:9'], { LOOPSCTL_CONFIG_DIR: config });
    expect(proxied).toEqual({
      files: ['dist/areas-ips.cjs', 'dist/cli.cjs', 'dist/client.cjs', 'dist/config.cjs', 'dist/vendor/zod.cjs'],
      code: 10,
      message: expect.stringContaining('could not connect to the proxy http://127.0.0.1:9 (--proxy)'),
    });
    writeFileSync(join(config, 'config.json'), JSON.stringify({ profiles: { default: { keyStorage: 'keychain', keychainAccount: 'default@test' } } }), {
      mode: 0o600,
    });
    const keychain = await loads(args, { LOOPSCTL_CONFIG_DIR: config, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent', XDG_RUNTIME_DIR: scratch });
    expect(keychain.files).toContain('node_modules/@napi-rs/keyring');
    expect(keychain.code).toBe(3);
    expect(keychain.message).toMatch(/^Error: the key of profile "default" is in the system keychain, which could not be read/);
  });
});

describe('the built bundle', () => {
  it('ships the completion script that the declarations make for each shell', () => {
    // Both print the script the build wrote (dist/completion/): bin/loopsctl.js one a pipe takes
    // whole (bash's, run above), the bundle any other (zsh's, run above and below).
    expect(SHELLS.map(shippedCompletion)).toEqual(SHELLS.map((shell) => madeCompletionScript(shell, specs)));
  });

  it('carries the package version, which the build writes in', async () => {
    const { version } = JSON.parse(readFileSync(resolve(BIN, '../../package.json'), 'utf8')) as { version: string };
    // With another option beside it, --version is answered by the bundle, not by bin/loopsctl.js.
    expect(await plainStart()).toMatchObject({ code: 0, stdout: `${version}\n` });
  });
});

describe('the code cache', () => {
  const report = { LOOPSCTL_REPORT_CODE_CACHE: '1' };

  // Help off a terminal is printed from the build's pages, without the program: these runs start it.
  const programStart = ['--json', '--version'];

  it('shipped with the bundle serves a plain start', async () => {
    const result = await plainStart();
    expect(result.code).toBe(0);
    // The report is all it writes to stderr.
    expect(result.stderr).toBe(`code cache: used ${resolve(BIN, `../../dist/cli.cjs.${process.version}-${process.arch}.cache`)}\n`);
  });

  it('names each bundle where it is, in a stack trace through code from the shipped cache, not where the build made it', async () => {
    // V8 keeps the name a script was compiled under in its cache, over the name a later run gives.
    const probe = join(scratch, 'stack-probe.cjs');
    writeFileSync(
      probe,
      [
        "const fs = require('node:fs');",
        'const writeSync = fs.writeSync;',
        'let shown = false;',
        'fs.writeSync = function (...args) {',
        "  if (!shown) (shown = true), process.stderr.write(`${new Error('probe').stack}\\n`);",
        '  return writeSync.apply(this, args);',
        '};',
        `require(${JSON.stringify(BIN)});`,
      ].join('\n'),
    );
    const result = await spawnCli(['webhooks', 'sign'], { ...report, LOOPS_WEBHOOK_SECRET: 'whsec_bG9vcHNjdGwtdGVzdC1zZWNyZXQ=' }, probe);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`code cache: used ${resolve(BIN, `../../dist/cli.cjs.${process.version}-${process.arch}.cache`)}\n`);
    expect(result.stderr).toContain(` (${resolve(BIN, '../../dist/cli.cjs')}:`);
    expect(result.stderr).not.toContain('.build-');
  });

  it('is written for the Node flags in use, where the shipped one cannot serve, and used from the next run on', async () => {
    const cache = join(scratch, 'flags-cache');
    const env = { ...report, NODE_OPTIONS: '--max-old-space-size=300', XDG_CACHE_HOME: cache };
    const first = await spawnCli(programStart, env);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/^code cache: not used \(none yet for .*\/dist\/cli\.cjs\)\n$/);
    const second = await spawnCli(programStart, env);
    expect(second.stdout).toBe(first.stdout);
    expect(second.stderr).toMatch(new RegExp(`^code cache: used ${cache}/loopsctl/cli@[^/]+\\.cache\\n$`));
    // Other flags, another cache beside it; the first stays.
    const other = await spawnCli(programStart, { ...env, NODE_OPTIONS: '--max-old-space-size=400' });
    expect(other.stderr).toMatch(/not used/);
    expect((await spawnCli(programStart, env)).stderr).toMatch(/^code cache: used /);
  });

  it('written by a run, grows with the first run of another kind, and is left as it is by the runs after', async () => {
    const cache = join(scratch, 'grown-cache');
    const env = { ...report, NODE_OPTIONS: '--max-old-space-size=300', XDG_CACHE_HOME: cache };
    const cliCache = () => {
      const [file] = readdirSync(join(cache, 'loopsctl')).filter((name) => name.startsWith('cli@'));
      return statSync(join(cache, 'loopsctl', file!));
    };
    expect((await spawnCli(programStart, env)).code).toBe(0);
    const first = cliCache();
    // A listing meets the workflows' area and the client for the first time: the main bundle's
    // cache, which served it, is written again with what the listing compiled of it.
    const listing = await spawnCli(['--sandbox', 'workflow', 'list'], env);
    expect(listing.code, listing.stderr).toBe(0);
    expect(listing.stderr).toMatch(/^code cache: used .*\/cli@[^/]+\.cache$/m);
    expect(listing.stderr).toMatch(/^code cache: not used \(none yet for .*\/dist\/client\.cjs\)$/m);
    const grown = cliCache();
    expect(grown.ino).not.toBe(first.ino);
    expect(grown.size).toBeGreaterThan(first.size);
    // Every cache served the same listing again: nothing is written.
    const again = await spawnCli(['--sandbox', 'workflow', 'list'], env);
    expect(again.stderr).not.toMatch(/not used/);
    expect(cliCache().ino).toBe(grown.ino);
  });

  it('serves every bundle read after one larger than the buffer the reads share', async () => {
    // Sources and caches are read into one buffer, each source before its cache, made anew for a
    // file larger than it: client.cjs, loaded after two others, grown past 512 KiB with a comment.
    const copy = packageCopy('large-bundle', (file) => !file.startsWith('dist/client.cjs.'));
    writeFileSync(join(copy, 'dist/client.cjs'), `${readFileSync(join(copy, 'dist/client.cjs'), 'utf8')}\n//${'x'.repeat(600 * 1024)}\n`);
    const env = { ...report, XDG_CACHE_HOME: join(scratch, 'large-bundle-cache') };
    const bin = join(copy, 'bin/loopsctl.js');
    const [first, second] = [await spawnCli(['--sandbox', 'workflow', 'list'], env, bin), await spawnCli(['--sandbox', 'workflow', 'list'], env, bin)];
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe((await spawnCli(['--sandbox', 'workflow', 'list'])).stdout);
    const shipped = first.stderr.split('\n').filter((line) => line.startsWith(`code cache: used ${join(copy, 'dist')}`));
    expect(shipped).toHaveLength(5);
    expect(first.stderr).toMatch(/^code cache: not used \(none yet for .*\/dist\/client\.cjs\)$/m);
    // The cache the first run wrote of the large bundle, read into the buffer too.
    expect(second.stdout).toBe(first.stdout);
    expect(second.stderr).toMatch(/^code cache: used .*\/large-bundle-cache\/loopsctl\/client@[^/]+\.cache$/m);
    expect(second.stderr).not.toMatch(/not used/);
  });

  it('runs a bundle the npm package keeps compressed, as the package keeps its vendored ones', async () => {
    // src/build/release.mjs compresses the bundles few runs read (dist/vendor/mcp-sdk.cjs.br).
    const copy = packageCopy('compressed-bundle', (file) => !file.startsWith('dist/areas-webhooks.cjs'));
    writeFileSync(join(copy, 'dist/areas-webhooks.cjs.br'), brotliCompressSync(readFileSync(resolve(BIN, '../../dist/areas-webhooks.cjs'))));
    const secret = { LOOPS_WEBHOOK_SECRET: 'whsec_bG9vcHNjdGwtdGVzdC1zZWNyZXQ=' };
    const sign = ['webhooks', 'sign', '--id', 'msg_1', '--timestamp', '1700000000'];
    const signed = await spawnCli(sign, { ...report, ...secret }, join(copy, 'bin/loopsctl.js'));
    expect(signed.code, signed.stderr).toBe(0);
    expect(signed.stdout).toBe((await spawnCli(sign, secret)).stdout);
    expect(signed.stderr).toMatch(/^code cache: not used \(none yet for .*\/compressed-bundle\/dist\/areas-webhooks\.cjs\)$/m);
  });

  describe('recorded by the build', () => {
    const secret = { LOOPS_WEBHOOK_SECRET: 'whsec_bG9vcHNjdGwtdGVzdC1zZWNyZXQ=' };
    /** The build's order to record the commands, with the module that records them (never shipped). */
    const recording = (commands: object) => JSON.stringify({ recorder: resolve(BIN, '../../src/build/record-code-cache.cjs'), ...commands });
    /** A copy of the package without its caches, and the caches a recording wrote there. */
    function copyWithoutCaches(name: string): { bin: string; caches: () => string[] } {
      const copy = packageCopy(name, (file) => !file.endsWith('.cache'));
      return { bin: join(copy, 'bin/loopsctl.js'), caches: () => readdirSync(join(copy, 'dist')).filter((file) => file.endsWith('.cache')) };
    }

    it('runs every command it is given to its end, then writes a cache for every bundle', async () => {
      const { bin, caches } = copyWithoutCaches('recording');
      const commands = { starts: [['completion', 'bash'], ['webhooks', 'sign'], ['--help']] };
      const result = await spawnCli([], { ...secret, LOOPSCTL_RECORD_CODE_CACHE: recording(commands) }, bin);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      // Each command's output, in order: the completion script, the signature headers, the help.
      const completion = shippedCompletion('bash');
      expect(result.stdout.startsWith(completion)).toBe(true);
      expect(result.stdout.slice(completion.length)).toMatch(/^webhook-id: msg_.*\nwebhook-timestamp: \d+\nwebhook-signature: v1,.*\nUsage: loopsctl /);
      const bundles = readdirSync(resolve(BIN, '../../dist')).filter((file) => file.endsWith('.cjs'));
      expect(caches().sort()).toEqual(bundles.map((bundle) => `${bundle}.${process.version}-${process.arch}.cache`).sort());
    });

    it('fills, with the commands after the starts, only the bundles no start ran', async () => {
      const { bin } = copyWithoutCaches('recording-requests');
      const cacheSize = (bundle: string) => statSync(join(dirname(bin), '../dist', `${bundle}.${process.version}-${process.arch}.cache`)).size;
      const recorded = async (commands: object) => {
        const result = await spawnCli([], { LOOPSCTL_RECORD_CODE_CACHE: recording(commands) }, bin);
        expect(result).toMatchObject({ code: 0, stderr: '' });
        return { cli: cacheSize('cli.cjs'), client: cacheSize('client.cjs') };
      };
      const startsOnly = await recorded({ starts: [['--help']] });
      const withListing = await recorded({ starts: [['--help']], requests: [['--sandbox', 'workflow', 'list']] });
      const listingAsStart = await recorded({ starts: [['--help'], ['--sandbox', 'workflow', 'list']] });
      // The listing compiles much of the client, which help never loads: its cache holds that bytecode.
      expect(withListing.client).toBeGreaterThan(startsOnly.client * 1.2);
      // The main bundle's cache is the one help left (V8's caches differ by a few bytes from one
      // run to the next), not the larger one the listing would leave, as it does when it is a start
      // (some 4% larger: the listing compiles little of the declarations that make most of the bundle).
      expect(listingAsStart.cli).toBeGreaterThan(startsOnly.cli * 1.03);
      expect(Math.abs(withListing.cli - startsOnly.cli)).toBeLessThan(startsOnly.cli * 0.01);
    });

    it('ships, for the bundles of `deliveries find`, what that command compiled', async () => {
      // A recording that never runs them leaves each only the cache of its top level.
      const { bin } = copyWithoutCaches('recording-no-deliveries');
      const result = await spawnCli([], { LOOPSCTL_RECORD_CODE_CACHE: recording({ starts: [['--help']] }) }, bin);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      const cache = (root: string, bundle: string) => statSync(join(root, 'dist', `${bundle}.${process.version}-${process.arch}.cache`)).size;
      for (const bundle of ['areas-deliveries.cjs', 'delivery-store.cjs'])
        expect(cache(resolve(BIN, '../..'), bundle), bundle).toBeGreaterThan(cache(join(dirname(bin), '..'), bundle) * 2);
    });

    it('fails, writing no cache, when a command fails', async () => {
      const { bin, caches } = copyWithoutCaches('failed-recording');
      const commands = { starts: [['--help'], ['webhooks', 'sign'], ['completion', 'bash']] };
      const result = await spawnCli([], { LOOPSCTL_RECORD_CODE_CACHE: recording(commands) }, bin);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/no webhook secret[\s\S]*recording the code cache stopped after `loopsctl webhooks sign` \(exit 2\)\n$/);
      expect(result.stdout).not.toMatch(/# bash completion/);
      expect(caches()).toEqual([]);
    });
  });

  it('never stands in the way when the cache directory cannot be written', async () => {
    const notADirectory = join(scratch, 'a-file');
    writeFileSync(notADirectory, '');
    const env = { NODE_OPTIONS: '--max-old-space-size=300', XDG_CACHE_HOME: notADirectory };
    const result = await spawnCli(['completion', 'zsh'], env);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe(shippedCompletion('zsh'));
    expect(existsSync(join(notADirectory, 'loopsctl'))).toBe(false);
  });
});
