/**
 * What a command gets from the run: the runtime, the global options, the Output, and factories
 * for credentials and API clients. The HTTP stack, the config store and the sandbox are imported
 * only when a command first asks for them, so a local command loads none of them. Everything a run
 * opens (connections, an in-process sandbox) is closed by `close()`, which `main()` calls.
 */

import type { ApiClient } from '../api/client.js';
import type { HttpRequest, HttpTransport, TransportOptions as HttpTransportOptions, RetryNotice } from '../api/http.js';
import type { OutsideRequest } from '../api/outside.js';
import type { Pacer } from '../api/pacer.js';
import type { ProxySettings } from '../api/proxy.js';
import { builtinModule } from '../base/builtin.js';
import { ProtectedError, UsageError } from '../base/errors.js';
import type { RequestPool } from '../base/node-http.js';
import { VERSION } from '../base/version.js';
import { configDirectory } from '../config/paths.js';
import type { ProfileStore } from '../config/store.js';
import type { JqFilter } from '../render/jq.js';
import { Output } from '../render/output.js';
import type { BoundCall } from './bound-calls.js';
import { type Credentials, ENVIRONMENT_ACCOUNT, keyHinted, type ProfileChoice, SANDBOX_ACCOUNT } from './credentials.js';
import type { WriteGate } from './gate.js';
import type { GlobalOptions } from './global-options.js';
import { baseUrlOf, chosenProfileOf, expectedTeamOf, storedKeyOf } from './key-choice.js';
import type { Runtime } from './runtime.js';
import { type RunWrites, WritePath } from './write-path.js';

export type { GlobalOptions } from './global-options.js';
export type { RunWrites };

export class CommandContext {
  readonly out: Output;
  private readonly closers: (() => Promise<void>)[] = [];
  private runPacer?: Pacer;
  private runClient?: Promise<ApiClient>;
  private runCredentials?: Promise<Credentials>;
  /** Aborted by cancel(): requests in flight end at once. */
  private readonly cancellation = new AbortController();
  private sandbox?: Promise<{ url: string; apiKey: string; pool: RequestPool }>;
  /** Why the in-process sandbox could not answer (its state file cannot be read): the run's failure, whatever the command saw. */
  sandboxFailure?: Error;
  /** What each write of the run passes before it is sent: the team check, --dry-run's hold, the gate. */
  private writePath?: WritePath;
  /** The writes --dry-run held, in the order the command would have sent them. */
  readonly held: HttpRequest[] = [];
  /** The same, as a person's yes binds them (src/core/bound-calls.ts). */
  readonly heldCalls: BoundCall[] = [];
  /** The command that runs, and the local files it was given: for the journal of changes (set by runCommand). */
  running?: { words: string[]; files: string[] };
  /** The records' names by their ids (an email's by its messages'), as a command knows them: a journal line names the record its write changes. */
  readonly recordNames = new Map<string, string>();
  /** Its client keeps what it read for the rest of the run (src/api/read-cache.ts): set by runCommand as the command loads. */
  readsOnce = false;

  /**
   * `jq` is the --jq expression, compiled; `parent`, the context whose key, client, sandbox and
   * pace this one shares (see forRun).
   */
  /** The run's global options: its own copy, which the account a plan names may complete (takeAccountOf). */
  readonly globals: GlobalOptions;

  constructor(
    readonly runtime: Runtime,
    globals: GlobalOptions,
    jq?: JqFilter,
    readonly writes: RunWrites = { dryRun: false, allowWrites: false },
    private readonly parent?: CommandContext,
    /** Who runs it, when not the terminal's user: the MCP client that called the tool. */
    readonly actor?: string,
  ) {
    this.globals = { ...globals };
    this.out = new Output({
      json: globals.json === true,
      jq,
      color: globals.color,
      stdout: runtime.stdout,
      stderr: () => runtime.stderr,
      env: runtime.env,
      signal: runtime.signal,
      paged: runtime.paged,
      debug: globals.debug ? (line) => runtime.stderr.write(`${line}\n`) : undefined,
      // A run for a caller in this process (forRun: a tool call) keeps the values it writes as JSON, which the caller answers with.
      keepWritten: parent !== undefined,
    });
  }

