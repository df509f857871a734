/**
 * What the tests of the CI recipe of docs/content.md's "Environments" stand on: the recipe run as
 * written by the built binary: its YAML
 * read from the page, each job on a fresh checkout of a git repository with a config directory of
 * its own (a new runner), each `run:` in bash as GitHub runs it. Two `loopsctl sandbox serve
 * --state` servers stand for staging and production, the production team renamed, so the two
 * teams' names differ as real ones do and environments.json's expectTeam holds each run to its
 * own. The one line changed from the page: each `auth login` names its server with --base-url.
 * environments-ci.test.ts follows a pull request from review to production;
 * environments-ci-again.test.ts, a second change after a first, which finds the state the first
 * run's jobs committed.
 */
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import { parse } from 'yaml';
import { seedId } from '../../../../src/emulator/module.js';
import { readState, writeState } from '../../../../src/emulator/state/index.js';
import { firstLine } from '../../../support/listening.js';
import { BIN, HUNG_AFTER_MS } from '../../../support/run-cli.js';
import { sandboxModules, seedState } from '../../../support/sandbox.js';
import { tempDir } from '../../../support/temp.js';

const PASSWORD_RESET = seedId('transactional/Password reset');
const PRODUCTION_TEAM = 'Acme Production';
const RECIPE = '# .github/workflows/email-environments.yml';

const ENVIRONMENTS = {
  environments: {
    staging: {
      profile: 'staging',
      expectTeam: 'Acme Sandbox',
      values: { appUrl: 'https://staging.example.com', support: 'help+staging@example.com' },
      hosts: ['*.staging.example.com'],
    },
    production: {
      profile: 'production',
      expectTeam: PRODUCTION_TEAM,
      values: { appUrl: 'https://app.example.com', support: 'help@example.com' },
    },
  },
};

interface Step {
  name?: string;
  uses?: string;
  with?: Record<string, unknown>;
  run?: string;
  env?: Record<string, string>;
  if?: string;
}

interface Job {
  needs?: string | string[];
  if?: string;
  environment?: string;
  permissions?: Record<string, string>;
  env?: Record<string, string>;
  steps: Step[];
}

interface Workflow {
  on: Record<string, unknown>;
  jobs: Record<string, Job>;
}

type Event = 'pull_request' | 'push';

/** The recipe's YAML, as the page shows it. */
function recipe(): Workflow {
  const page = readFileSync(join(import.meta.dirname, '../../../../docs/content.md'), 'utf8');
  const at = page.indexOf(RECIPE);
  expect(at, `docs/content.md shows ${RECIPE}`).toBeGreaterThan(0);
  return parse(page.slice(at, page.indexOf('\n```', at))) as Workflow;
}

const servers: ChildProcessWithoutNullStreams[] = [];
afterAll(async () => {
  // Their stdin closed, the servers (--exit-with-parent) stop: each is waited for, its state file let go.
  await Promise.all(
    servers.splice(0).map((server) =>
      server.exitCode !== null
        ? undefined
        : new Promise((resolve) => {
            server.once('exit', resolve);
            server.stdin.end();
          }),
    ),
  );
});

/** `loopsctl sandbox serve --state <file>`, once it printed the address it listens on. */
function serve(state: string): Promise<string> {
  const child = spawn(
    process.execPath,
    [BIN, 'sandbox', 'serve', '--state', state, '--port', '0', '--rate-limit', 'off', '--no-webhooks', '--exit-with-parent'],
    {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOOPSCTL_CONFIG_DIR: join(state, '..', 'server-config'), DO_NOT_TRACK: '1' },
    },
  );
  servers.push(child);
  return firstLine(child, 'loopsctl sandbox serve');
}

/** A directory holding `loopsctl`, the built binary: what `npm install --global loopsctl` puts on PATH. */
function installed(directory: string): string {
  mkdirSync(directory);
  const file = join(directory, 'loopsctl');
  writeFileSync(file, `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`);
  chmodSync(file, 0o755);
  return directory;
}

/** A command that must succeed, its output returned. */
function must(command: string, args: string[], options: { cwd?: string; env?: Record<string, string>; input?: string } = {}): string {
  const result = spawnSync(command, args, { ...options, encoding: 'utf8', timeout: HUNG_AFTER_MS });
  expect(result.status, `${command} ${args.join(' ')}\n${result.stdout}${result.stderr}`).toBe(0);
  return result.stdout;
}

