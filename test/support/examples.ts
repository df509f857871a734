/**
 * Every example in `--help`, the README and the docs runs as written against the sandbox: a newcomer
 * who copies one gets what it shows. Examples of one command, or of one document from its top to
 * its end, run in order in one sandbox, as a reader follows them: a sequence (create, then update)
 * works, and an example that deletes what a later one uses fails; a README line may say what it exits with
 * in a comment (`# exits 5`). Lines that are templates (`<id>`), need a real account, run until
 * interrupted or send to the reader's own app are left out, and the reason is in `skipReason`.
 * What a person reads must fit an 80-column terminal (but a lone word wider than it, a path, which
 * is never cut), and every request the examples send must be one the published description describes. Two test files run them, the help's
 * (test/e2e/help-examples.test.ts) and the documents' (test/e2e/examples.test.ts), so that
 * neither takes more than its share of the suite.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specs } from '../../src/areas/registry.js';
import { COMMANDS_DIR, HAND_WRITTEN_END, HAND_WRITTEN_START } from '../../src/build/reference.js';
import { type CommandSpec, type Spec, walkSpecs } from '../../src/core/declare.js';
import { run, tempDir } from './main.js';
import { expectDescribed, recordingSandbox } from './recording.js';
import { words } from './shell-words.js';

export interface Example {
  line: string;
  /** The output a document shows under the line (`$ loopsctl …` in a console or text block), as printed. */
  shown?: string[];
  /** The block is marked `<!-- output not compared: … -->`: its output illustrates a case the examples before it do not make. */
  illustrative?: boolean;
  /** Where it comes from: a command's help, or a document. */
  source: string;
  /** A line of the shell's own that writes a file the examples after it read (`printf … > contacts.csv`): sh runs it as written. */
  writesFile?: boolean;
}

const root = resolve(import.meta.dirname, '../..');
const markdownIn = (dir: string) =>
  readdirSync(resolve(root, dir))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `${dir}/${name}`);
const documents = ['README.md', ...markdownIn('docs'), ...markdownIn(COMMANDS_DIR)];

/** What a page says that is not generated: the examples of the generated part are the help's, run below. */
function written(document: string): string {
  const text = readFileSync(resolve(root, document), 'utf8');
  if (!document.startsWith(`${COMMANDS_DIR}/`)) return text;
  return text.slice(text.indexOf(HAND_WRITTEN_START), text.indexOf(HAND_WRITTEN_END));
}

/** The examples of the README, docs/ and the command pages' hand-written parts, in the order a reader meets them. */
export function documentExamples(): Example[] {
  const examples: Example[] = [];
  for (const document of documents) {
    let block: string | undefined;
    // The example whose output the lines that follow it show, in a console or text block.
    let showing: Example | undefined;
    let illustrative = false;
    let previous = '';
    for (const line of written(document).split('\n')) {
      const opening = /^```(\w*)\s*$/.exec(line);
      if (block === undefined && opening) {
        block = opening[1];
        illustrative = previous.startsWith('<!-- output not compared:');
        continue;
      }
      previous = line;
      if (line.startsWith('```')) {
        block = undefined;
        showing = undefined;
        continue;
      }
      if (block === undefined) continue;
      const prompted = /^\$ /.test(line);
      // A text block shows a session only where its lines start with `$ loopsctl`.
      const runs = ['sh', 'console', 'bash'].includes(block) || (block === 'text' && prompted);
      if (runs && /^(\$ )?(npx )?loopsctl |^(\$ )?echo .* \| loopsctl /.test(line.trim())) {
        const example: Example = { line: line.trim().replace(/^\$ /, '').replace(/^npx /, ''), source: document, illustrative };
        examples.push(example);
        showing = prompted && block !== 'sh' && block !== 'bash' ? example : undefined;
      } else if (runs && /^(\$ )?printf .* > [\w.-]+$/.test(line.trim())) {
        examples.push({ line: line.trim().replace(/^\$ /, ''), source: document, writesFile: true });
        showing = undefined;
      } else if (prompted) showing = undefined;
      else if (showing !== undefined) (showing.shown ??= []).push(line);
    }
  }
  return examples;
}