  /**
   * A context for one more run in this process (a tool call of `loopsctl mcp`), with its own
   * streams and options, that shares this one's key, client, sandbox and pace, made with this
   * one's runtime so that ending the run ends none of them; closing this one closes them.
   */
  forRun(runtime: Runtime, globals: GlobalOptions, writes: RunWrites, actor?: string): CommandContext {
    return new CommandContext(runtime, globals, undefined, writes, this, actor);
  }

  /** The whole context, for a command that runs others in this process, which share it (capabilities.ts: `commands`). */
  get whole(): CommandContext {
    return this;
  }

  get env(): Record<string, string | undefined> {
    return this.runtime.env;
  }

  get configDir(): string {
    return configDirectory(this.runtime.env, this.runtime.platform);
  }

  /** The stored profile a command means: --profile, else LOOPSCTL_PROFILE, else the default one (`auth switch`), else "default". */
  async chosenProfile(store?: ProfileStore): Promise<{ name: string; chosenBy: ProfileChoice }> {
    return chosenProfileOf(this.globals, this.env, store ?? (await this.profileStore()));
  }

  /**
   * Runs against the account a plan or a change names (`account`: a stored profile, the sandbox's,
   * or LOOPS_API_KEY's, as accountOf writes it) when the command line named none (--sandbox,
   * --profile, --base-url): `loopsctl apply change.json` of a plan made with --sandbox applies it
   * to the sandbox. A profile not stored here leaves the usual choice, which the account check then
   * holds to the plan's team. Not in a tool call, whose server keeps the account it was started on,
   * nor once the run has picked its key.
   */
  async takeAccountOf(account: string): Promise<void> {
    if (this.parent !== undefined || this.runCredentials !== undefined || this.sandbox !== undefined) return;
    if (this.globals.sandbox === true || this.globals.profile !== undefined || this.globals.baseUrl !== undefined) return;
    if (account === SANDBOX_ACCOUNT) this.globals.sandbox = true;
    else if (account !== ENVIRONMENT_ACCOUNT && (await this.profileStore()).profile(account) !== undefined) this.globals.profile = account;
  }

  /**
   * Runs as an environment of a content tree (`--env`): with its profile, and as the team it names,
   * as if --profile and --expect-team had said so. A command line that chose another account
   * (--sandbox, another --profile or --expect-team) is refused rather than overridden.
   */
  /** The team an environment of a content tree names (takeEnvironment), unless --expect-team names it. */
  private environmentTeam?: { name: string; by: string };

  async takeEnvironment(name: string, profile: string, expectTeam: string | undefined): Promise<void> {
    const flag = `--env ${name}`;
    // A tool call of `loopsctl mcp` runs on its server's account: it takes an environment only when that is its account.
    if (this.parent !== undefined) {
      const inUse = await this.parent.profileInUse();
      if (inUse !== profile)
        throw new UsageError(
          `${flag} runs with profile "${profile}", and this server runs with ${inUse === undefined ? 'no stored profile' : `profile "${inUse}"`}`,
          {
            hint: `start \`loopsctl mcp\` with --profile ${profile} for this environment`,
          },
        );
    } else {
      if (this.globals.sandbox === true) throw new UsageError(`${flag} runs with profile "${profile}": --sandbox cannot be combined with it`);
      if (this.globals.profile !== undefined && this.globals.profile !== profile)
        throw new UsageError(`${flag} runs with profile "${profile}", not --profile ${this.globals.profile}`, {
          hint: 'leave out --profile: the environment names its profile (environments.json)',
        });
    }
    if (expectTeam !== undefined && this.globals.expectTeam !== undefined && this.globals.expectTeam !== expectTeam)
      throw new UsageError(`${flag} expects team "${expectTeam}", not --expect-team ${this.globals.expectTeam}`);
    if (this.parent === undefined) this.globals.profile = profile;
    // Named as where it comes from: a refusal says environments.json, not a flag nobody gave; a tool call's writes are checked against it too.
    if (expectTeam !== undefined && this.globals.expectTeam === undefined)
      this.environmentTeam = { name: expectTeam, by: `environment "${name}" of environments.json` };
  }

  /**
   * A context that reads another account in this run, its own output discarded: `content
   * promote`'s source, an environment whose profile is not the run's. It chooses its own profile
   * (takeEnvironment), sends nothing, and is closed with this one.
   */
  readerOfAnother(): CommandContext {
    // node:stream when a promotion asks for it: a run that reads one account loads no stream machinery.
    const discard = new (builtinModule('node:stream').Writable)({ write: (_chunk, _encoding, done) => done() });
    const { profile: _profile, expectTeam: _team, baseUrl: _url, sandbox: _sandbox, jq: _jq, ...globals } = this.globals;
    const other = new CommandContext({ ...this.runtime, stdout: discard, stderr: discard }, { ...globals, json: false, output: undefined }, undefined, {
      dryRun: false,
      allowWrites: false,
      tier: 'read',
    });
    this.closers.push(() => other.close());
    return other;
  }