export interface World {
  origin: string;
  /** Each server's state file. */
  states: Record<'staging' | 'production', string>;
  urls: Record<'staging' | 'production', string>;
  bin: string;
  /** A person's machine: their config directory and clone, with both profiles logged in. */
  person: { env: Record<string, string>; clone: string };
  /** A fresh directory for each job: its runner. */
  runner(): string;
}

/** The environment of a process on a runner or on the person's machine: no key, no update check, keys in the config file. */
function machineEnv(home: string, path: string): Record<string, string> {
  return {
    PATH: path,
    HOME: home,
    LOOPSCTL_CONFIG_DIR: join(home, 'config'),
    XDG_CACHE_HOME: join(home, 'cache'),
    LOOPSCTL_KEY_STORAGE: 'file',
    DO_NOT_TRACK: '1',
    GIT_CONFIG_NOSYSTEM: '1',
  };
}

async function world(): Promise<World> {
  const root = tempDir('loopsctl-environments-ci-');
  const staging = join(root, 'staging', 'state.db');
  const production = join(root, 'production', 'state.db');
  writeState(staging, seedState());
  // Another team: the same records, another name.
  writeState(production, { ...seedState(), teamName: PRODUCTION_TEAM });
  const urls = { staging: await serve(staging), production: await serve(production) };
  const bin = installed(join(root, 'bin'));
  const origin = join(root, 'origin.git');
  must('git', ['init', '--quiet', '--bare', '--initial-branch=main', origin]);
  const home = join(root, 'person');
  mkdirSync(home);
  const env = machineEnv(home, `${bin}:${process.env.PATH ?? ''}`);
  for (const profile of ['staging', 'production'] as const)
    must('loopsctl', ['auth', 'login', '--profile', profile, '--with-key-stdin', '--base-url', urls[profile]], { env, input: 'sandbox-key' });
  const clone = join(home, 'repository');
  must('git', ['init', '--quiet', '--initial-branch=main', clone], { env });
  must('git', ['remote', 'add', 'origin', origin], { cwd: clone, env });
  let runners = 0;
  return {
    origin,
    states: { staging, production },
    urls,
    bin,
    person: { env, clone },
    runner: () => {
      runners += 1;
      const directory = join(root, `runner-${runners}`);
      mkdirSync(directory);
      return directory;
    },
  };
}

/** Git as the person runs it in their clone. */
function git(world: World, ...args: string[]): string {
  return must('git', ['-c', 'user.name=Ada', '-c', 'user.email=ada@example.com', '-c', 'commit.gpgsign=false', ...args], {
    cwd: world.person.clone,
    env: world.person.env,
  });
}

/** loopsctl as the person runs it in their clone. */
function loopsctl(world: World, ...args: string[]): string {
  return must('loopsctl', args, { cwd: world.person.clone, env: world.person.env });
}

/** A GitHub expression the recipe uses, evaluated for the event: `${{ … }}` or an `if:`. */
function expression(text: string, event: Event, branch: string): string {
  const value = text.trim();
  const secret = /^secrets\.LOOPS_(STAGING|PRODUCTION)_KEY$/.exec(value);
  if (secret !== null) return 'sandbox-key';
  if (value === 'github.base_ref') return event === 'pull_request' ? 'main' : '';
  if (value === 'github.event_name') return event;
  if (value === 'github.ref_name') return branch;
  const compared = /^github\.event_name == '(\w+)'$/.exec(value);
  if (compared !== null) return String(event === compared[1]);
  throw new Error(`the recipe uses an expression this test does not follow: ${value}`);
}

function filled(text: string, event: Event, branch: string): string {
  return text.replace(/\$\{\{(.*?)\}\}/g, (_whole, inner: string) => expression(inner, event, branch));
}

/** The login line of the recipe, with the server the sandbox stands at: the one change from the page. */
function withServer(run: string, world: World): string {
  return run.replace(/loopsctl auth login --profile (staging|production) --with-key-stdin$/gm, (line, profile: 'staging' | 'production') => {
    return `${line} --base-url ${world.urls[profile]}`;
  });
}

interface JobRun {
  job: string;
  outcome: 'success' | 'failure' | 'skipped';
  log: string;
  /** What actions/upload-artifact kept, by the artifact's name: its files' text, by name. */
  artifacts: Map<string, Map<string, string>>;
}

