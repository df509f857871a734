/**
 * Every example in `--help` and in the README runs as written against the sandbox: a newcomer who
 * copies one gets what it shows. Examples of one command (or one README section) run in order in
 * one sandbox, so a sequence (create, then update) works; a README line may say what it exits with
 * in a comment (`# exits 5`). Lines that are templates (`<id>`), need a real account, run until
 * interrupted or send to the reader's own app are left out, and the reason is in `skipReason`.
 * What a person reads must fit an 80-column terminal, and every request the examples send must
 * be one the published description describes.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specs } from '../../src/areas/registry.js';
import { COMMANDS_DIR, HAND_WRITTEN_END, HAND_WRITTEN_START } from '../../src/build/reference.js';
import { walkSpecs, type CommandSpec, type Spec } from '../../src/core/declare.js';
import { run, tempDir } from '../support/main.js';
import { expectDescribed, recordingSandbox } from '../support/recording.js';
import { spawnCli } from '../support/run-cli.js';
import { words } from '../support/shell-words.js';

interface Example {
  line: string;
  /** Where it comes from: a command's help, or a README section. */
  source: string;
}

const root = resolve(import.meta.dirname, '../..');
const markdownIn = (dir: string) => readdirSync(resolve(root, dir)).filter((name) => name.endsWith('.md')).map((name) => `${dir}/${name}`);
const documents = ['README.md', ...markdownIn('docs'), ...markdownIn(COMMANDS_DIR)];

/** What a page says that is not generated: the examples of the generated part are the help's, run below. */
function written(document: string): string {
  const text = readFileSync(resolve(root, document), 'utf8');
  if (!document.startsWith(`${COMMANDS_DIR}/`)) return text;
  return text.slice(text.indexOf(HAND_WRITTEN_START), text.indexOf(HAND_WRITTEN_END));
}

