/**
 * A content tree for the tests of `content review`: 42 emails (20 transactional, 12 campaigns, two
 * workflows of 5 emails each) using 5 components and 2 themes, committed in a new git repository
 * so that a test edits the working tree and reviews it against HEAD. Which email uses what is
 * written down here (`USES`), so a test states the emails a change must report.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { tempDir } from './temp.js';

const pad = (n: number) => String(n).padStart(2, '0');
export const TRANSACTIONAL = Array.from({ length: 20 }, (_, index) => `transactional/t${pad(index + 1)}--cx${index + 1}`);
export const CAMPAIGNS = Array.from({ length: 12 }, (_, index) => `campaigns/c${pad(index + 1)}--cm${index + 1}`);
export const WORKFLOWS = ['workflows/onboarding--wf1', 'workflows/win-back--wf2'];
export const WORKFLOW_EMAILS = WORKFLOWS.flatMap((workflow) => Array.from({ length: 5 }, (_, index) => `${workflow}/emails/step-${index + 1}`));
export const ALL_EMAILS = [...TRANSACTIONAL, ...CAMPAIGNS, ...WORKFLOW_EMAILS];

/** The theme each email is drawn with: th1 (Ocean) for even positions, th2 (Ember) for odd. */
export const themeOf = (email: string) => (ALL_EMAILS.indexOf(email) % 2 === 0 ? 'th1' : 'th2');
/** The promo component (cmp3) is in the first 7 transactional emails, and only there. */
export const PROMO_USERS = TRANSACTIONAL.slice(0, 7);

function componentsOf(email: string): string[] {
  if (email.startsWith('transactional/')) return ['cmp1', ...(PROMO_USERS.includes(email) ? ['cmp3'] : [])];
  if (email.startsWith('campaigns/')) return ['cmp1', 'cmp2', 'cmp4'];
  return ['cmp5', 'cmp2'];
}

function lmxOf(email: string, index: number): string {
  const variable = email.startsWith('transactional/') ? '{data.firstName}' : '{contact.firstName}';
  const image = email === TRANSACTIONAL[10] ? '\n<Image src="https://cdn.acme.example/hero-1.png" width="560" height="200" alt="Our new dashboard" />' : '';
  return [
    `<Style themeId="${themeOf(email)}" />`,
    `<H1>Message ${index + 1} for ${variable}</H1>`,
    `<Paragraph>This is email number ${index + 1}. It says something <Strong>different</Strong> from the others.</Paragraph>${image}`,
    `<Button href="https://acme.example/go/${index + 1}" align="center">Open ${index + 1}</Button>`,
    ...componentsOf(email).map((id) => `<Component componentId="${id}" />`),
    '',
  ].join('\n');
}

function workflowYaml(name: string, workflow: string): string {
  const steps = WORKFLOW_EMAILS.filter((email) => email.startsWith(`${workflow}/`));
  const lines = [
    `name: ${name}`,
    'mailingList: null',
    'root: trigger',
    'nodes:',
    '  trigger:',
    '    type: SignupTrigger',
    '    next: [send-1]',
    '    reEligible: false',
  ];
  steps.forEach((_, index) => {
    const last = index === steps.length - 1;
    lines.push(
      `  send-${index + 1}:`,
      '    type: SendEmailAction',
      `    next: [${last ? 'done' : `wait-${index + 1}`}]`,
      `    email: emails/step-${index + 1}/email.json`,
    );
    if (!last) lines.push(`  wait-${index + 1}:`, '    type: TimerAction', `    next: [send-${index + 2}]`, '    amount: 1', '    unit: d');
  });
  lines.push('  done:', '    type: ExitAction', '    next: []');
  return `${lines.join('\n')}\n`;
}

