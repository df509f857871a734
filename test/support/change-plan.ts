/**
 * The change of the change cycle's measure (docs/performance.md): 50 transactional emails (half of
 * them published, with a draft again) and 10 workflows made in a sandbox, pulled, each changed (an
 * email's draft; two waits of a workflow) and the change planned with `content push --plan --out`:
 * a plan of 70 writes of three kinds for `loopsctl apply`.
 * Shared by its test (test/e2e/areas/apply/reads-once.test.ts), which runs loopsctl in-process,
 * and `npm run bench -- change`, which runs the built one.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { SandboxServer } from '../../src/emulator/server.js';

export const EMAILS = 50;
/** Of the emails, those published (then given a draft again, which the change writes): every other one. */
export const PUBLISHED = EMAILS / 2;
export const WORKFLOWS = 10;
/** Each email's draft, and two waits of each workflow. */
export const PLANNED_WRITES = EMAILS + 2 * WORKFLOWS;
const ONLY = ['--only', 'transactional,workflows'];

const numbered = (count: number, prefix: string) => Array.from({ length: count }, (_, index) => `${prefix}-${String(index + 1).padStart(2, '0')}`);

/** A run of loopsctl with these arguments: its exit code and stderr. */
export type Loopsctl = (args: string[]) => Promise<{ code: number; stderr: string }>;

async function succeeds(loopsctl: Loopsctl, args: string[]): Promise<string> {
  const ran = await loopsctl(args);
  if (ran.code !== 0) throw new Error(`loopsctl ${args.join(' ')} exited with ${ran.code}: ${ran.stderr}`);
  return ran.stderr;
}

/** New emails, each with its draft, made in the sandbox as the API makes them; every other one published, then given a draft again. */
async function addEmails(server: Pick<SandboxServer, 'answer'>, apiKey: string): Promise<void> {
  const post = async (target: string, body: unknown, status = 200): Promise<Record<string, unknown>> => {
    const answer = await server.answer({
      method: 'POST',
      target,
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify(body)),
    });
    if (answer.status !== status) throw new Error(`the sandbox answered ${answer.status} to POST ${target}`);
    return answer.body as Record<string, unknown>;
  };
  for (const [index, name] of numbered(EMAILS, 'email').entries()) {
    const made = await post('/v1/transactional-emails', { name }, 201);
    if (index % 2 === 0) continue;
    await post(`/v1/email-messages/${String(made.draftEmailMessageId)}`, { subject: `${name} published`, lmx: `<Paragraph>${name}</Paragraph>` });
    await post(`/v1/transactional-emails/${String(made.id)}/publish`, {});
    await post(`/v1/transactional-emails/${String(made.id)}/draft`, {});
  }
}

/** New workflows, two waits each, written into a pulled tree. */
function addWorkflows(root: string): void {
  const node = (key: string, type: string, next: string, fields = '') => `  ${key}:\n    type: ${type}\n    next: [${next}]\n${fields}`;
  for (const name of numbered(WORKFLOWS, 'flow')) {
    const file = join(root, 'workflows', name, 'workflow.yaml');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(
      file,
      [
        `name: ${name}\nroot: trigger\nnodes:\n`,
        node('trigger', 'BlankTrigger', 'first'),
        node('first', 'TimerAction', 'second', '    amount: 1\n    unit: d\n'),
        node('second', 'TimerAction', 'exit', '    amount: 2\n    unit: d\n'),
        node('exit', 'ExitAction', ''),
      ].join(''),
    );
  }
}

/** The pulled directory of the record named so. */
function directoryOf(root: string, kind: string, name: string): string {
  const found = readdirSync(join(root, kind)).find((entry) => entry === name || entry.startsWith(`${name}--`));
  if (found === undefined) throw new Error(`no ${kind}/${name} in ${root}`);
  return join(root, kind, found);
}

/** Every email's draft and both waits of every workflow changed in the tree. */
function changeAll(root: string): void {
  for (const name of numbered(EMAILS, 'email'))
    writeFileSync(join(directoryOf(root, 'transactional', name), 'draft.lmx'), `<Paragraph>${name}, changed</Paragraph>\n`);
  for (const name of numbered(WORKFLOWS, 'flow')) {
    const file = join(directoryOf(root, 'workflows', name), 'workflow.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('amount: 1', 'amount: 3').replace('amount: 2', 'amount: 4'));
  }
}

/** The records made in the sandbox, pulled into `directory` and changed there: the tree's root, whose push is the change. */
export async function changedTree(server: Pick<SandboxServer, 'answer'>, apiKey: string, loopsctl: Loopsctl, directory: string): Promise<string> {
  const root = join(directory, 'loops');
  await addEmails(server, apiKey);
  await succeeds(loopsctl, ['content', 'pull', root, ...ONLY]);
  addWorkflows(root);
  await succeeds(loopsctl, ['content', 'push', root, '--only', 'workflows', '--yes']);
  changeAll(root);
  return root;
}

/** The content push of the change, `--only` the kinds it changes. */
export const PUSH_ARGS = (root: string) => ['content', 'push', root, ...ONLY];

/**
 * The records made in the sandbox, pulled into `directory`, changed, and planned: the plan file.
 * `planning` is told just before the plan is made, for a caller counting its requests.
 */
export async function plannedChange(
  server: Pick<SandboxServer, 'answer'>,
  apiKey: string,
  loopsctl: Loopsctl,
  directory: string,
  planning: () => void = () => {},
): Promise<string> {
  const root = await changedTree(server, apiKey, loopsctl, directory);
  const plan = join(directory, 'change.json');
  planning();
  const planned = await succeeds(loopsctl, ['content', 'push', root, ...ONLY, '--plan', '--out', plan]);
  if (!planned.includes(`${PLANNED_WRITES} calls to`)) throw new Error(`the plan is not of ${PLANNED_WRITES} calls: ${planned}`);
  return plan;
}
