/**
 * What every command needs from the global options: the Output, and a client holding the key that
 * the precedence rules pick (--profile, then LOOPS_API_KEY, then LOOPSCTL_PROFILE, then the
 * default profile). The config file is only opened when the key has to come from it. With
 * --sandbox, the client talks to an in-process sandbox instead, started on first use.
 */
import type { Command } from 'commander';
import { LoopsClient } from '../api/client.js';
import { AuthError, UsageError } from '../api/errors.js';
import { DEFAULT_REQUESTS_PER_SECOND, HttpTransport, type RetryNotice } from '../api/http.js';
import { Pacer } from '../api/pacer.js';
import { formatSeconds } from '../api/retry.js';
import { Output } from '../render/output.js';
import { VERSION } from '../version.js';

export const DEFAULT_BASE_URL = 'https://app.loops.so/api';

export interface GlobalOptions {
  json?: boolean;
  profile?: string;
  baseUrl?: string;
  debug?: boolean;
  color: boolean;
  /** Defaults set where the option is declared (cli.ts), so always present. */
  timeout: number;
  sandbox?: boolean;
  retries: number;
}

export function globalOptions(command: Command): GlobalOptions {
  return command.optsWithGlobals<GlobalOptions>();
}

export function outputFor(command: Command): Output {
  const options = globalOptions(command);
  return new Output({ json: options.json === true, color: options.color });
}

export interface Credentials {
  apiKey: string;
  source: 'environment' | 'profile' | 'sandbox';
  profile?: string;
}

export const DEFAULT_PROFILE = 'default';

/** The stored profile a command means: --profile, else LOOPSCTL_PROFILE, else the default one. */
export function selectedProfile(options: Pick<GlobalOptions, 'profile'>, env: NodeJS.ProcessEnv = process.env): string {
  return options.profile ?? (env.LOOPSCTL_PROFILE || DEFAULT_PROFILE);
}

let inProcessSandbox: { url: string; close(): Promise<void> } | undefined;

/** Starts the in-process sandbox, its state kept in the config dir, and gives its key. */
async function sandboxCredentials(options: Pick<GlobalOptions, 'baseUrl'>): Promise<Credentials> {
  if (options.baseUrl !== undefined) throw new UsageError('--sandbox and --base-url cannot be combined');
  const [{ startSandbox }, { defaultStatePath }, { SANDBOX_KEY }] = await Promise.all([
    import('../sandbox/server.js'),
    import('../sandbox/state.js'),
    import('../sandbox/api.js'),
  ]);
  inProcessSandbox ??= await startSandbox({ stateFile: defaultStatePath() });
  return { apiKey: SANDBOX_KEY, source: 'sandbox' };
}

export async function resolveCredentials(options: Pick<GlobalOptions, 'profile' | 'sandbox' | 'baseUrl'>, env: NodeJS.ProcessEnv = process.env): Promise<Credentials> {
  if (options.sandbox) return sandboxCredentials(options);
  const fromEnv = env.LOOPS_API_KEY;
  if (options.profile === undefined && fromEnv) return { apiKey: fromEnv, source: 'environment' };
  const profile = selectedProfile(options, env);
  // Loaded only here: a key from the environment needs no config file.
  const { ProfileStore } = await import('../config/store.js');
  const apiKey = new ProfileStore().getKey(profile);
  if (apiKey === undefined) {
    const named = profile === DEFAULT_PROFILE ? '' : ` for profile "${profile}"`;
    throw new AuthError(`no API key${named}`, {
      code: 'no_key',
      hint: `run \`loopsctl auth login${named ? ` --profile ${profile}` : ''}\` or set LOOPS_API_KEY`,
    });
  }
  return { apiKey, source: 'profile', profile };
}

const openTransports = new Set<HttpTransport>();

/** Aborted on Ctrl-C: requests in flight and waits between retries end with InterruptedError. */
const interruption = new AbortController();

/** One pace for the whole run, however many transports it opens. */
const pacer = new Pacer({ perSecond: DEFAULT_REQUESTS_PER_SECOND });

export function interruptRequests(): void {
  interruption.abort();
}

/** Retries are worth a line for someone watching a terminal, or reading --debug output. */
function retryReporter(debug: boolean): ((notice: RetryNotice) => void) | undefined {
  if (!debug && process.stderr.isTTY !== true) return undefined;
  return (notice) =>
    process.stderr.write(`${notice.request}: ${notice.reason}; retrying in ${formatSeconds(notice.delayMs)} (retry ${notice.retry} of ${notice.retries})\n`);
}

export function createTransport(command: Command, apiKey: string): HttpTransport {
  const options = globalOptions(command);
  if (options.sandbox && inProcessSandbox === undefined) throw new UsageError('--sandbox does not apply to this command');
  const baseUrl = inProcessSandbox?.url ?? options.baseUrl ?? (process.env.LOOPS_BASE_URL || DEFAULT_BASE_URL);
  try {
    new URL(baseUrl);
  } catch {
    throw new UsageError(`the base URL "${baseUrl}" is not a valid URL`);
  }
  const transport = new HttpTransport({
    baseUrl,
    apiKey,
    userAgent: `loopsctl/${VERSION}`,
    timeoutMs: options.timeout * 1000,
    retry: { retries: options.retries },
    onRetry: retryReporter(options.debug === true),
    debug: options.debug ? (line) => process.stderr.write(`${line}\n`) : undefined,
    signal: interruption.signal,
    pacer,
  });
  openTransports.add(transport);
  return transport;
}

/** A client for the command, with the key the precedence rules pick. */
export async function clientFor(command: Command): Promise<LoopsClient> {
  const { apiKey } = await resolveCredentials(globalOptions(command));
  return new LoopsClient(createTransport(command, apiKey));
}

/** Closes the keep-alive connections (and the sandbox) so the process can end as soon as its work is done. */
export async function closeTransports(): Promise<void> {
  await Promise.all([...openTransports].map((transport) => transport.close()));
  openTransports.clear();
  await inProcessSandbox?.close();
  inProcessSandbox = undefined;
}