  /** The stored profile whose key the run uses; undefined when it uses none (--sandbox, LOOPS_API_KEY without --profile). */
  async profileInUse(): Promise<string | undefined> {
    if (this.parent !== undefined) return this.parent.profileInUse();
    if (this.globals.sandbox === true) return undefined;
    if (this.globals.profile === undefined && this.env.LOOPS_API_KEY?.trim()) return undefined;
    return (await this.chosenProfile()).name;
  }

  /** The key the precedence rules pick: --sandbox, --profile, LOOPS_API_KEY, LOOPSCTL_PROFILE, the default profile. */
  credentials(): Promise<Credentials> {
    if (this.parent !== undefined) return this.parent.credentials();
    this.runCredentials ??= this.findCredentials();
    return this.runCredentials;
  }

  private async findCredentials(): Promise<Credentials> {
    if (this.globals.sandbox) return { apiKey: (await this.startSandbox()).apiKey, source: 'sandbox', chosenBy: 'sandbox' };
    return storedKeyOf(this.globals, this.env, () => this.profileStore(), this.runtime.signal);
  }

  /**
   * A refused key is explained by where it came from: the variable to check or unset, or the
   * profile to check, keeping --profile in the command to run when the person gave it.
   */
  async withKeyHint(error: unknown): Promise<unknown> {
    const asked = (this.parent ?? this).runCredentials;
    return asked === undefined ? error : keyHinted(error, asked);
  }

  async profileStore(): Promise<ProfileStore> {
    const { ProfileStore } = await import('../config/store.js');
    return new ProfileStore(this.configDir);
  }

  /**
   * The run's client, with the key the precedence rules pick: made once, so the key is looked up
   * once and every request of the run shares one connection pool and one pace.
   */
  client(): Promise<ApiClient> {
    // A run that may write keeps a transport of its own, with the shared pace and sandbox: the team
    // check before its first write and --dry-run's holding are the run's, not the server's.
    if (this.parent !== undefined && (this.writes.tier === undefined || this.writes.tier === 'read')) return this.parent.client();
    this.runClient ??= this.credentials().then(({ apiKey }) => this.clientWithKey(apiKey));
    return this.runClient;
  }

  /**
   * A client for a key under limits of its own (`completion __ids`: one quick attempt), made by a
   * context of its own, which `close` closes: none of the run's connections wait on it.
   */
  async clientWithLimits(apiKey: string, limits: Pick<GlobalOptions, 'timeout' | 'retries'>): Promise<{ client: ApiClient; close(): Promise<void> }> {
    const own = new CommandContext(this.runtime, { ...this.globals, ...limits });
    try {
      return { client: await own.clientWithKey(apiKey), close: () => own.close() };
    } catch (error) {
      await own.close();
      throw error;
    }
  }

  async clientWithKey(apiKey: string): Promise<ApiClient> {
    const [{ ApiClient }, transport, reads, gates] = await Promise.all([
      import('../api/client.js'),
      this.transport(apiKey),
      this.readsOnce ? import('../api/read-cache.js') : undefined,
      this.mayWrite() ? import('./gate.js') : undefined,
    ]);
    // The run's gate, which learns from its answers what holds each email message (core/gate.ts).
    const gate = gates === undefined ? undefined : (this.wayOut().gate ??= new gates.WriteGate(gates.readThrough(transport)));
    const judged = gate === undefined || !gates!.gateJudges(this.writes) ? transport : gates!.learningFrom(transport, gate);
    return new ApiClient(reads === undefined ? judged : new reads.RunReads(judged));
  }

  /** The records the run's gate found live (core/gate.ts, liveKey): under a capture, what a person's yes covers. */
  liveFound(): string[] {
    return [...(this.writePath?.gate?.foundLive ?? [])];
  }

  /** The gate that judges the run's writes, for a check before any of them (an apply's of its units). */
  async writeGate(): Promise<WriteGate> {
    await this.client();
    const gate = this.writePath?.gate;
    if (gate === undefined) throw new Error('a run that reads only has no write gate');
    return gate;
  }

