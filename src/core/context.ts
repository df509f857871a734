/**
 * What a command gets from the run: the runtime, the global options, the Output, and factories
 * for credentials and API clients. The HTTP stack, the config store and the sandbox are imported
 * only when a command first asks for them, so a local command loads none of them. Everything a run
 * opens (connections, an in-process sandbox) is closed by `close()`, which `main()` calls.
 */
import type { ApiClient } from '../api/client.js';
import type { HttpTransport, RetryNotice } from '../api/http.js';
import type { Pacer } from '../api/pacer.js';
import type { ProxySettings } from '../api/proxy.js';
import { AuthError, UsageError, WRONG_KEY_HINT, withDetails } from '../api/errors.js';
import type { KeyStorage, ProfileStore } from '../config/store.js';
import { configDirectory } from '../config/paths.js';
import type { JqFilter } from '../render/jq.js';
import { Output } from '../render/output.js';
import { VERSION } from '../version.js';
import type { CommandSpec } from './declare.js';
import type { Runtime } from './runtime.js';

export const DEFAULT_BASE_URL = 'https://app.loops.so/api';

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
  /** --proxy: the proxy for every request, instead of HTTPS_PROXY and HTTP_PROXY. */
  proxy?: string;
}

export interface Credentials {
  apiKey: string;
  source: 'environment' | 'profile' | 'sandbox';
  profile?: string;
  /** What picked the key: the flag or variable that named it, or the default. */
  chosenBy: ProfileChoice | 'LOOPS_API_KEY' | 'sandbox';
  /** Where a stored key lives. */
  storage?: KeyStorage;
}

/** What named a profile: --profile, LOOPSCTL_PROFILE, the default made with `auth switch`, or the one named "default". */
export type ProfileChoice = '--profile' | 'LOOPSCTL_PROFILE' | 'auth switch' | 'default';

export class CommandContext {
  readonly out: Output;
  private readonly closers: (() => Promise<void>)[] = [];
  private runPacer?: Pacer;
  private runClient?: Promise<ApiClient>;
  private runCredentials?: Promise<Credentials>;
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

  /** The stored profile a command means: --profile, else LOOPSCTL_PROFILE, else the default one (`auth switch`), else "default". */
  async chosenProfile(store?: ProfileStore): Promise<{ name: string; chosenBy: ProfileChoice }> {
    if (this.globals.profile !== undefined) return { name: this.globals.profile, chosenBy: '--profile' };
    if (this.env.LOOPSCTL_PROFILE) return { name: this.env.LOOPSCTL_PROFILE, chosenBy: 'LOOPSCTL_PROFILE' };
    const recorded = (store ?? (await this.profileStore())).recordedDefault();
    if (recorded !== undefined) return { name: recorded, chosenBy: 'auth switch' };
    return { name: (await import('../config/store.js')).DEFAULT_PROFILE, chosenBy: 'default' };
  }

  /** The key the precedence rules pick: --sandbox, --profile, LOOPS_API_KEY, LOOPSCTL_PROFILE, the default profile. */
  credentials(): Promise<Credentials> {
    this.runCredentials ??= this.findCredentials();
    return this.runCredentials;
  }