function files(): Record<string, string> {
  const tree: Record<string, string> = {
    'themes/ocean--th1/theme.json': '{"name":"Ocean","styles":{"backgroundColor":"#e6f2f8","buttonBodyColor":"#0e7490","heading1Color":"#0c2d3f"}}\n',
    'themes/ember--th2/theme.json': '{"name":"Ember","styles":{"backgroundColor":"#fff4ed","buttonBodyColor":"#c2410c","heading1Color":"#431407"}}\n',
    'components/header--cmp1/component.json': '{"name":"Header"}\n',
    'components/header--cmp1/component.lmx': '<Paragraph align="center" fontSize="12">Acme · your workspace</Paragraph>\n',
    'components/footer--cmp2/component.json': '{"name":"Footer"}\n',
    'components/footer--cmp2/component.lmx': '<Divider />\n<Paragraph align="center" fontSize="12">Acme Inc · 1 Main Street</Paragraph>\n',
    'components/promo--cmp3/component.json': '{"name":"Promo"}\n',
    'components/promo--cmp3/component.lmx': '<Paragraph>Try Acme Pro free for 14 days.</Paragraph>\n',
    'components/legal--cmp4/component.json': '{"name":"Legal"}\n',
    'components/legal--cmp4/component.lmx': '<Paragraph fontSize="11">You get this email because you subscribed.</Paragraph>\n',
    'components/social--cmp5/component.json': '{"name":"Social"}\n',
    'components/social--cmp5/component.lmx': '<Icons><Icon name="github" href="https://github.com/acme" /></Icons>\n',
    // A component no email uses: editing it changes no email.
    'components/unused--cmp6/component.json': '{"name":"Unused"}\n',
    'components/unused--cmp6/component.lmx': '<Paragraph>Nobody embeds this.</Paragraph>\n',
  };
  ALL_EMAILS.forEach((email, index) => {
    const [group, record] = email.split('/');
    const subject = `Subject ${index + 1}`;
    const fields = {
      subject,
      previewText: `Preview ${index + 1}`,
      fromName: 'Acme',
      fromEmail: 'hello@acme.example',
      ...(email === TRANSACTIONAL[9] ? { dataVariablesFallbacks: { firstName: 'there' } } : {}),
    };
    if (group === 'transactional') {
      tree[`${email}/transactional.json`] = `${JSON.stringify({ name: `T ${record!.slice(1, 3)}` })}\n`;
      tree[`${email}/draft.json`] = `${JSON.stringify(fields, null, 2)}\n`;
      tree[`${email}/draft.lmx`] = lmxOf(email, index);
    } else if (group === 'campaigns') {
      tree[`${email}/campaign.json`] = `${JSON.stringify({ name: `C ${record!.slice(1, 3)}` })}\n`;
      tree[`${email}/email.json`] = `${JSON.stringify(fields, null, 2)}\n`;
      tree[`${email}/email.lmx`] = lmxOf(email, index);
    } else {
      tree[`${email}/email.json`] = `${JSON.stringify(fields, null, 2)}\n`;
      tree[`${email}/email.lmx`] = lmxOf(email, index);
    }
  });
  tree[`${WORKFLOWS[0]}/workflow.yaml`] = workflowYaml('Onboarding', WORKFLOWS[0]!);
  tree[`${WORKFLOWS[1]}/workflow.yaml`] = workflowYaml('Win back', WORKFLOWS[1]!);
  tree['loopsctl-state.json'] =
    `${JSON.stringify({ format: 1, kinds: ['transactional', 'campaigns', 'components', 'themes', 'workflows'], accounts: {} }, null, 2)}\n`;
  return tree;
}

/** A git command in `cwd`, as a test's own user; its output. */
function git(cwd: string, ...args: string[]): string {
  const run = spawnSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
}

/**
 * A new repository in `repository` whose one commit, on main, holds the files of its working tree
 * as they are: one `git fast-import` of them all, read here, rather than `git add` and `git commit`,
 * which write an object file for each. Nothing a review reads needs the index, so none is written
 * (`git status` would show every file staged for removal).
 */
export function commitWorkingTree(repository: string, message: string): void {
  git(repository, 'init', '--quiet', '--template=', '--initial-branch=main');
  const files = readdirSync(repository, { recursive: true, encoding: 'utf8' })
    .map((path) => path.split(sep).join('/'))
    .filter((path) => path.split('/')[0] !== '.git' && lstatSync(join(repository, path)).isFile())
    .sort();
  const stream = [Buffer.from(`commit refs/heads/main\ncommitter Test <test@example.com> 0 +0000\ndata ${Buffer.byteLength(message)}\n${message}\n`)];
  for (const path of files) {
    const bytes = readFileSync(join(repository, path));
    stream.push(Buffer.from(`M 100644 inline ${path}\ndata ${bytes.length}\n`), bytes, Buffer.from('\n'));
  }
  const run = spawnSync('git', ['fast-import', '--quiet'], { cwd: repository, input: Buffer.concat(stream) });
  if (run.status !== 0) throw new Error(`git fast-import: ${run.stderr.toString()}`);
}

/** A repository whose `loops/` directory holds the tree, committed; returns the tree's directory. */
export function reviewRepository(): string {
  return reviewRepositoryIn(tempDir('loopsctl-review-'));
}

