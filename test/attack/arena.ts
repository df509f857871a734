/**
 * Where the attack suite's attacks land: one sandbox a test file, whose state each attack sets
 * (a target live or a draft) and takes back after, the seed's records each attack aims at, the
 * servers of `loopsctl mcp` at each tier (started once a file), and what an attack asserts.
 *
 * A live target is never changed without the yes: nothing reached the sandbox, its state is as it
 * was, and the refusal says a person's yes is needed. The yes lets the call through: the request
 * of the operation, on that very target, reached the sandbox. That the yes lets through exactly
 * the calls it was given for, and no call changed since, is asserted on the same record,
 * `Attempt.sent` (binding.ts).
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { type StateCore, seedId } from '../../src/emulator/module.js';
import { campaigns } from '../../src/emulator/routes/campaign-records.js';
import { emailMessages, findMessage } from '../../src/emulator/routes/email-message-records.js';
import { workflows } from '../../src/emulator/routes/workflow-records.js';
import { run, tempDir, typedInput } from '../support/main.js';
import { type McpRun, startMcp } from '../support/mcp.js';
import { type Recorded, type RecordingSandbox, recordingSandbox } from '../support/recording.js';
import { operationOf, type TargetKind } from './operations.js';

export const WIN_BACK = seedId('workflow/Win-back (draft)');
export const NOVEMBER = seedId('campaign/November newsletter');
export const NOVEMBER_EMAIL = seedId('email-message/november-newsletter');
export const PASSWORD_RESET = seedId('transactional/Password reset');
export const RESET_DRAFT = seedId('transactional/Password reset/draft');
export const RESET_PUBLISHED = seedId('transactional/Password reset/published');
export const PRODUCT_UPDATES = seedId('mailing-list/Product updates');
/** A component and a theme no email of the seed uses: live once a live email does (Target). */
export const HEADER = seedId('component/Header');
export const MIDNIGHT = seedId('theme/Midnight');
/** The account's default theme: live while a live email names no theme or one the account does not hold (Target). */
export const DEFAULT_THEME = seedId('theme/Default');

/** A target of an attack: which record, and whether it is live when the attack is made. */
export interface Target {
  kind: TargetKind;
  live: boolean;
}

/** The ids an attack names, read from the seed's records: Win-back's nodes by their type, the emails by what holds them. */
export interface Ids {
  workflow: string;
  trigger: string;
  filter: string;
  experiment: string;
  control: string;
  variant: string;
  send: string;
  exit: string;
  workflowEmail: string;
  campaign: string;
  campaignEmail: string;
  transactional: string;
  component: string;
  theme: string;
  /** The message an email attack aims at: the target's (a transactional email's published one when live, its draft when not). */
  message: string;
  list: string;
}

/** What a road reports of one attempt: how it ended, and its words. */
export interface Attempt {
  /** The exit code, or the tool error's (0 for a call that succeeded). */
  code: number;
  /** What it said: stderr (and stdout, where a report says why a record was held back), or the tool's error and any question put to the person. */
  message: string;
  /** The writes that reached the sandbox, as operations on paths. */
  sent: Recorded[];
  /** A tool's answer, as the client got it (a pending change's id, an error's code). */
  answer?: { plan?: string; error?: { code?: string; message?: string; exitCode?: number } } & Record<string, unknown>;
}

/** The servers of an arena: of the read tier, of the write tier, of the destructive tier whose client asks its person, and of the destructive tier whose client cannot (`pending`: a change waits for `loopsctl approve`). */
export type Tier = 'read' | 'write' | 'destructive' | 'pending';

export class Arena {
  private seed = '';
  private snapshot?: StateCore;
  private readonly servers = new Map<Tier, McpRun>();
  /** The config directory of each server, where the changes it proposes are kept. */
  readonly configs = new Map<Tier, string>();
  /** How the person answers the destructive tier's questions. */
  answer: 'accept' | 'decline' = 'decline';
  /** The questions put to the person since the last attempt. */
  readonly asked: string[] = [];
  /** What happens in the account while the person reads each next question (a teammate's edit, a workflow started), in order. */
  readonly whileAsked: (() => void | Promise<void>)[] = [];
  /** The config directory of the server whose changes wait for `loopsctl approve`, where the person approves them. */
  readonly approvals = tempDir('loopsctl-attack-approvals-');
  /** A directory for the files attacks use: `loopsctl mcp --root`. */
  readonly root = tempDir('loopsctl-attack-');
  /** The config directory of every CLI run of the file: an undo finds what the apply before it kept. */
  readonly config = tempDir('loopsctl-attack-config-');

  constructor(readonly sandbox: RecordingSandbox) {}

  async open(): Promise<void> {
    this.snapshot = structuredClone(this.sandbox.server.state());
    this.seed = JSON.stringify(this.snapshot);
  }

  async close(): Promise<void> {
    for (const server of this.servers.values()) await server.close();
    await this.sandbox.close();
  }

  /** The sandbox's state, as text: what a refusal must leave as it was. */
  state(): string {
    return JSON.stringify(this.sandbox.server.state());
  }