function readmeExamples(): Example[] {
  const examples: Example[] = [];
  for (const document of documents) {
    let section = document;
    let inBlock = false;
    for (const line of written(document).split('\n')) {
      if (/^#{1,3} /.test(line)) section = `${document}: ${line.replace(/^#+ /, '')}`;
      if (/^```(sh|console|bash)\s*$/.test(line)) inBlock = true;
      else if (line.startsWith('```')) inBlock = false;
      else if (inBlock && /^(\$ )?(npx )?loopsctl |^echo .* \| loopsctl /.test(line.trim())) examples.push({ line: line.trim().replace(/^\$ /, '').replace(/^npx /, ''), source: section });
    }
  }
  return examples;
}

function helpExamples(): Example[] {
  return walkSpecs(specs).flatMap(({ path, spec }) => spec.examples.map((line) => ({ line, source: `loopsctl ${path.join(' ')} --help` })));
}

/** The line without its comment, and what the comment says it exits with. */
function parse(line: string): { command: string; exits: number } {
  const comment = /\s+#\s(.*)$/.exec(line);
  const exits = Number(/\bexits? (\d+)/.exec(comment?.[1] ?? '')?.[1] ?? 0);
  return { command: comment ? line.slice(0, comment.index) : line, exits };
}

/** The command the words name, as commander finds it: a group without a named child runs its default. */
function specFor(argv: string[]): CommandSpec | undefined {
  let choices: Spec[] = specs;
  for (const word of argv.filter((candidate) => !candidate.startsWith('-'))) {
    const found = choices.find((spec) => spec.name === word || spec.aliases?.includes(word));
    const chosen = found ?? choices.find((spec) => spec.kind === 'command' && spec.isDefault);
    if (chosen === undefined) return undefined;
    if (chosen.kind === 'command') return chosen;
    choices = chosen.commands;
  }
  return choices.find((spec): spec is CommandSpec => spec.kind === 'command' && spec.isDefault === true);
}

/** Why an example cannot run here as written, or undefined when it can. */
function skipReason(command: string): string | undefined {
  if (/<[a-z][^>]*>/.test(command) || /\.\.\./.test(command)) return 'a template';
  if (/\$[({A-Za-z]/.test(command.replace(/'[^']*'/g, '')) || command.includes('~')) return 'needs the shell';
  if (/--profile|auth login(?!.*--with-key-stdin)|LOOPS_API_KEY=/.test(command)) return 'needs a real account';
  // Profiles are stored by a login with a real key.
  if (/auth (switch|use|rename|remove) /.test(command)) return 'needs stored profiles';
  if (/webhooks trigger .*--to http:\/\/localhost/.test(command)) return "needs the reader's app listening";
  return undefined;
}

let home: string;
let cwd: string;

beforeAll(() => {
  cwd = process.cwd();
  home = tempDir('loopsctl-examples-');
  // The files examples read, as a user would have them.
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
  const files: Record<string, string | Buffer> = {
    'body.json': '{"type":"contact.created","contact":{"email":"ada@example.com"}}',
    'event.json': '{"type":"test"}',
    'logo.png': png,
    'README.md': '# notes\n',
    'contacts.csv': 'email,firstName,plan\nalan@example.com,Alan,pro\n',
    'events.jsonl': '{"eventName":"trial_started","email":"ada@example.com"}\n',
    'filter.json': '{"match":"all","conditions":[{"type":"property","key":"plan","operator":"equal","value":"pro"}]}',
    'styles.json': '{"backgroundColor":"#ffffff"}',
    'vars.json': '{"dataVariables":{"firstName":"Ada"}}',
    'payload.json': '{"amount":3,"unit":"d"}',
    banner: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1]),
    'changes.jsonl': '{"email":"ada@example.com","firstName":"Ada"}\n',
  };
  for (const [name, content] of Object.entries(files)) writeFileSync(join(home, name), content);
  // The home directory too, with an agent's folder for `skill install` to find.
  mkdirSync(join(home, '.claude'));
  process.chdir(home);
});
afterAll(() => process.chdir(cwd));

const sources = new Map<string, Example[]>();
for (const example of [...helpExamples(), ...readmeExamples()]) sources.set(example.source, [...(sources.get(example.source) ?? []), example]);

describe.each([...sources])('examples of %s', (_source, examples) => {
  it('run as written against the sandbox', async () => {
    // A sandbox of the examples' own, keeping its state where `--sandbox` would, that records what they send.
    const configDir = tempDir();
    const sandbox = await recordingSandbox({ stateFile: join(configDir, 'sandbox-state.json') });
    const env = { HOME: home, LOOPSCTL_CONFIG_DIR: configDir, LOOPS_WEBHOOK_SECRET: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', ...sandbox.env };
    try {
    for (const { line } of examples) {
      const { command, exits } = parse(line);
      if (skipReason(command) !== undefined) continue;
      let all = words(command);
      let input: string | undefined;
      if (all[0] === 'export') {
        // export NAME=value: for the examples that follow.
        const [name, ...value] = all[1]!.split('=');
        Object.assign(env, { [name!]: value.join('=') });
        continue;
      }
      if (all[0] === 'echo') {
        // echo [-n] '<text>' | loopsctl ...: the text is loopsctl's stdin.
        const pipe = all.indexOf('|');
        input = all.slice(1, pipe).filter((word) => word !== '-n').join(' ');
        all = all.slice(pipe + 1);
      }
      if (all[0] !== 'loopsctl') continue;
      // A pipe into another program: loopsctl's part is what is checked.
      const stop = all.findIndex((word) => word === '|' || word === '>' || word === '<');
      const argv = (stop < 0 ? all : all.slice(0, stop)).slice(1);
      const output = all.includes('>') ? all[all.indexOf('>') + 1] : undefined;
      if (all.includes('<')) input = readFileSync(all[all.indexOf('<') + 1]!, 'utf8');
      const spec = specFor(argv.filter((word) => word !== '--sandbox'));
      // A server that runs until interrupted, or a prompt, is not an example to run here.
      if (spec?.interactive) continue;
      // The examples' own sandbox stands where --sandbox would start one.
      const args = argv.filter((word) => word !== '--sandbox');
      // jq's WebAssembly runs in the built binary, as users run it, rather than in the test's long-lived process.
      // What a person reads (no JSON, nothing redirected) is shown as on an 80-column terminal, and must fit it.
      const onTerminal = output === undefined && !argv.some((word) => ['--json', '--jsonl', '--jq', '--lmx', '--plain'].includes(word) || word.startsWith('--format'));
      const result = argv.includes('--jq')
        ? await spawnCli(args, { env: { ...env, PATH: process.env.PATH }, input, cwd: home })
        : await run(args, { env: { ...env, LOOPSCTL_PAGER: '' }, input, tty: onTerminal ? { columns: 80 } : undefined });
      if (output !== undefined) writeFileSync(output, result.stdout);
      expect(result.code, `${line}\n${result.stderr}`).toBe(exits);
      if (onTerminal) for (const shown of result.stdout.split('\n')) expect([...shown.replace(/\u001b\[[\d;]*m/g, '')].length, `${line}\n${shown}`).toBeLessThanOrEqual(80);
    }
      // Every request the examples made is one the published description describes.
      expectDescribed(sandbox.requests);
    } finally {
      await sandbox.close();
    }
  });
});
