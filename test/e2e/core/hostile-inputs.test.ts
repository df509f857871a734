/**
 * Malformed input is the person's mistake (exit 2, or 1 where a check fails), never "a bug in
 * loopsctl" (exit 70). Every command of the tree, found from the declarations so that a new one is
 * covered without a line here, is run with each of a set of hostile values in every argument and
 * option it declares: files (an alias bomb, broken JSON, a link, binary bytes, a content tree with
 * a workflow directory whose id does not decode) and text (`__proto__`, broken escapes, numbers
 * JSON cannot hold, control characters). Then the files read without being named on the command
 * line or named by an option of choices: imports whose columns are the names every object has, with
 * each preset and format, and the sandbox's state file holding each hostile file.
 */
import { copyFileSync, lstatSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specs } from '../../../src/areas/registry.js';
import { type CommandSpec, longFlag, type OptionSpec, walkSpecs } from '../../../src/core/declare.js';
import { GLOBAL_OPTIONS } from '../../../src/core/program.js';
import { defaultStatePath } from '../../../src/emulator/index.js';
import { ALIAS_BOMB } from '../../support/hostile.js';
import { run, tempDir } from '../../support/main.js';

/**
 * Commands that serve until stopped (given inputs they accept, they would never end) or open the
 * person's browser: their refusals of bad input have tests of their own.
 */
const NOT_RUN: Record<string, string> = {
  'sandbox serve': 'serves until stopped',
  'webhooks listen': 'serves until stopped',
  'content preview': 'serves until stopped',
  mcp: 'serves until its input ends',
};
const opensBrowser = (path: string[]) => path[0] === 'open';

const TEXTS = [
  '',
  '__proto__',
  'evil--%E0%A4%A',
  '{"__proto__": {"polluted": true}, "email": "a@example.com"}',
  '__proto__=x',
  '__proto__:={"polluted":true}',
  'constructor:=1e999',
  '-1',
  '\u0000\u001b[2J',
  // A path that climbs: from the runs' working directory (two levels down a directory of the
  // test's own) it stays inside that directory. Never one that reaches the machine's files: a
  // command told to write its state there would replace them.
  '../../climbed',
];

/** The hostile files, made once: each text above is run with one of them in the file inputs. */
function hostileFiles(dir: string): string[] {
  const file = (name: string, content: string | Buffer) => {
    writeFileSync(join(dir, name), content);
    return join(dir, name);
  };
  const secret = file('secret', 'token = 0000-not-a-real-secret\n');
  const link = join(dir, 'link.json');
  symlinkSync(secret, link);
  // A content tree: a workflow whose directory's id does not decode, holding an alias bomb.
  const tree = join(dir, 'loops');
  mkdirSync(join(tree, 'workflows', 'evil--%E0%A4%A'), { recursive: true });
  writeFileSync(join(tree, 'workflows', 'evil--%E0%A4%A', 'workflow.yaml'), ALIAS_BOMB);
  mkdirSync(join(tree, 'workflows', 'bomb'), { recursive: true });
  writeFileSync(join(tree, 'workflows', 'bomb', 'workflow.yaml'), ALIAS_BOMB);
  writeFileSync(join(tree, 'loops.check.yaml'), ALIAS_BOMB);
  return [
    file('bomb.yaml', ALIAS_BOMB),
    file('broken.json', '{"__proto__": {"polluted": true}, "a": [1e999, '),
    link,
    file('binary.bin', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xfe])),
    tree,
    join(tree, 'workflows', 'evil--%E0%A4%A'),
    join(tree, 'workflows', 'bomb', 'workflow.yaml'),
    join(dir, 'no-such-file'),
    file('empty.json', ''),
    file('proto.json', '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}'),
  ];
}

const takesValue = (option: OptionSpec) => option.flags.includes('<');

/**
 * The ways a hostile value is given, since one refused input ends a run before the others are read:
 * in every argument and option (parsers aside, whose refusal comes first), in the parsed options
 * too, and in the files alone (with what is required), so that the readers of files are reached.
 */