  /**
   * The seed's state back (unless `keep`: the state as the attack's earlier steps left it), then
   * the target made live or left a draft; the record of requests emptied.
   */
  set(target?: Target, keep = false): void {
    const snapshot = this.snapshot!;
    if (!keep && this.state() !== this.seed)
      this.sandbox.server.update((state) => {
        for (const key of Object.keys(state)) delete (state as Record<string, unknown>)[key];
        Object.assign(state, structuredClone(snapshot));
      });
    if (target !== undefined) this.make(target);
    // An import's journal beside its file keeps it from sending a record twice: each attack imports anew.
    for (const name of readdirSync(this.root)) if (name.endsWith('.journal.jsonl')) rmSync(join(this.root, name));
    this.sandbox.requests.length = 0;
    this.asked.length = 0;
    this.whileAsked.length = 0;
  }

  /**
   * The target made live (as a person starts a workflow or schedules a campaign in the app: its
   * status alone; a component or a theme, once the published email of Password reset uses it, as a
   * person saves it in the app's editor) or left a draft (no email of the seed uses either).
   */
  make(target: Target): void {
    if (target.live && (target.kind === 'component' || target.kind === 'theme'))
      this.sandbox.server.update((state) => {
        const { message } = findMessage(state, RESET_PUBLISHED)!;
        message.lmx = target.kind === 'component' ? `${message.lmx}\n<Component componentId="${HEADER}" />` : `<Style themeId="${MIDNIGHT}" />\n${message.lmx}`;
      });
    // Every email names Midnight, so none is drawn with the default theme; live, the published email of
    // Password reset names a theme deleted in the app, which the renderers draw with the default one.
    if (target.kind === 'default theme')
      this.sandbox.server.update((state) => {
        for (const { message } of emailMessages.of(state))
          message.lmx = `<Style themeId="${target.live && message.id === RESET_PUBLISHED ? 'theme-deleted-in-the-app' : MIDNIGHT}" />\n${message.lmx}`;
      });
    if (target.kind === 'workflow' || target.kind === 'workflow email')
      this.sandbox.server.update((state) => {
        workflows.of(state).find((workflow) => workflow.id === WIN_BACK)!.status = target.live ? 'Sending' : 'Draft';
      });
    if (target.live && (target.kind === 'campaign' || target.kind === 'campaign email'))
      this.sandbox.server.update((state) => {
        // Scheduled in the app: no write of the API moves a campaign out of Draft.
        Object.assign(campaigns.of(state).find((campaign) => campaign.id === NOVEMBER)!, {
          status: 'Scheduled',
          scheduling: { method: 'schedule', timestamp: '2031-01-06T09:00:00.000Z' },
        });
      });
  }

  ids(target?: Target): Ids {
    const win = workflows.of(this.snapshot!).find((workflow) => workflow.id === WIN_BACK)!;
    const node = (type: string, which = 0) => win.nodes.filter((each) => each.typeName === type)[which]!.id;
    const send = win.nodes.find((each) => each.typeName === 'SendEmailAction') as unknown as { id: string; emailMessageId: string };
    const control = win.nodes.find((each) => each.typeName === 'VariantNode' && (each as { isControl?: boolean }).isControl === true)!.id;
    const variant = win.nodes.find((each) => each.typeName === 'VariantNode' && (each as { isControl?: boolean }).isControl !== true)!.id;
    const message = {
      workflow: send.emailMessageId,
      'workflow email': send.emailMessageId,
      campaign: NOVEMBER_EMAIL,
      'campaign email': NOVEMBER_EMAIL,
      'transactional email': target?.live === true ? RESET_PUBLISHED : RESET_DRAFT,
      // The email that uses it once live: what a component's or a theme's write reaches.
      component: RESET_PUBLISHED,
      theme: RESET_PUBLISHED,
      'default theme': RESET_PUBLISHED,
    }[target?.kind ?? 'workflow'];
    return {
      workflow: WIN_BACK,
      trigger: node('BlankTrigger'),
      filter: node('AudienceFilter'),
      experiment: node('ExperimentBranchNode'),
      control,
      variant,
      send: send.id,
      exit: node('ExitAction'),
      workflowEmail: send.emailMessageId,
      campaign: NOVEMBER,
      campaignEmail: NOVEMBER_EMAIL,
      transactional: PASSWORD_RESET,
      message,
      list: PRODUCT_UPDATES,
      component: HEADER,
      theme: target?.kind === 'default theme' ? DEFAULT_THEME : MIDNIGHT,
    };
  }

  /**
   * The writes that reached the sandbox since the state was set; not a dry run, which changes
   * nothing ("Make a dry run request using `dryRun: true`"): what a person is asked about shows
   * the contacts it would discard.
   */
  sent(): Recorded[] {
    return this.sandbox.requests.filter((request) => request.method !== 'GET' && request.path.startsWith('/v1/') && request.body?.dryRun !== true);
  }