/** reviewRepository in a directory of the caller's (the benchmark's scratch directory). */
export function reviewRepositoryIn(repository: string): string {
  const root = join(repository, 'loops');
  for (const [path, text] of Object.entries(files())) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  commitWorkingTree(repository, 'content');
  return root;
}

/**
 * Puts the working tree back as committed, for the next change, as `git checkout -- . && git
 * clean -fd` would but without running git: each committed file that differs or is gone written
 * again, anything else in the repository removed. Tests change the working tree, never the index.
 */
export function resetRepository(root: string): void {
  const committed = new Map(Object.entries(files()).map(([path, text]) => [`${basename(root)}/${path}`, text]));
  const directories = new Set(
    [...committed.keys()].flatMap((path) => {
      const parts = path.split('/');
      return parts.slice(1).map((_, at) => parts.slice(0, at + 1).join('/'));
    }),
  );
  const repository = dirname(root);
  const removeExtra = (path: string) => {
    for (const entry of readdirSync(join(repository, path), { withFileTypes: true })) {
      const below = path === '' ? entry.name : `${path}/${entry.name}`;
      if (below === '.git') continue;
      if (entry.isDirectory() && directories.has(below)) removeExtra(below);
      else if (!(entry.isFile() && committed.has(below))) rmSync(join(repository, below), { recursive: true, force: true });
    }
  };
  removeExtra('');
  for (const [path, text] of committed) {
    const file = join(repository, path);
    if (existsSync(file) && readFileSync(file, 'utf8') === text) continue;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
}

/** Replaces text in a file of the tree, failing when the file does not hold it. */
export function editTree(root: string, path: string, from: string | RegExp, to: string): void {
  const file = join(root, path);
  const text = readFileSync(file, 'utf8');
  if (typeof from === 'string' ? !text.includes(from) : !from.test(text)) throw new Error(`${path} has no ${String(from)}`);
  writeFileSync(file, text.replace(from, to));
}

export function writeTree(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

export function removeTree(root: string, path: string): void {
  rmSync(join(root, path), { recursive: true, force: true });
}

/**
 * One email and the footer component it embeds, committed, then a commit's worth of edits in the
 * working tree: its paragraph reworded, a paragraph inserted before the component, the component
 * edited. A review pairs them as a diff does: one block changed, one added, the component changed.
 */
export function insertionBeforeComponent(): { root: string; email: string } {
  const repository = tempDir('loopsctl-review-insertion-');
  const root = join(repository, 'loops');
  const email = 'transactional/welcome--cx1';
  const files: Record<string, string> = {
    'themes/ocean--th1/theme.json': '{"name":"Ocean","styles":{"backgroundColor":"#e6f2f8","buttonBodyColor":"#0e7490"}}\n',
    'components/footer--cmp2/component.json': '{"name":"Footer"}\n',
    'components/footer--cmp2/component.lmx': '<Divider />\n<Paragraph align="center" fontSize="12">Acme Inc · 1 Main Street</Paragraph>\n',
    [`${email}/transactional.json`]: '{"name":"Welcome"}\n',
    [`${email}/draft.json`]: '{"subject":"Welcome","previewText":"Hi","fromName":"Acme","fromEmail":"hello@acme.example"}\n',
    [`${email}/draft.lmx`]: [
      '<Style themeId="th1" />',
      '<H1>Welcome, {data.firstName}</H1>',
      '<Paragraph>Thanks for joining Acme. Your workspace is ready whenever you are.</Paragraph>',
      '<Button href="https://acme.example/start" align="center">Open your workspace</Button>',
      '<Component componentId="cmp2" />',
      '',
    ].join('\n'),
    'loopsctl-state.json': '{"format":1,"kinds":["transactional","campaigns","components","themes","workflows"],"accounts":{}}\n',
  };
  for (const [path, text] of Object.entries(files)) writeTree(root, path, text);
  commitWorkingTree(repository, 'content');
  editTree(root, `${email}/draft.lmx`, 'Thanks for joining', 'Thank you for joining');
  editTree(
    root,
    `${email}/draft.lmx`,
    '<Component componentId="cmp2" />',
    '<Paragraph>Questions? Reply to this email and a person will answer.</Paragraph>\n<Component componentId="cmp2" />',
  );
  editTree(root, 'components/footer--cmp2/component.lmx', '1 Main Street', '2 Market Square');
  return { root, email };
}