const VARIANTS = ['everywhere', 'parsed too', 'files alone'] as const;
type Variant = (typeof VARIANTS)[number];

/** The command line for one hostile value, in one of the variants. */
function argvFor(path: string[], spec: CommandSpec, text: string, file: string, variant: Variant): string[] {
  const argv = [...path];
  for (const arg of spec.args ?? []) {
    if (arg.file !== undefined) argv.push(file);
    else if (variant !== 'files alone' || arg.required !== false) argv.push(text);
  }
  for (const option of spec.options ?? []) {
    if (!takesValue(option)) continue;
    if (option.choices !== undefined) {
      if (option.required) argv.push(longFlag(option), option.choices[0]!);
    } else if (option.file !== undefined) argv.push(longFlag(option), file);
    else if (option.required || (variant === 'everywhere' && option.parse === undefined) || variant === 'parsed too') argv.push(longFlag(option), text);
  }
  if (spec.remote) argv.push('--sandbox');
  if ((spec.options ?? []).some((option) => longFlag(option) === '--yes')) argv.push('--yes');
  return argv;
}

const commands = walkSpecs(specs).filter(({ path }) => NOT_RUN[path.join(' ')] === undefined && !opensBrowser(path));
const byArea = new Map<string, typeof commands>();
for (const found of commands) byArea.set(found.path[0]!, [...(byArea.get(found.path[0]!) ?? []), found]);

let files: string[];
let cwd: string;
/**
 * What every run is given: a home of its own, since a command given nothing (skill install with no
 * --agent) writes where the home says; the config directory is one as a run of its own finds it (configDirFor).
 */
let env: Record<string, string>;
/** A config directory whose sandbox state the first `--sandbox` run made: each such run starts from a copy. */
let seeded: string;
beforeAll(async () => {
  const home = tempDir();
  env = { HOME: home, USERPROFILE: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_CACHE_HOME: join(home, '.cache') };
  files = hostileFiles(tempDir());
  // A hostile text can be a relative path a command writes to (sandbox --state): the runs write in a directory of their own.
  cwd = process.cwd();
  const runsIn = join(tempDir(), 'a', 'b');
  mkdirSync(runsIn, { recursive: true });
  process.chdir(runsIn);
  seeded = tempDir();
  expect((await run(['--sandbox', 'lists', 'list'], { env: { ...env, LOOPSCTL_CONFIG_DIR: seeded } })).code).toBe(0);
});

/**
 * What a directory holds, each entry by name, inode, size and time of change: equal only while nothing in it changed.
 * A database's shared memory (-shm) is left out: a read changes it, and it holds nothing the next run reads as state.
 */
function contentsOf(dir: string): string {
  return readdirSync(dir)
    .filter((name) => !name.endsWith('-shm'))
    .map((name) => {
      const entry = lstatSync(join(dir, name));
      // Each run's opening of a database changes its write-ahead log's time of change (its mode is set), not what it holds.
      return `${name} ${entry.ino} ${entry.size} ${entry.mtimeMs} ${name.endsWith('-wal') ? '' : entry.ctimeMs}`;
    })
    .join('\n');
}

/**
 * Whether a run reads the sandbox's state where it is kept by default: a `--sandbox` run, and a
 * command of `sandbox` (one given --state reads that file instead, and leaves the copy as it was).
 * The state made where there is none yet has runs of its own: the first here, and those below of a
 * state file that is missing.
 */
const usesSandboxState = (argv: string[]) => argv.includes('--sandbox') || argv[0] === 'sandbox';

/** The config directories runs share, for those that read the sandbox's state (a copy of the seeded one) and the others (empty), with what each held when made. */
const kept = new Map<boolean, { dir: string; contents: string }>();

/**
 * A connection held open on the shared sandbox state, as a server holds one: each run's is then not
 * the last, which would checkpoint the database and remove its write-ahead log and shared memory,
 * for the next run to make again.
 */
let holding: DatabaseSync | undefined;
afterAll(() => holding?.close());