  private async findCredentials(): Promise<Credentials> {
    if (this.globals.sandbox) return { apiKey: (await this.startSandbox()).apiKey, source: 'sandbox', chosenBy: 'sandbox' };
    // A key pasted with its line end (`export LOOPS_API_KEY="$(cat key.txt)"` keeps none, an editor may) still works.
    const fromEnv = this.env.LOOPS_API_KEY?.trim();
    if (this.globals.profile === undefined && fromEnv) return { apiKey: fromEnv, source: 'environment', chosenBy: 'LOOPS_API_KEY' };
    const store = await this.profileStore();
    const { name: profile, chosenBy } = await this.chosenProfile(store);
    const entry = store.profile(profile);
    if (entry !== undefined) {
      const { storageOf } = await import('../config/store.js');
      const storage = storageOf(entry);
      const apiKey = (storage === 'keychain' ? await this.keyFromKeychain(profile, entry.keychainAccount) : entry.apiKey)?.trim();
      if (apiKey) return { apiKey, source: 'profile', profile, chosenBy, storage };
    }
    const stored = store.profileNames();
    const named = chosenBy === 'default' ? '' : ` for profile "${profile}"`;
    const login = `run \`loopsctl auth login${named ? ` --profile ${profile}` : ''}\``;
    // --profile overrides LOOPS_API_KEY, so pointing to the variable would not help.
    const hint =
      this.globals.profile !== undefined
        ? `${login}${stored.length > 0 ? `, or use a stored profile: ${stored.join(', ')}` : ''}`
        : `${login} or set LOOPS_API_KEY${stored.length > 0 ? `; stored profiles: ${stored.join(', ')} (see \`loopsctl auth list\`)` : ''}`;
    throw new AuthError(`no API key${named}${chosenBy === 'LOOPSCTL_PROFILE' ? ' (named by LOOPSCTL_PROFILE)' : ''}`, { code: 'no_key', hint });
  }

  /** A key that lives in the system keychain: the keychain module is loaded only here. */
  private async keyFromKeychain(profile: string, account: string | undefined): Promise<string | undefined> {
    const { openKeychain, KeychainUnavailableError } = await import('../config/keychain.js');
    const flag = this.globals.profile === undefined ? '' : ` --profile ${profile}`;
    if (account === undefined) return undefined;
    try {
      const apiKey = await (await openKeychain(this.runtime.signal)).get(account);
      if (apiKey !== undefined) return apiKey;
    } catch (error) {
      if (!(error instanceof KeychainUnavailableError)) throw error;
      throw new AuthError(`the key of profile "${profile}" is in the system keychain, which could not be read: ${error.message}`, {
        code: 'keychain',
        cause: error,
        hint: `unlock the keychain and try again, or store the key in the config file instead: loopsctl auth login --insecure-storage${flag}`,
      });
    }
    throw new AuthError(`the system keychain has no key for profile "${profile}" (it was removed there)`, { code: 'no_key', hint: `store the key again: loopsctl auth login${flag}` });
  }

  /**
   * A refused key is explained by where it came from: the variable to check or unset, or the
   * profile to check, keeping --profile in the command to run when the person gave it.
   */
  async withKeyHint(error: unknown): Promise<unknown> {
    if (!(error instanceof AuthError) || error.hint !== WRONG_KEY_HINT || this.runCredentials === undefined) return error;
    const credentials = await this.runCredentials;
    if (credentials.source === 'environment') {
      return withDetails(error, {
        message: `${error.message} (the key in the environment variable LOOPS_API_KEY)`,
        hint: 'check the value of LOOPS_API_KEY, or unset it to use a stored profile (`loopsctl auth status` shows which key a command uses)',
      });
    }
    if (credentials.source !== 'profile') return error;
    const flag = credentials.chosenBy === '--profile' ? ` --profile ${credentials.profile}` : '';
    return withDetails(error, {
      message: `${error.message} (the key of profile "${credentials.profile}")`,
      hint: `check the key with \`loopsctl auth status${flag}\`, or store a new one with \`loopsctl auth login${flag}\``,
    });
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
    this.runClient ??= this.credentials().then(({ apiKey }) => this.clientWithKey(apiKey));
    return this.runClient;
  }

  async clientWithKey(apiKey: string): Promise<ApiClient> {
    const [{ ApiClient }, transport] = await Promise.all([import('../api/client.js'), this.transport(apiKey)]);
    return new ApiClient(transport);
  }

  async transport(apiKey: string): Promise<HttpTransport> {
    const [{ HttpTransport, maxBodyBytes }, pacer, { formatSeconds }] = await Promise.all([import('../api/http.js'), this.pacer(), import('../api/retry.js')]);
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
      pacer,
      maxBodyBytes: maxBodyBytes(this.env),
      proxy: this.proxySettings(),
    });
    this.closers.push(() => transport.close());
    return transport;
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

  private async baseUrl(): Promise<string> {
    if (this.globals.sandbox) return (await this.startSandbox()).url;
    const { parseBaseUrl } = await import('../api/base-url.js');
    if (this.globals.baseUrl !== undefined) return parseBaseUrl(this.globals.baseUrl, '--base-url');
    return this.env.LOOPS_BASE_URL ? parseBaseUrl(this.env.LOOPS_BASE_URL, 'LOOPS_BASE_URL') : DEFAULT_BASE_URL;
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
