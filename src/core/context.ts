/**
 * What a command gets from the run: the runtime, the global options, the Output, and factories
 * for credentials and API clients. The HTTP stack, the config store and the sandbox are imported
 * only when a command first asks for them, so a local command loads none of them. Everything a run
 * opens (connections, an in-process sandbox) is closed by `close()`, which `main()` calls.
 */
import type { ApiClient } from '../api/client.js';
import type { HttpTransport, RetryNotice } from '../api/http.js';
import type { Pacer } from '../api/pacer.js';
import { AuthError, UsageError } from '../api/errors.js';
import { configDirectory } from '../config/paths.js';
import type { JqFilter } from '../render/jq.js';
import { Output } from '../render/output.js';
import { VERSION } from '../version.js';
import type { CommandSpec } from './declare.js';
import type { Runtime } from './runtime.js';

export const DEFAULT_BASE_URL = 'https://app.loops.so/api';
export const DEFAULT_PROFILE = 'default';

export interface GlobalOptions {
  json?: boolean;
  /** --jq: a jq expression for JSON output. */
  jq?: string;
  profile?: string;
  baseUrl?: string;
  debug?: boolean;
  color: boolean;
  /** Defaults set where the option is declared, so always present. */
  timeout: number;
  retries: number;
  sandbox?: boolean;
  /** false under --no-pager. */
  pager?: boolean;
  /** --rate: at most this many requests per second, below what the API allows. */
  rate?: number;
}

export interface Credentials {
  apiKey: string;
  source: 'environment' | 'profile' | 'sandbox';
  profile?: string;
}

export class CommandContext {
  readonly out: Output;
  private readonly closers: (() => Promise<void>)[] = [];
  private pacer?: Pacer;
  private runClient?: Promise<ApiClient>;
  /** Aborted by cancel(): requests in flight end at once. */
  private readonly cancellation = new AbortController();
  private sandbox?: Promise<{ url: string; apiKey: string }>;

  /** `jq` is the --jq expression, compiled. */
  constructor(
    readonly runtime: Runtime,
    readonly globals: GlobalOptions,
    readonly spec: CommandSpec,
    jq?: JqFilter,
  ) {
    this.out = new Output({
      json: globals.json === true,
      jq,
      color: globals.color,
      stdout: runtime.stdout,
      stderr: () => runtime.stderr,
      env: runtime.env,
      columns: runtime.stdout.columns,
      signal: runtime.signal,
      paged: runtime.paged,
      debug: globals.debug ? (line) => runtime.stderr.write(`${line}\n`) : undefined,
    });
  }

  get env(): Record<string, string | undefined> {
    return this.runtime.env;
  }

  get configDir(): string {
    return configDirectory(this.runtime.env, this.runtime.platform);
  }

  /** The stored profile a command means: --profile, else LOOPSCTL_PROFILE, else the default one. */
  get profile(): string {
    return this.globals.profile ?? (this.env.LOOPSCTL_PROFILE || DEFAULT_PROFILE);
  }

  /** The key the precedence rules pick: --sandbox, --profile, LOOPS_API_KEY, LOOPSCTL_PROFILE, the default profile. */
  async credentials(): Promise<Credentials> {
    if (this.globals.sandbox) return { apiKey: (await this.startSandbox()).apiKey, source: 'sandbox' };
    const fromEnv = this.env.LOOPS_API_KEY;
    if (this.globals.profile === undefined && fromEnv) return { apiKey: fromEnv, source: 'environment' };
    const profile = this.profile;
    const store = await this.profileStore();
    const apiKey = store.getKey(profile);
    if (apiKey !== undefined) return { apiKey, source: 'profile', profile };
    const stored = store.profileNames();
    const named = profile === DEFAULT_PROFILE ? '' : ` for profile "${profile}"`;
    const login = `run \`loopsctl auth login${named ? ` --profile ${profile}` : ''}\``;
    // --profile overrides LOOPS_API_KEY, so pointing to the variable would not help.
    const hint =
      this.globals.profile !== undefined
        ? `${login}${stored.length > 0 ? `, or use a stored profile: ${stored.join(', ')}` : ''}`
        : `${login} or set LOOPS_API_KEY`;
    throw new AuthError(`no API key${named}`, { code: 'no_key', hint });
  }

  async profileStore() {
    const { ProfileStore } = await import('../config/store.js');
    return new ProfileStore(this.configDir);
  }

  /**
   * The run's client, with the key the precedence rules pick: made once, so the key is looked up
   * once and every request of the run shares one connection pool and one pace.
   */
  client(): Promise<ApiClient> {
    this.runClient ??= this.credentials().then(({ apiKey }) => this.clientWithKey(apiKey));
    return this.runClient;
  }

  async clientWithKey(apiKey: string): Promise<ApiClient> {
    const [{ ApiClient }, transport] = await Promise.all([import('../api/client.js'), this.transport(apiKey)]);
    return new ApiClient(transport);
  }

  async transport(apiKey: string): Promise<HttpTransport> {
    const [{ HttpTransport, maxBodyBytes }, { Pacer, parseRate }, { formatSeconds }] = await Promise.all([
      import('../api/http.js'),
      import('../api/pacer.js'),
      import('../api/retry.js'),
    ]);
    // One pace for the whole run, however many transports it opens.
    this.pacer ??= new Pacer({ maxPerSecond: this.globals.rate ?? parseRate(this.env.LOOPSCTL_RATE, 'LOOPSCTL_RATE') });
    const { globals, runtime } = this;
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
      signal: AbortSignal.any([runtime.signal, this.cancellation.signal]),
      pacer: this.pacer,
      maxBodyBytes: maxBodyBytes(this.env),
    });
    this.closers.push(() => transport.close());
    return transport;
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

  private async baseUrl(): Promise<string> {
    if (this.globals.sandbox) return (await this.startSandbox()).url;
    const { parseBaseUrl } = await import('../api/base-url.js');
    return parseBaseUrl(this.globals.baseUrl ?? (this.env.LOOPS_BASE_URL || DEFAULT_BASE_URL));
  }

  /** The in-process sandbox, its state kept in the config dir, started on first use. */
  private startSandbox(): Promise<{ url: string; apiKey: string }> {
    this.sandbox ??= (async () => {
      if (this.globals.baseUrl !== undefined) throw new UsageError('--sandbox and --base-url cannot be combined');
      const [{ startSandbox }, { defaultStatePath }, { SANDBOX_KEY }] = await Promise.all([
        import('../sandbox/server.js'),
        import('../sandbox/state.js'),
        import('../sandbox/keys.js'),
      ]);
      const server = await startSandbox({ stateFile: defaultStatePath(this.configDir), now: this.runtime.now });
      this.closers.push(() => server.close());
      return { url: server.url, apiKey: SANDBOX_KEY };
    })();
    return this.sandbox;
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