/**
 * A config directory as a run of its own would find it: for a run that reads the sandbox's state,
 * with a copy of the seeded state, which is what its first run would write. One is shared by the runs that leave it
 * as it was made (most: a hostile value is refused before anything is written), and made anew after
 * a run that changed it; a copy, or a directory, for each of a few thousand runs was most of this file's time.
 */
function configDirFor(argv: string[]): string {
  const sandbox = usesSandboxState(argv);
  const shared = kept.get(sandbox);
  if (shared !== undefined && contentsOf(shared.dir) === shared.contents) return shared.dir;
  const dir = tempDir();
  if (sandbox) {
    copyFileSync(defaultStatePath(seeded), defaultStatePath(dir));
    holding?.close();
    holding = new DatabaseSync(defaultStatePath(dir));
    holding.prepare('SELECT count(*) FROM members').get();
  }
  kept.set(sandbox, { dir, contents: contentsOf(dir) });
  return dir;
}
afterAll(() => process.chdir(cwd));

describe('hostile input, to every command that takes an argument or an option', () => {
  it('covers the tree: every command is run but those that serve or open a browser', () => {
    expect(commands.length).toBeGreaterThan(100);
  });

  it('never ends in exit 70: the global options, on a command that calls the API and one that does not', async () => {
    const bugs: string[] = [];
    // Escapes in a URL's user name or password that decode to no text, beside the texts above.
    const texts = [...TEXTS, 'http://ops:pa%E0%A4ss@127.0.0.1:9', 'http://%FF@127.0.0.1:9/api'];
    for (const option of GLOBAL_OPTIONS.filter(takesValue)) {
      for (const text of texts) {
        // A --jq expression is compiled before either command runs, and filters only output, which the
        // one that calls the API (and cannot connect) never prints: the other alone tells more.
        for (const command of longFlag(option) === '--jq' ? [['commands']] : [['lists', 'list'], ['commands']]) {
          // No retries of a request that cannot connect (nothing listens on port 9), but where --retries is what is tried.
          const argv = [...command, longFlag(option), text, ...(longFlag(option) === '--retries' ? [] : ['--retries', '0'])];
          const result = await run(argv, {
            env: { ...env, LOOPSCTL_CONFIG_DIR: configDirFor(argv), LOOPS_API_KEY: 'test-key-never-sent', LOOPS_BASE_URL: 'http://127.0.0.1:9' },
          });
          if (result.code === 70) bugs.push(`${JSON.stringify(argv)}: ${result.stderr.split('\n')[0]}`);
        }
      }
    }
    expect(bugs).toEqual([]);
  });

  for (const [area, inArea] of byArea) {
    it(`never ends in exit 70: ${area}`, async () => {
      const bugs: string[] = [];
      // A command with no parsed option, or no optional input, gets the same command line in more
      // than one variant: a third of the runs were a command line and its stdin run again.
      const ran = new Set<string>();
      for (const { path, spec } of inArea) {
        const takesInput = (spec.args ?? []).length > 0 || (spec.options ?? []).some(takesValue);
        if (!takesInput) continue;
        for (const [index, text] of TEXTS.entries()) {
          for (const variant of VARIANTS) {
            const argv = argvFor(path, spec, text, files[index % files.length]!, variant);
            const key = JSON.stringify([argv, text]);
            if (ran.has(key)) continue;
            ran.add(key);
            const result = await run(argv, { input: text, env: { ...env, LOOPSCTL_CONFIG_DIR: configDirFor(argv) } });
            if (result.code === 70) bugs.push(`${JSON.stringify(argv)}: ${result.stderr.split('\n')[0]}`);
            expect(Object.prototype).not.toHaveProperty('polluted');
          }
        }
      }
      expect(bugs).toEqual([]);
    });
  }
});

/** The names every JavaScript object has, which a lookup by name in a plain object finds. */
const OBJECT_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];

/**
 * Import files whose columns, or keys, are those names: a CSV of an email and one such name for
 * each (a column that is refused stops the reading of those after it), and a JSONL record of an
 * event with all of them.
 */