/** One job on a runner of its own: each step in order, the first that fails failing the job. */
function runJob(world: World, name: string, job: Job, event: Event, at: { branch: string; sha: string }): JobRun {
  const { branch } = at;
  const runner = world.runner();
  const workspace = join(runner, 'workspace');
  let path = process.env.PATH ?? '';
  let log = '';
  const artifacts = new Map<string, Map<string, string>>();
  for (const step of job.steps) {
    if (step.if !== undefined && filled(`\${{ ${step.if} }}`, event, branch) !== 'true') continue;
    const env: Record<string, string> = { ...machineEnv(runner, path), CI: 'true', GITHUB_EVENT_NAME: event };
    for (const [key, value] of Object.entries({ ...job.env, ...step.env })) env[key] = filled(value, event, branch);
    if (step.uses === 'actions/upload-artifact@v4') {
      artifacts.set(String(step.with?.name), upload(workspace, String(step.with?.path)));
      continue;
    }
    if (step.uses !== undefined) {
      expect(step.uses, `job ${name}: a step this test does not follow`).toBe('actions/checkout@v4');
      checkout(world, workspace, event, at, step.with, env);
      continue;
    }
    const run = step.run!;
    if (run === 'npm install --global loopsctl') {
      path = `${world.bin}:${path}`;
      continue;
    }
    const script = withServer(filled(run, event, branch), world);
    // As GitHub runs a step on Ubuntu: bash --noprofile --norc -eo pipefail.
    const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
      cwd: workspace,
      env,
      encoding: 'utf8',
      timeout: HUNG_AFTER_MS,
    });
    log += `$ ${script}\n${result.stdout}${result.stderr}`;
    if (result.status !== 0) return { job: name, outcome: 'failure', log: `${log}(exit ${result.status})\n`, artifacts };
  }
  return { job: name, outcome: 'success', log, artifacts };
}

/** actions/upload-artifact: the workspace's files the pattern names (a `*` in a name), which must be there. */
function upload(workspace: string, pattern: string): Map<string, string> {
  const named = new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
  const files = readdirSync(workspace).filter((file) => named.test(file));
  expect(files, `the artifact's files, ${pattern}`).not.toEqual([]);
  return new Map(files.map((file) => [file, readFileSync(join(workspace, file), 'utf8')]));
}

/**
 * actions/checkout: the commit the event is for (a pull request's head, detached; a push's commit
 * on its branch), or the head of `with.ref` when it names a branch; one commit deep unless
 * fetch-depth: 0.
 */
function checkout(
  world: World,
  workspace: string,
  event: Event,
  at: { branch: string; sha: string },
  options: Step['with'],
  env: Record<string, string>,
): void {
  const run = (...args: string[]) => must('git', args, { cwd: workspace, env });
  mkdirSync(workspace);
  run('init', '--quiet', '--initial-branch=main');
  run('remote', 'add', 'origin', `file://${world.origin}`);
  const ref = options?.ref === undefined ? undefined : String(options.ref);
  const branch = ref ?? at.branch;
  const wanted = ref === undefined ? at.sha : `refs/heads/${ref}`;
  if (options?.['fetch-depth'] === 0) run('fetch', '--quiet', 'origin', '+refs/heads/*:refs/remotes/origin/*');
  run('fetch', '--quiet', '--depth=1', 'origin', `+${wanted}:refs/remotes/origin/${branch}`);
  if (event === 'push' || ref !== undefined) run('checkout', '--quiet', '-B', branch, `refs/remotes/origin/${branch}`);
  else run('checkout', '--quiet', '--detach', `refs/remotes/origin/${branch}`);
}

/** The workflow on an event, its jobs in order, each run when its `if:` holds and the jobs it needs succeeded. */
export function runWorkflow(world: World, event: Event, branch: string): JobRun[] {
  const workflow = recipe();
  // The commit the event is for: every job checks it out, whatever the branch holds by then.
  const at = { branch, sha: must('git', ['rev-parse', `refs/heads/${branch}`], { cwd: world.origin }).trim() };
  expect(Object.keys(workflow.on)).toContain(event);
  const runs: JobRun[] = [];
  for (const [name, job] of Object.entries(workflow.jobs)) {
    const needs = job.needs === undefined ? [] : [job.needs].flat();
    const ready = needs.every((need) => runs.find((run) => run.job === need)?.outcome === 'success');
    const wanted = job.if === undefined || filled(`\${{ ${job.if} }}`, event, branch) === 'true';
    runs.push(ready && wanted ? runJob(world, name, job, event, at) : { job: name, outcome: 'skipped', log: '', artifacts: new Map() });
  }
  return runs;
}