  /** `loopsctl mcp` on this sandbox at a tier, with --root, started at its first use. */
  async mcp(tier: Tier): Promise<McpRun> {
    let server = this.servers.get(tier);
    if (server === undefined) {
      const config = tier === 'pending' ? this.approvals : tempDir();
      this.configs.set(tier, config);
      const allow = { read: [], write: ['--allow-writes'], destructive: ['--allow-destructive'], pending: ['--allow-destructive'] }[tier];
      server = await startMcp([...allow, '--root', this.root], {
        env: { ...this.sandbox.env, LOOPSCTL_CONFIG_DIR: config, XDG_CACHE_HOME: join(config, 'cache') },
        person:
          tier === 'pending'
            ? false
            : async (request) => {
                this.asked.push(request.message);
                await this.whileAsked.shift()?.();
                return this.answer === 'accept' ? { action: 'accept', content: { approve: true } } : { action: 'decline' };
              },
      });
      this.servers.set(tier, server);
    }
    return server;
  }

  /** The person approves a change that waits, at a terminal: `loopsctl approve <id>`, answered y. */
  async approve(id: string): Promise<void> {
    const input = typedInput();
    input.write('y\r');
    const approved = await run(['approve', id], { env: { LOOPSCTL_CONFIG_DIR: this.approvals }, input, tty: { columns: 100 } });
    expect(approved.code, approved.stderr).toBe(0);
  }

  /** A CLI run's attempt; its words are its stderr and, where a report says why a record was held back, its stdout. */
  async cli(argv: string[], input?: string): Promise<Attempt> {
    const env = { LOOPSCTL_CONFIG_DIR: this.config, XDG_CACHE_HOME: join(this.config, 'cache') };
    const ran = await this.sandbox.loopsctl(argv, { env, ...(input === undefined ? {} : { input }) });
    return { code: ran.code, message: `${ran.stderr}${ran.stdout}`, sent: this.sent() };
  }

  /** A tool call's attempt, at a tier. */
  async tool(tier: Tier, name: string, input: Record<string, unknown>): Promise<Attempt> {
    const server = await this.mcp(tier);
    type Answer = { isError?: boolean; structuredContent?: { error?: { exitCode?: number; message?: string; code?: string } } };
    // A tool the server does not offer is a protocol error, which the client throws.
    const answer = (await server.client.callTool({ name, arguments: input }).catch((error: Error) => ({
      isError: true,
      structuredContent: { error: { exitCode: -1, code: 'not_offered', message: error.message } },
    }))) as Answer;
    const error = answer.isError === true ? answer.structuredContent?.error : undefined;
    const message = [error?.code ?? '', error?.message ?? '', ...this.asked].join('\n');
    return { code: error === undefined ? 0 : (error.exitCode ?? 1), message, sent: this.sent(), answer: answer.structuredContent };
  }
}

/** An arena for a test file: the sandbox opened before its tests, closed after them. */
export function arenaForFile(): () => Arena {
  let arena: Arena | undefined;
  beforeAll(async () => {
    arena = new Arena(await recordingSandbox());
    await arena.open();
  });
  afterAll(async () => {
    await arena?.close();
  });
  return () => arena!;
}

/** The words of a refusal for want of a person's yes, on each road. */
const REFUSAL = new RegExp(
  [
    "needs a person's yes",
    'approval_needed',
    'not_approved',
    // A tool, or an input, of the destructive tier on a server of the write tier: there is no yes to give there.
    'makes \\S+ a destructive call, which this server does not allow',
    'the server was started without --allow-destructive',
    // A push holds a live workflow back, and says how a person changes it.
    'push with --live to change it anyway',
  ].join('|'),
);

/**
 * The words of a refusal on a server of the read tier: a tool that may write is not offered there,
 * and `run_command` names the tier a command needs.
 */
export const READ_TIER_REFUSAL =
  /not_offered|is a (write|destructive) command|a (write|destructive) command, and the server was started without --allow-(writes|destructive)/;

/** A live target left unchanged: nothing sent, the state as it was, and a refusal that says why (`words`: a person's yes is needed). */
export function expectRefused(arena: Arena, attempt: Attempt, before: string, what: string, words = REFUSAL): void {
  expect(
    attempt.sent.map((request) => `${request.method} ${request.path}`),
    `${what}: sent`,
  ).toEqual([]);
  expect(arena.state() === before, `${what}: the sandbox's state changed`).toBe(true);
  expect(attempt.message, `${what}: the refusal does not say why`).toMatch(words);
  expect(attempt.code, `${what}: ${attempt.message}`).not.toBe(0);
}

/** The call let through: a request of the operation, on the target's record, reached the sandbox. */
export function expectThrough(attempt: Attempt, operation: string, record: string | undefined, what: string): void {
  const made = attempt.sent.filter(
    (request) => operationOf(request.method, request.path) === operation && (record === undefined || request.path.includes(record)),
  );
  expect(made.length, `${what}: no ${operation} of ${record ?? 'its record'} reached the sandbox (exit ${attempt.code}: ${attempt.message})`).toBeGreaterThan(
    0,
  );
}