function hostileImports(dir: string): string[] {
  const csvs = OBJECT_NAMES.map((name) => {
    const csv = join(dir, `${name}.csv`);
    writeFileSync(csv, `email,${name}\nada@example.com,x\n`);
    return csv;
  });
  const jsonl = join(dir, 'names.jsonl');
  // JSON.parse makes __proto__ an own key, as a file's reader gets it.
  const record = `{"email":"ada@example.com","eventName":"signup",${OBJECT_NAMES.map((name) => `"${name}":"x"`).join(',')},"eventProperties":{"constructor":"x"}}`;
  writeFileSync(jsonl, `${record}\n`);
  return [...csvs, jsonl];
}

describe('hostile input read from files the options only point at', () => {
  const imports = commands.filter(({ path }) => path.at(-1) === 'import');

  it('covers the imports: contacts and events', () => {
    expect(imports.map(({ path }) => path.join(' '))).toEqual(expect.arrayContaining(['contacts import', 'events import']));
  });

  it('never ends in exit 70: an import whose columns are constructor, __proto__ and the like, with each choice of each option', async () => {
    const bugs: string[] = [];
    const inputs = hostileImports(tempDir());
    for (const { path, spec } of imports) {
      const options = (spec.options ?? []).filter(takesValue);
      const choices = options.flatMap((option) => (option.choices ?? []).map((choice) => [longFlag(option), choice]));
      const named = options
        .filter((option) => option.choices === undefined && option.file === undefined)
        .flatMap((option) => OBJECT_NAMES.map((name) => [longFlag(option), name]));
      const mapped = OBJECT_NAMES.flatMap((name) => [`${name}=`, `${name}=email`, `email=${name}`]).map((map) => ['--map', map]);
      for (const input of inputs) {
        for (const extra of [[], ...choices, ...named, ...(options.some((option) => longFlag(option) === '--map') ? mapped : [])]) {
          // Checked, not sent, where the command can: the columns are read the same way.
          const dryRun = (spec.options ?? []).some((option) => longFlag(option) === '--dry-run') ? ['--dry-run'] : [];
          const argv = [...path, input, ...extra, ...dryRun, '--sandbox'];
          const result = await run(argv, { env: { ...env, LOOPSCTL_CONFIG_DIR: configDirFor(argv) } });
          if (result.code === 70) bugs.push(`${JSON.stringify(argv)}: ${result.stderr.split('\n')[0]}`);
          expect(Object.prototype).not.toHaveProperty('polluted');
        }
      }
    }
    expect(bugs).toEqual([]);
  });

  it('never ends in exit 70: a sandbox whose state file is a hostile file, named by --state or where it is kept by default', async () => {
    const bugs: string[] = [];
    const directory = tempDir();
    for (const file of files) {
      for (const command of [
        ['sandbox', 'outbox'],
        ['sandbox', 'clock', 'show'],
        ['sandbox', 'reset', '--yes'],
      ]) {
        const argv = [...command, '--state', file];
        const result = await run(argv, { env: { ...env, LOOPSCTL_CONFIG_DIR: configDirFor(argv) } });
        if (result.code === 70) bugs.push(`${JSON.stringify(argv)}: ${result.stderr.split('\n')[0]}`);
      }
      // The default places, the state and the older JSON state, in a config directory of their own.
      for (const name of ['sandbox-state.db', 'sandbox-state.json']) {
        const config = join(directory, `${files.indexOf(file)}-${name}`);
        mkdirSync(config);
        try {
          copyFileSync(file, join(config, name));
        } catch {
          // A directory or a file that is not there: the state file is a link to it.
          symlinkSync(file, join(config, name));
        }
        const argv = ['--sandbox', 'lists', 'list'];
        const result = await run(argv, { env: { ...env, LOOPSCTL_CONFIG_DIR: config } });
        if (result.code === 70) bugs.push(`${name} as ${file}: ${result.stderr.split('\n')[0]}`);
      }
    }
    expect(bugs).toEqual([]);
  });
});