  async transport(apiKey: string): Promise<HttpTransport> {
    const [{ HttpTransport, maxBodyBytes }, pacer, { formatSeconds }, watchWrite] = await Promise.all([
      import('../api/http.js'),
      this.pacer(),
      import('../api/retry.js'),
      this.journalWatcher(),
    ]);
    const { globals } = this;
    const lines = this.requestLines();
    const onRetry = (notice: RetryNotice) =>
      lines.retry(`${notice.request}: ${notice.reason}; retrying in ${formatSeconds(notice.delayMs)} (retry ${notice.retry} of ${notice.retries})`);
    const transport = new HttpTransport({
      baseUrl: await this.baseUrl(),
      apiKey,
      userAgent: `loopsctl/${VERSION}`,
      timeoutMs: globals.timeout * 1000,
      retry: { retries: globals.retries },
      onRetry,
      debug: lines.debug,
      signal: this.cancelledWithRun(),
      pacer,
      maxBodyBytes: maxBodyBytes(this.env),
      proxy: this.proxySettings(),
      pool: await this.sandboxPool(),
      beforeWrite: this.mayWrite() ? (req, target, send) => this.wayOut().beforeWrite(req, target, send) : undefined,
      watchWrite,
    });
    this.closers.push(() => transport.close());
    return transport;
  }

  /**
   * The transport's signal: the context's cancellation, which the run's interruption also aborts
   * while the context is open (the first call of AbortSignal.any() alone costs a start 0.16 ms).
   */
  private cancelledWithRun(): AbortSignal {
    const { signal } = this.runtime;
    const follow = () => this.cancellation.abort(signal.reason);
    signal.addEventListener('abort', follow, { once: true });
    this.closers.push(async () => signal.removeEventListener('abort', follow));
    if (signal.aborted) follow();
    return this.cancellation.signal;
  }

  private mayWrite(): boolean {
    return this.writes.tier !== undefined && this.writes.tier !== 'read';
  }

  /** What keeps each configuration write of a run that may write in the journal of changes (core/change-journal-watch.ts). */
  private async journalWatcher(): Promise<HttpTransportOptions['watchWrite']> {
    if (!this.mayWrite()) return undefined;
    const [{ journalWatcher }, baseUrl] = await Promise.all([import('./change-journal-watch.js'), this.baseUrl()]);
    return journalWatcher({
      configDir: this.configDir,
      baseUrl,
      now: this.runtime.now,
      env: this.env,
      actor: this.actor,
      command: () => this.running,
      nameOf: (ids) =>
        Object.values(ids)
          .map((id) => this.recordNames.get(id))
          .find((name) => name !== undefined),
      account: async () => {
        const { profile, teamName } = await this.credentials();
        return { profile, team: this.writePath?.checkedTeam ?? teamName };
      },
    });
  }

  /**
   * A run that changes the account under a read-only profile is refused before any request, unless
   * it says --allow-writes. `name` is the command, as the person typed it.
   */
  async refuseReadOnly(name: string): Promise<void> {
    if (this.writes.tier === undefined || this.writes.tier === 'read' || this.writes.allowWrites) return;
    const { readOnly, profile } = await this.credentials();
    if (!readOnly) return;
    throw new ProtectedError(`profile "${profile}" is read-only, and \`${name}\` changes the account; nothing was sent`, {
      code: 'read_only',
      hint: `add --allow-writes to write with it this once, or lift the mark with \`loopsctl auth read-write ${profile}\``,
    });
  }

  /** The run's write path, made with its client or at its first write: one team check and one gate for the run. */
  private wayOut(): WritePath {
    this.writePath ??= new WritePath(this);
    return this.writePath;
  }

  /**
   * The confirmation of a destructive step (see `confirm` in prompt.ts), which a run under the
   * generic --dry-run skips: it sends nothing, so there is nothing to confirm.
   */
  async confirm(question: string, yes: boolean | undefined): Promise<void> {
    if (this.writes.dryRun || this.writes.plan === true) return;
    await (await import('./prompt.js')).confirm(this.runtime, question, yes);
  }

  /** The team the key must belong to: --expect-team, else LOOPSCTL_EXPECTED_TEAM, else the profile's recorded team. */
  async expectedTeam(): Promise<{ name: string; by: string } | undefined> {
    if (this.globals.expectTeam === undefined && this.environmentTeam !== undefined) return this.environmentTeam;
    return expectedTeamOf(this.globals, this.env, () => this.credentials());
  }

