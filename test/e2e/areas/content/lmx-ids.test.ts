/**
 * The components and themes an email's LMX names, per account: the tree names each by its
 * record's directory, the same in every account; a pull writes the account's ids as those names,
 * a diff compares in them, and a push sends the ids of the account it writes to, the components
 * and themes made before the emails that name them and those before the workflows.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { digestOf, REFERENCE_FILES, readState, writeState } from '../../../../src/areas/content/shared/files.js';
import { type SandboxModule, seedId } from '../../../../src/emulator/module.js';
import { seedState } from '../../../../src/emulator/state/index.js';
import { tempDir } from '../../../support/main.js';
import { type Recorded, sandboxEachTest } from '../../../support/recording.js';

/** Where a test pulls a tree (removed with the test file's other temporary directories). */
const contentDir = () => join(tempDir('loopsctl-lmx-ids-'), 'loops');
const sandboxes = sandboxEachTest();
const writes = (requests: Recorded[]) => requests.filter((request) => request.method !== 'GET');
/** The sandbox's state by slice, as the tests read it. */
const slices = (state: unknown) => state as Record<string, any[]>;

const HEADER = seedId('component/Header');
const FOOTER = seedId('component/Footer');
const PAPER = seedId('theme/Paper');
const RESET_DRAFT = seedId('transactional/Password reset/draft');
/** The second email of the welcome series: a workflow's email, whose contact variables the footer may show. */
const TIPS = seedId('email-message/welcome-2');
const ONLY_EMAILS = ['--only', 'components,themes,transactional'];

/**
 * The seeded sandbox, with the password reset's draft drawn with the Paper theme and embedding the
 * header, and a workflow's email embedding the footer: each by the seeded account's ids.
 */
function embedding(modules: SandboxModule[]) {
  const state = seedState(modules);
  const messages = slices(state).emailMessages as { message: { id: string; lmx: string } }[];
  const reset = messages.find((stored) => stored.message.id === RESET_DRAFT)!.message;
  reset.lmx = `<Style themeId="${PAPER}" />\n${reset.lmx}<Component componentId="${HEADER}" />\n`;
  const tips = messages.find((stored) => stored.message.id === TIPS)!.message;
  tips.lmx = `${tips.lmx}<Component componentId="${FOOTER}" />\n`;
  return state;
}

/** A directory of the tree, by the start of its name: `password-reset` -> `transactional/password-reset--<id>`. */
function directoryOf(root: string, kind: string, slug: string): string {
  const found = readdirSync(join(root, kind)).find((entry) => entry.startsWith(`${slug}--`));
  expect(found, `${kind}/${slug}--…`).toBeDefined();
  return `${kind}/${found}`;
}

/** Every LMX file of a tree's emails, components and workflows, by path. */
function lmxFiles(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(root, { recursive: true, encoding: 'utf8' }))
    if (entry.endsWith('.lmx') && !entry.startsWith('campaigns')) files[entry] = readFileSync(join(root, entry), 'utf8');
  return files;
}

/** The workflow email of the tree whose LMX holds `text`: `workflows/<workflow>/emails/<key>/email.lmx`. */
function workflowEmail(root: string, text: string): string {
  const found = Object.entries(lmxFiles(root)).find(([path, lmx]) => path.startsWith('workflows/') && lmx.includes(text));
  expect(found, `a workflow email holding ${text}`).toBeDefined();
  return found![0];
}

/** The email message of a sandbox whose subject is this. */
function messageOf(state: unknown, subject: string): { id: string; lmx: string } {
  const found = (slices(state).emailMessages as { message: { id: string; subject: string; lmx: string } }[]).filter(
    (stored) => stored.message.subject === subject,
  );
  expect(found, subject).toHaveLength(1);
  return found[0]!.message;
}