/** The examples of each command's `--help`. */
export function helpExamples(): Example[] {
  return walkSpecs(specs).flatMap(({ path, spec }) => spec.examples.map((line) => ({ line, source: `loopsctl ${path.join(' ')} --help` })));
}

/**
 * A line of output with what differs from run to run (times, durations, generated ids and
 * signatures) put as a placeholder, so that a document's output can be compared with a run's.
 */
function comparable(line: string): string {
  return line
    .replace(/\u001b\[[\d;]*m/g, '')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, '<time>')
    .replace(/[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}/g, '<uuid>')
    .replace(/\bmsg_[\w-]{20,}/g, 'msg_<id>')
    .replace(/\bv1,\S+/g, 'v1,<signature>')
    .replace(/(webhook-timestamp: )\d+/g, '$1<time>')
    .replace(/\d+(?:\.\d+)? ms\b/g, '<n> ms')
    .trimEnd();
}

/**
 * The documented lines the run did not print, in order; `...` and `…` lines stand for lines left
 * out. Spaces are compared as one, so a line the run wrapped at 80 columns still matches.
 */
function notPrinted(shown: string[], printed: string): string[] {
  const words = (text: string) => text.replace(/\s+/g, ' ').trim();
  const all = words(printed.split('\n').map(comparable).join(' '));
  let from = 0;
  const missing: string[] = [];
  for (const expected of shown.map(comparable).map(words)) {
    if (expected === '' || expected === '...' || expected === '…') continue;
    const at = all.indexOf(expected, from);
    if (at < 0) missing.push(expected);
    else from = at + expected.length;
  }
  return missing;
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
  if (/auth (switch|use|rename|remove|read-only|read-write) /.test(command)) return 'needs stored profiles';
  // An environment is a stored profile's account, named by the tree's environments.json.
  if (/--env /.test(command)) return "needs environments.json and its environments' profiles";
  if (/webhooks trigger .*--to http:\/\/localhost/.test(command)) return "needs the reader's app listening";
  if (/--(notify|alert) https:\/\//.test(command)) return "posts to the reader's own Slack";
  if (/deliveries (show|replay (?!.*--plan))/.test(command)) return "needs deliveries the reader's receiver kept, and the reader's app listening";
  if (/deliveries reconcile/.test(command)) return "needs the journal the reader's app kept of the account";
  if (/ approve p-/.test(command)) return 'approves a change an agent proposed, asked of a person at a terminal';
  if (/content review .*--base /.test(command)) return 'needs the git history of a content tree';
  return undefined;
}

/**
 * Runs `examples`, those of each source in one sandbox of their own, in the files a reader would
 * have beside them (in a home of the test file's own, the working directory while they run). A
 * document's reader has by then pulled a content tree and written the sending IPs' allow-list,
 * which its lines take as done; a command's help starts from neither.
 */
export function describeExamples(examples: Example[], { ofDocuments }: { ofDocuments: boolean }): void {
  let home: string;
  let cwd: string;
  let seededState: string;

  beforeAll(async () => {
    // A sandbox's state file as its first request leaves it, seeded once for every source's copy.
    seededState = join(tempDir(), 'sandbox-state.db');
    const seeding = await recordingSandbox({ stateFile: seededState });
    const seeded = await seeding.loopsctl(['lists', 'list', '--json']);
    expect(seeded.code, seeded.stderr).toBe(0);
    cwd = process.cwd();
    home = tempDir('loopsctl-examples-');
    if (ofDocuments) {
      // From the account each source's sandbox starts as.
      const allowList = await seeding.loopsctl(['ips', 'list', '--plain']);
      expect(allowList.code, allowList.stderr).toBe(0);
      writeFileSync(join(home, 'allowlist.txt'), allowList.stdout);
      const pulled = await seeding.loopsctl(['content', 'pull', join(home, 'loops')]);
      expect(pulled.code, pulled.stderr).toBe(0);
    }
    await seeding.close();
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
      // Another provider's export, its suppressions, and a sheet of the app's own, for `contacts import`.
      'members.csv':
        'Email Address,First Name,Last Name,Lists\nruth@example.com,Ruth,Lichterman,Product updates\nbounced@example.com,Bo,Unce,Product updates\n',
      'cleaned.csv': 'Email Address,Reason\nbounced@example.com,hard bounce\n',
      'export.csv': 'email,Company Name,Lists\nlin@example.com,Acme,Beta testers\n',
      'welcome.lmx': '<H1>Welcome, {data.firstName}</H1>\n<Button href="{data.loginUrl}">Sign in</Button>\n',
      'reset.lmx': '<H1>Reset your password, {data.firstName}</H1>\n<Button href="{data.resetUrl}">Choose a new password</Button>\n',
      'values.json': '{"data":{"firstName":"Ada","resetUrl":"https://app.example.com/reset/abc"}}',
      'theme.json': '{"name":"Ocean","styles":{"backgroundColor":"#e6f2f8","buttonBodyColor":"#0e7490"}}',
      'loops.check.yaml': 'workflows:\n  "Win-back (draft)": { status: draft }\n',
    };
    for (const [name, content] of Object.entries(files)) writeFileSync(join(home, name), content);
    // An app's source for `check --code`, which sends "Welcome" as the sandbox has it.
    mkdirSync(join(home, 'src'));
    writeFileSync(
      join(home, 'src', 'signup.ts'),
      "await loops.sendTransactionalEmail({ transactionalId: 'cc1hv1te56efs1g1ifrp90u0j', email, dataVariables: { firstName, loginUrl } });\n",
    );
    // Templates from another provider, for `content convert`: MJML and React Email.
    mkdirSync(join(home, 'emails'));
    writeFileSync(
      join(home, 'emails', 'order-shipped.mjml'),
      '<mjml><mj-head><mj-title>Your order has shipped</mj-title></mj-head><mj-body><mj-section><mj-column>' +
        '<mj-text><h1>Your order is on its way</h1><p>Hi {{ first_name }}, order {{ order_id }} shipped.</p></mj-text>' +
        '<mj-button href="https://example.com/track">Track it</mj-button></mj-column></mj-section></mj-body></mjml>\n',
    );
    writeFileSync(
      join(home, 'emails', 'team-invite.tsx'),
      "import { Body, Button, Heading, Html, Text } from '@react-email/components';\n\n" +
        'export default function TeamInvite({ inviterName, inviteUrl }: { inviterName: string; inviteUrl: string }) {\n' +
        '  return (<Html><Body><Heading>You are invited</Heading><Text>{inviterName} invited you to join the team.</Text>' +
        '<Button href={inviteUrl}>Accept the invitation</Button></Body></Html>);\n}\n',
    );
    // Captures for `content check --html`: the sandbox inbox's HTML of a send, as its renderer draws
    // it (lang on <html> alone, no dir: two serious findings), and a receipt saved from a client.
    mkdirSync(join(home, 'captured'));
    writeFileSync(
      join(home, 'captured', 'password-reset.html'),
      '<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8"><title>Reset your password</title></head>\n' +
        '<body><div><h1>Reset your password</h1><p>Choose a new password: the link works for 30 minutes.</p>' +
        '<a href="https://acme.example/reset?t=1">Choose a new password</a></div></body>\n</html>\n',
    );
    mkdirSync(join(home, 'saved'));
    writeFileSync(
      join(home, 'saved', 'receipt.eml'),
      [
        'From: Acme <billing@acme.example>',
        'To: ada@example.com',
        'Subject: Your receipt',
        'Content-Language: en',
        'MIME-Version: 1.0',
        'Content-Type: text/html; charset=utf-8',
        '',
        '<!DOCTYPE html><html lang="en" dir="ltr"><head><title>Your receipt</title></head><body><div lang="en" dir="ltr">' +
          '<h1>Thank you for your order</h1><p>Your order shipped today and arrives in three to five working days.</p></div></body></html>',
        '',
      ].join('\r\n'),
    );
    // The home directory too, with an agent's folder for `skill install` to find.
    mkdirSync(join(home, '.claude'));
    process.chdir(home);
  });
  afterAll(() => process.chdir(cwd));

  const sources = new Map<string, Example[]>();
  for (const example of examples) sources.set(example.source, [...(sources.get(example.source) ?? []), example]);

  describe.each([...sources])('examples of %s', (_source, examples) => {
    it('run as written against the sandbox', async () => {
      // A sandbox of the examples' own, keeping its state where `--sandbox` would, that records what they send.
      const configDir = tempDir('loopsctl-config-');
      // From a copy of the seeded state: what a new state file holds, for a copy's cost rather than a seed's.
      copyFileSync(seededState, join(configDir, 'sandbox-state.db'));
      const sandbox = await recordingSandbox({ stateFile: join(configDir, 'sandbox-state.db') });
      const env = { HOME: home, LOOPSCTL_CONFIG_DIR: configDir, LOOPS_WEBHOOK_SECRET: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', ...sandbox.env };
      try {
        for (const { line, shown, illustrative, writesFile } of examples) {
          if (writesFile) {
            const written = spawnSync('sh', ['-c', line], { cwd: home, encoding: 'utf8' });
            expect(written.status, `${line}\n${written.stderr}`).toBe(0);
            continue;
          }
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
            input = all
              .slice(1, pipe)
              .filter((word) => word !== '-n')
              .join(' ');
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
          // What a person reads (no JSON, nothing redirected) is shown as on an 80-column terminal, and must fit it.
          const onTerminal =
            output === undefined &&
            !all.includes('|') &&
            !argv.some((word) => ['--json', '--jsonl', '--jq', '--lmx', '--plain'].includes(word) || word.startsWith('--format'));
          // A session a document shows ran on a terminal as wide as its widest line, at least 80 columns.
          const columns = Math.max(80, ...(shown ?? []).map((text) => [...text].length));
          // In-process, --jq included: the process compiles jq's WebAssembly once for every example that filters.
          const result = await run(args, { env: { ...env, LOOPSCTL_PAGER: '' }, input, tty: onTerminal ? { columns } : undefined });
          if (output !== undefined) writeFileSync(output, result.stdout);
          // A session that shows an error ends with a code other than 0 (`echo $?` shows which).
          if (!illustrative && exits === 0 && shown?.some((text) => text.startsWith('Error: '))) expect(result.code, `${line}\n${result.stderr}`).not.toBe(0);
          else expect(result.code, `${line}\n${result.stderr}`).toBe(exits);
          // What the document shows is what a reader following it gets, in that order.
          if (shown !== undefined && !illustrative)
            expect(notPrinted(shown, `${result.stdout}\n${result.stderr}`), `${line}\n${result.stdout}${result.stderr}`).toEqual([]);
          // The examples' directories are the test run's, deep in its temporary directory: a line that names one is measured with the path a person's would have.
          if (onTerminal)
            for (const shown of result.stdout.split('\n')) {
              const asAPersonSees = shown
                .replace(/\u001b\[[\d;]*m/g, '')
                .replaceAll(configDir, '~/.config/loopsctl')
                .replaceAll(home, '~');
              // A word wider than the terminal (a path, a URL) is never cut: it has a line of its own (render/wrap.ts).
              if (/^\S+$/.test(asAPersonSees.trim())) continue;
              expect([...asAPersonSees].length, `${line}\n${shown}`).toBeLessThanOrEqual(columns);
            }
        }
        // Every request the examples made is one the published description describes.
        expectDescribed(sandbox.requests);
      } finally {
        await sandbox.close();
      }
    });
  });
}