  /** --proxy and the proxy variables; none for the in-process sandbox, which is this process's own. */
  proxySettings(): ProxySettings | undefined {
    return this.globals.sandbox ? undefined : { flag: this.globals.proxy, env: this.env };
  }

  /**
   * One pace for the whole run, however many transports it opens: the runtime's, when runs share
   * one process and the API's limit (the tool calls of `loopsctl mcp`), else the run's own.
   */
  async pacer(): Promise<Pacer> {
    if (this.parent !== undefined) return this.parent.pacer();
    if (this.runPacer === undefined) {
      const { Pacer, parseRate } = await import('../api/pacer.js');
      this.runPacer ??= this.runtime.pacer ?? new Pacer({ maxPerSecond: this.globals.rate ?? parseRate(this.env.LOOPSCTL_RATE, 'LOOPSCTL_RATE') });
    }
    return this.runPacer;
  }

  /**
   * Where the lines about a run's requests go on stderr: a retry is worth one for someone watching
   * a terminal or reading --debug output, and --debug logs each request. Whether stderr is a
   * terminal is asked at the retry: opening stderr to ask costs a run that never retries a
   * millisecond or two.
   */
  requestLines(): { retry: (line: string) => void; debug?: (line: string) => void } {
    const { globals, runtime } = this;
    const write = (line: string) => runtime.stderr.write(`${line}\n`);
    return {
      retry: (line) => {
        if (globals.debug || runtime.stderr.isTTY) write(line);
      },
      debug: globals.debug ? write : undefined,
    };
  }

  /** How a request to another host than the API goes out: the run's timeout, retries, signal, lines and proxy. */
  outsideSettings(): Pick<OutsideRequest, 'userAgent' | 'timeoutMs' | 'retries' | 'signal' | 'onRetry' | 'debug' | 'proxy'> {
    const { globals, runtime } = this;
    const lines = this.requestLines();
    return {
      userAgent: `loopsctl/${VERSION}`,
      timeoutMs: globals.timeout * 1000,
      retries: globals.retries,
      signal: runtime.signal,
      onRetry: lines.retry,
      debug: lines.debug,
      proxy: this.proxySettings(),
    };
  }

  /** With --sandbox, what answers the run's requests in this process instead of the network. */
  async sandboxPool(): Promise<RequestPool | undefined> {
    return this.globals.sandbox ? (await this.startSandbox()).pool : undefined;
  }

  /**
   * The API's address: the sandbox's with --sandbox, else --base-url, LOOPS_BASE_URL, the one the
   * profile in use was logged in at (`auth login --base-url`), or the platform's.
   */
  async baseUrl(): Promise<string> {
    if (this.globals.sandbox) return (await this.startSandbox()).url;
    return baseUrlOf(this.globals, this.env, () => this.profileStore());
  }

  /** The in-process sandbox, its state kept in the config dir, started on first use. */
  private startSandbox(): Promise<{ url: string; apiKey: string; pool: RequestPool }> {
    if (this.parent !== undefined) return this.parent.startSandbox();
    this.sandbox ??= (async () => {
      if (this.globals.baseUrl !== undefined) throw new UsageError('--sandbox and --base-url cannot be combined');
      const { startSandbox } = this.runtime;
      if (startSandbox === undefined) throw new Error('this run has no sandbox to start: its runtime was made without startSandbox');
      const sandbox = await startSandbox({
        configDir: this.configDir,
        now: this.runtime.now,
        // The command cannot succeed: its requests end now, and it reports the file's problem, not theirs.
        onStateError: (error) => {
          this.sandboxFailure ??= error;
          this.cancel();
        },
      });
      this.closers.push(() => sandbox.close());
      return sandbox;
    })();
    return this.sandbox;
  }

  /** The run's failure: the sandbox's, when it could not answer, whatever the command saw. */
  failureOf(error: unknown): unknown {
    return (this.parent ?? this).sandboxFailure ?? error;
  }

  /** Ends every request in flight, for a command that knows they can no longer succeed. */
  cancel(): void {
    this.cancellation.abort();
  }

  /** Closes what the run opened, last opened first: connections before the sandbox they talk to. */
  async close(): Promise<void> {
    for (const close of this.closers.splice(0).reverse()) await close();
  }
}