/** Every job of the run as expected, the log of one that is not shown. */
export function expectOutcomes(runs: JobRun[], expected: Record<string, JobRun['outcome']>): void {
  for (const run of runs) expect(run.outcome, `job ${run.job}:\n${run.log}`).toBe(expected[run.job]);
}

/** The password reset's draft as an account holds it, read from its server's state file. */
export function draftIn(world: World, account: 'staging' | 'production'): string {
  const state = readState(world.states[account], sandboxModules) as unknown as {
    transactionalEmails: { record: { id: string; draftEmailMessageId: string | null } }[];
    emailMessages: { message: { id: string; lmx: string } }[];
  };
  const draft = state.transactionalEmails.find(({ record }) => record.id === PASSWORD_RESET)?.record.draftEmailMessageId;
  const lmx = state.emailMessages.find(({ message }) => message.id === draft)?.message.lmx;
  expect(lmx, `${account}'s password reset has a draft`).toBeDefined();
  return lmx!;
}

/** A change to the password reset, on a branch of its own, pushed: a pull request. */
export function pullRequest(world: World, branch: string, lmx: string): void {
  git(world, 'checkout', '--quiet', '-b', branch, 'main');
  const reset = join(world.person.clone, 'loops', 'transactional');
  const directory = readdirSync(reset).find((name) => name.endsWith(`--${PASSWORD_RESET}`))!;
  writeFileSync(join(reset, directory, 'draft.lmx'), lmx);
  git(world, 'commit', '--quiet', '-am', `Change the password reset (${branch})`);
  git(world, 'push', '--quiet', 'origin', branch);
}

/** The pull request merged into main, as the person merges it. */
export function merge(world: World, branch: string): void {
  git(world, 'checkout', '--quiet', 'main');
  git(world, 'pull', '--quiet', '--ff-only', 'origin', 'main');
  git(world, 'merge', '--quiet', '--no-ff', '-m', `Merge ${branch}`, branch);
  git(world, 'push', '--quiet', 'origin', 'main');
}

/**
 * The two accounts, a runner for each job, and the person's clone as the page's set-up leaves it:
 * the tree pulled from staging with its environments, the first promotion made by hand, committed
 * and pushed.
 */
export async function readyWorld(): Promise<World> {
  const w = await world();
  mkdirSync(join(w.person.clone, 'loops'));
  writeFileSync(join(w.person.clone, 'loops', 'environments.json'), `${JSON.stringify(ENVIRONMENTS, null, 2)}\n`);
  loopsctl(w, 'content', 'pull', '--env', 'staging');
  git(w, 'add', '.');
  git(w, 'commit', '--quiet', '-m', 'Pull the emails from staging');
  loopsctl(w, 'content', 'promote', '--from', 'staging', '--to', 'production', '--force', '--yes');
  git(w, 'commit', '--quiet', '-am', "Record production's records");
  git(w, 'push', '--quiet', '--set-upstream', 'origin', 'main');
  return w;
}

/** The password reset's text a change gives it: a link to the page `words` names, with both values. */
export function resetText(words: string): string {
  return `<Paragraph>Open <Link href="{env.appUrl}/${words}?token={data.token}">the page</Link>, or write to {env.support}.</Paragraph>\n`;
}

/**
 * The change on `branch` merged and pushed, and the workflow of that push: applied to staging and
 * promoted to production, each account given its own values, and each job's account's revisions
 * committed to the repository for the next run's guards.
 */
export function shipped(w: World, branch: string, words: string): void {
  merge(w, branch);
  const merged = runWorkflow(w, 'push', 'main');
  expectOutcomes(merged, { check: 'success', staging: 'success', production: 'success' });
  expect(draftIn(w, 'staging')).toContain(`https://staging.example.com/${words}?token={data.token}`);
  expect(draftIn(w, 'production')).toContain(`https://app.example.com/${words}?token={data.token}`);
  expect(draftIn(w, 'production')).toContain('help@example.com');
  expect(draftIn(w, 'production')).not.toContain('staging');
  git(w, 'pull', '--quiet', '--ff-only', 'origin', 'main');
  expect(git(w, 'log', '-2', '--format=%s')).toBe("Record production's revisions\nRecord staging's revisions\n");
}