describe('a pull names the components and themes an email embeds by their directories', () => {
  it('writes the directory for the id, diffs and checks clean, draws the email offline, and a second pull changes nothing', async () => {
    const seeded = await sandboxes({ initialState: embedding });
    const root = contentDir();
    const pull = await seeded.loopsctl(['content', 'pull', root]);
    expect(pull.code, pull.stderr).toBe(0);
    const header = directoryOf(root, 'components', 'header').slice('components/'.length);
    const paper = directoryOf(root, 'themes', 'paper').slice('themes/'.length);
    const reset = directoryOf(root, 'transactional', 'password-reset');
    const draft = readFileSync(join(root, reset, 'draft.lmx'), 'utf8');
    expect(draft).toContain(`<Style themeId="${paper}" />\n`);
    expect(draft).toContain(`<Component componentId="${header}" />\n`);
    expect(draft).not.toContain(`componentId="${HEADER}"`);
    const footer = directoryOf(root, 'components', 'footer').slice('components/'.length);
    expect(readFileSync(join(root, workflowEmail(root, 'componentId=')), 'utf8')).toContain(`<Component componentId="${footer}" />`);

    const diff = await seeded.loopsctl(['content', 'diff', root]);
    expect(diff.code, diff.stdout).toBe(0);
    const files = lmxFiles(root);
    const state = readFileSync(join(root, 'loopsctl-state.json'), 'utf8');
    const again = await seeded.loopsctl(['content', 'pull', root, '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json().records.filter((line: { status: string }) => line.status !== 'unchanged')).toEqual([]);
    expect(lmxFiles(root)).toEqual(files);
    expect(readFileSync(join(root, 'loopsctl-state.json'), 'utf8')).toBe(state);
    seeded.requests.length = 0;
    const push = await seeded.loopsctl(['content', 'push', root, '--yes']);
    expect(push.code, push.stderr).toBe(0);
    expect(writes(seeded.requests)).toEqual([]);

    // Offline, the tree's components and themes are found by their directories.
    const check = await seeded.loopsctl(['content', 'check', root, '--json']);
    const warnings = (check.json() as { warnings: { rule: string }[] }[]).flatMap((file) => file.warnings.map((warning) => warning.rule));
    expect(warnings).not.toContain('unknown-component');
    const render = await seeded.loopsctl(['content', 'render', join(root, reset, 'draft.lmx'), '--json']);
    expect(render.code, render.stderr).toBe(0);
    expect(render.json().missingComponents).toEqual([]);
    expect(render.json().html).toContain('acme-logo.png');
    // The Paper theme's background, not the default theme's.
    expect(render.json().html).toContain('#f4efe6');

    // Edited and pushed, it is sent with the account's ids; undone, the account holds its ids as before, never the names.
    const env = { LOOPSCTL_CONFIG_DIR: join(root, '..', 'config') };
    const before = messageOf(seeded.server.state(), 'Your password reset link').lmx;
    writeFileSync(join(root, reset, 'draft.lmx'), draft.replace('someone asked to reset', 'you asked to reset'));
    const edited = await seeded.loopsctl(['content', 'push', root, '--yes'], { env });
    expect(edited.code, edited.stderr).toBe(0);
    expect(messageOf(seeded.server.state(), 'Your password reset link').lmx).toBe(before.replace('someone asked to reset', 'you asked to reset'));
    const id = /`loopsctl undo (\S+)` puts it back/.exec(edited.stderr)![1]!;
    const undo = await seeded.loopsctl(['undo', id, '--yes'], { env });
    expect(undo.code, undo.stderr).toBe(0);
    expect(messageOf(seeded.server.state(), 'Your password reset link').lmx).toBe(before);
  });
});

describe('a tree pulled from the seeded sandbox, pushed to an empty one', () => {
  it('makes the components and themes first, sends the emails with their new ids, the workflows last, and pulls back the same', async () => {
    const seeded = await sandboxes({ initialState: embedding });
    // An empty account whose app has had its mailing lists made, as a clone asks first.
    const empty = await sandboxes({ initialState: (modules) => ({ ...seedState(modules, 'empty'), mailingLists: seedState(modules).mailingLists }) });
    const root = contentDir();
    expect((await seeded.loopsctl(['content', 'pull', root])).code).toBe(0);
    const sent = await empty.loopsctl(['events', 'send', 'trial_started', '--email', 'ada@example.com']);
    expect(sent.code, sent.stderr).toBe(0);
    const header = directoryOf(root, 'components', 'header').slice('components/'.length);
    const paper = directoryOf(root, 'themes', 'paper').slice('themes/'.length);

    // The plan names the records by the tree's names: no id of either account is in its diff.
    const plan = await empty.loopsctl(['content', 'push', root, '--plan', '--no-check']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain(`+<Component componentId="${header}" />`);
    expect(plan.stdout).not.toContain(`componentId="${HEADER}"`);

    empty.requests.length = 0;
    const push = await empty.loopsctl(['content', 'push', root, '--yes', '--no-check']);
    expect(push.code, push.stderr).toBe(0);
    const order = writes(empty.requests);
    const made = (name: string, path: string) => order.find((request) => request.path === path && request.body?.name === name)?.answer as { id: string };
    const newHeader = made('Header', '/v1/components').id;
    const newFooter = made('Footer', '/v1/components').id;
    const newPaper = made('Paper', '/v1/themes').id;
    expect([newHeader, newFooter, newPaper]).not.toContain(HEADER);
    // What the new account holds names its own records.
    const reset = messageOf(empty.server.state(), 'Your password reset link');
    expect(reset.lmx).toContain(`<Component componentId="${newHeader}" />`);
    expect(reset.lmx).toContain(`<Style themeId="${newPaper}" />`);
    const tips = messageOf(empty.server.state(), 'Five tips for your first week');
    expect(tips.lmx).toContain(`<Component componentId="${newFooter}" />`);
    // In order: each component before the email that embeds it, the emails before the workflows.
    const at = (test: (request: Recorded) => boolean) => order.findIndex(test);
    const lastAt = (test: (request: Recorded) => boolean) => order.findLastIndex(test);
    const sending = (id: string) => (request: Recorded) => request.path.startsWith('/v1/email-messages/') && String(request.body?.lmx).includes(id);
    expect(at((request) => request.path === '/v1/components' && request.body?.name === 'Header')).toBeLessThan(at(sending(newHeader)));
    expect(at((request) => request.path === '/v1/themes' && request.body?.name === 'Paper')).toBeLessThan(at(sending(newPaper)));
    expect(at((request) => request.path === '/v1/components' && request.body?.name === 'Footer')).toBeLessThan(at(sending(newFooter)));
    const firstWorkflow = at((request) => request.path.startsWith('/v1/workflows'));
    expect(firstWorkflow).toBeGreaterThan(0);
    expect(lastAt((request) => /^\/v1\/(components|themes|transactional-emails)/.test(request.path))).toBeLessThan(firstWorkflow);
    expect(lastAt(sending(newHeader))).toBeLessThan(firstWorkflow);
    expect(lastAt(sending(newPaper))).toBeLessThan(firstWorkflow);
    // The tree still names them by their directories: nothing was written into its LMX.
    expect(readFileSync(join(root, directoryOf(root, 'transactional', 'password-reset'), 'draft.lmx'), 'utf8')).toContain(
      `<Component componentId="${header}" />`,
    );

    // The new account reads as the tree does: its emails, components and workflows diff clean, and
    // its transactional emails differ only in what is published, which a clone leaves to the app.
    const diff = await empty.loopsctl(['content', 'diff', root, '--only', 'components,themes']);
    expect(diff.code, diff.stdout).toBe(0);
    // The workflows differ only in what the API cannot set (an emoji, a webhook experiment), never in their emails.
    const workflows = await empty.loopsctl(['content', 'diff', root, '--only', 'workflows', '--json']);
    for (const record of workflows.json().records) expect(record.patch).not.toContain('/emails/');
    const emails = await empty.loopsctl(['content', 'diff', root, '--only', 'transactional', '--json']);
    expect(emails.json().records.filter((record: { standing: string }) => record.standing !== 'same')).toEqual([]);
    // Pulled back into the tree, the new account changes no LMX file but what is published, which it has none of
    // (its workflows hold what the app is left to set); pushed again, it is sent nothing.
    const unpublished = (files: Record<string, string>) => Object.fromEntries(Object.entries(files).filter(([path]) => !path.endsWith('published.lmx')));
    const files = lmxFiles(root);
    const back = await empty.loopsctl(['content', 'pull', root, ...ONLY_EMAILS]);
    expect(back.code, back.stderr).toBe(0);
    expect(lmxFiles(root)).toEqual(unpublished(files));
    empty.requests.length = 0;
    const again = await empty.loopsctl(['content', 'push', root, '--yes', '--no-check']);
    expect(again.code, again.stderr).toBe(0);
    expect(writes(empty.requests)).toEqual([]);
    // Pulled afresh, its tree names the records by its own directories, and reads as the first but for them.
    const fresh = contentDir();
    expect((await empty.loopsctl(['content', 'pull', fresh, ...ONLY_EMAILS])).code).toBe(0);
    const freshHeader = directoryOf(fresh, 'components', 'header').slice('components/'.length);
    const freshPaper = directoryOf(fresh, 'themes', 'paper').slice('themes/'.length);
    expect(freshHeader).toBe(`header--${newHeader}`);
    const freshDraft = readFileSync(join(fresh, directoryOf(fresh, 'transactional', 'password-reset'), 'draft.lmx'), 'utf8');
    const draft = readFileSync(join(root, directoryOf(root, 'transactional', 'password-reset'), 'draft.lmx'), 'utf8');
    expect(freshDraft).toBe(draft.replace(header, freshHeader).replace(paper, freshPaper));
  }, 240_000);
});

describe('content push of an email naming a component the account lacks', () => {
  it('refuses the email, naming its file and the component, and sends the rest', async () => {
    const seeded = await sandboxes({ initialState: embedding });
    const empty = await sandboxes({
      initialState: (modules) => ({ ...seedState(modules, 'empty'), transactionalGroups: seedState(modules).transactionalGroups }),
    });
    const root = contentDir();
    expect((await seeded.loopsctl(['content', 'pull', root, ...ONLY_EMAILS])).code).toBe(0);
    const header = directoryOf(root, 'components', 'header');
    const paper = directoryOf(root, 'themes', 'paper');
    const reset = directoryOf(root, 'transactional', 'password-reset');
    const why = `draft.lmx names ${paper} and ${header}, which Acme Sandbox (LOOPS_API_KEY at`;

    const plan = await empty.loopsctl(['content', 'push', root, '--only', 'transactional', '--plan']);
    expect(plan.code).toBe(5);
    expect(plan.stdout).toContain(`# ${reset}: would skip (${why}`);
    expect(plan.stdout).toContain('does not have and this push does not make: nothing of it was sent');
    expect(plan.stderr).toMatch(/Plan for Acme Sandbox \(LOOPS_API_KEY at [^)]+\): \d+ to send, 1 skipped; nothing was sent\./);
    empty.requests.length = 0;
    const push = await empty.loopsctl(['content', 'push', root, '--only', 'transactional', '--yes', '--no-check']);
    expect(push.code).toBe(5);
    expect(push.stdout).toMatch(new RegExp(`refused\\s+${reset}\\s+draft\\.lmx names ${paper} and ${header}`));
    expect(push.stderr).toContain('1 naming what the account lacks');
    // Nothing of the password reset was sent; the other emails were.
    const created = writes(empty.requests).filter((request) => request.path === '/v1/transactional-emails');
    expect(created.map((request) => request.body.name)).not.toContain('Password reset');
    expect(created.map((request) => request.body.name)).toContain('Welcome');
    expect(JSON.stringify(writes(empty.requests))).not.toContain(HEADER);

    // Pushed with it, the component is made first and the email named by its new id.
    empty.requests.length = 0;
    const whole = await empty.loopsctl(['content', 'push', root, '--only', `components,themes,${reset}`, '--yes', '--no-check']);
    expect(whole.code, whole.stderr).toBe(0);
    const newHeader = (writes(empty.requests).find((request) => request.body?.name === 'Header')!.answer as { id: string }).id;
    expect(messageOf(empty.server.state(), 'Your password reset link').lmx).toContain(`<Component componentId="${newHeader}" />`);
  });
});

describe('a tree an older pull wrote, with ids in its LMX', () => {
  it('diffs clean and sends nothing; an edit is sent with the ids; a pull writes the names', async () => {
    const seeded = await sandboxes({ initialState: embedding });
    const root = contentDir();
    expect((await seeded.loopsctl(['content', 'pull', root, ...ONLY_EMAILS])).code).toBe(0);
    const header = directoryOf(root, 'components', 'header').slice('components/'.length);
    const paper = directoryOf(root, 'themes', 'paper').slice('themes/'.length);
    const reset = directoryOf(root, 'transactional', 'password-reset');
    // As an older loopsctl wrote it: the account's ids in the LMX, the state's digest taken of that.
    const file = join(root, reset, 'draft.lmx');
    const named = readFileSync(file, 'utf8');
    const withIds = named.replace(header, HEADER).replace(paper, PAPER);
    expect(withIds).not.toBe(named);
    writeFileSync(file, withIds);
    const state = readState(root)!;
    const files = new Map(readdirSync(join(root, reset)).map((name) => [name, readFileSync(join(root, reset, name), 'utf8')]));
    expect([...files.keys()].some((name) => REFERENCE_FILES.has(name))).toBe(true);
    state.accounts['Acme Sandbox']![reset]!.digest = digestOf(files);
    writeState(root, state);

    const diff = await seeded.loopsctl(['content', 'diff', root, ...ONLY_EMAILS]);
    expect(diff.code, diff.stdout).toBe(0);
    seeded.requests.length = 0;
    const push = await seeded.loopsctl(['content', 'push', root, ...ONLY_EMAILS, '--yes']);
    expect(push.code, push.stderr).toBe(0);
    expect(writes(seeded.requests)).toEqual([]);

    // Edited, it is sent with the account's ids, as it names them, and is no conflict.
    writeFileSync(file, withIds.replace('someone asked to reset', 'you asked to reset'));
    const edited = await seeded.loopsctl(['content', 'push', root, ...ONLY_EMAILS, '--yes', '--no-check', '--json']);
    expect(edited.code, edited.stdout).toBe(0);
    expect(edited.json().records.find((line: { path: string }) => line.path === reset)).toMatchObject({ status: 'updated' });
    const lmx = messageOf(seeded.server.state(), 'Your password reset link').lmx;
    expect(lmx).toContain(`<Component componentId="${HEADER}" />`);
    expect(lmx).toContain('you asked to reset');
    // A pull writes the names in the ids' place, once: the file then reads as a pull writes it.
    const pull = await seeded.loopsctl(['content', 'pull', root, ...ONLY_EMAILS]);
    expect(pull.code, pull.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(withIds.replace('someone asked to reset', 'you asked to reset').replace(HEADER, header).replace(PAPER, paper));
    const again = await seeded.loopsctl(['content', 'pull', root, ...ONLY_EMAILS, '--json']);
    expect(again.json().records.filter((line: { status: string }) => line.status !== 'unchanged')).toEqual([]);
  });
});
