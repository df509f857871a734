/** What `loopsctl sandbox` does: serve the sandbox until interrupted, start its data over, and show its outbox. */
import { spawn } from 'node:child_process';
import { resolve as resolvePath } from 'node:path';
import { LocalFileError, UsageError } from '../../base/errors.js';
import { batchedLines } from '../../base/line-batch.js';
import { type Handler, handler, type Uses } from '../../core/capabilities.js';
import {
  type ClockMode,
  clearKeptEntries,
  defaultStatePath,
  INBOX_PATH,
  type KeptListName,
  keptEntries,
  keptWebhookEndpoint,
  newWebhookSecret,
  type OutboxEntry,
  openSandbox,
  RESET_PATH,
  resetState,
  SANDBOX_KEY,
  SANDBOX_KEYS,
  type SeedKind,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '../../emulator/index.js';
import { secretKey, WebhookSecretError } from '../../platform/webhooks/signature.js';
import type { Output } from '../../render/output.js';
import { deliveryUrl } from '../webhooks-shared/event-pattern.js';
import { renderDeliveries, renderOutbox } from './render.js';

interface ServeOptions {
  port: number;
  host: string;
  state?: string;
  seed?: SeedKind;
  reset?: boolean;
  detach?: boolean;
  webhookUrl?: string;
  webhookSecret?: string;
  simulateEngagement?: boolean;
  /** false under --no-webhooks. */
  webhooks: boolean;
  fixtures?: string;
  rateLimit: 'on' | 'off';
  clock: ClockMode;
  exitWithParent?: boolean;
  allowPrivateLinks?: boolean;
}

/** The webhook endpoint this run keeps in the state: undefined leaves the kept one as it is, null removes it. */
async function webhookSetting(
  context: Uses<'env'>,
  options: ServeOptions,
  stateFile: string,
): Promise<{ endpoint: WebhookEndpoint | null | undefined; ownSecret: boolean }> {
  if (!options.webhooks) {
    if (options.webhookUrl !== undefined) throw new UsageError('--webhook-url and --no-webhooks cannot be combined');
    return { endpoint: null, ownSecret: false };
  }
  const kept = options.reset ? null : await keptWebhookEndpoint(stateFile);
  if (options.webhookUrl === undefined && kept === null) {
    if (options.simulateEngagement || options.webhookSecret !== undefined)
      throw new UsageError('--simulate-engagement and --webhook-secret need --webhook-url', {
        hint: 'give the URL to deliver webhooks to, such as that of `loopsctl webhooks listen`',
      });
    return { endpoint: undefined, ownSecret: false };
  }
  const url = deliveryUrl(options.webhookUrl ?? kept!.url, '--webhook-url');
  const given = options.webhookSecret ?? (context.env.LOOPS_WEBHOOK_SECRET || undefined);
  if (given !== undefined) {
    try {
      secretKey(given);
    } catch (error) {
      if (error instanceof WebhookSecretError)
        throw new UsageError(error.message, { hint: 'a secret is whsec_ followed by base64; leave it out and the sandbox makes one' });
      throw error;
    }
  }
  const secret = given ?? kept?.secret ?? (await newWebhookSecret());
  // A new URL starts with only what this run asks for; the kept one keeps its simulated engagement.
  const simulateEngagement = options.simulateEngagement === true || (options.webhookUrl === undefined && kept?.simulateEngagement === true);
  return { endpoint: { url, secret, simulateEngagement }, ownSecret: given === undefined };
}

/**
 * Serves until interrupted (or, with --exit-with-parent, until stdin closes). Its one line of
 * output is the URL it listens on, so a script can read it (`--json`: an object with the key too);
 * what a person needs besides goes to stderr.
 */
export const serve: Handler<[], ServeOptions> = handler(['out', 'config', 'files', 'clock', 'programs', 'globals'], async (context, _args, options) => {
  const stateFile = options.state ?? defaultStatePath(context.configDir);
  if (options.detach) return detach(context, { ...options, state: stateFile });
  const { endpoint, ownSecret } = await webhookSetting(context, options, stateFile);
  const { out } = context;
  // The inbox's images, fetched by loopsctl as any address from content is, and served by the inbox.
  const images = (await import('../../core/page-images.js')).servedPageImages(context, options.allowPrivateLinks === true, 'the inbox');
  const sandbox = await openSandbox({
    port: options.port,
    host: options.host,
    stateFile,
    // A seed asked for is a fresh start from it.
    reset: options.reset === true || options.seed !== undefined,
    seed: options.seed,
    fixtures: options.fixtures,
    rateLimit: options.rateLimit === 'on',
    // The limit's second by the run's clock, the platform's wall clock: a test can hold it still.
    rateClock: () => context.runtime.now().getTime(),
    clock: options.clock,
    now: context.runtime.now,
    // The lines of the requests answered together go out in one write.
    log: batchedLines((text) => context.runtime.stderr.write(text)),
    webhookEndpoint: endpoint,
    deliverWebhooks: true,
    images: (address) => images.load(address),
  }).catch(async (error: unknown) => {
    await images.close();
    throw error;
  });
  const delivering = sandbox.webhookEndpoint;
  // The sandbox's own secret is shown, for `webhooks listen` to verify with; one the person gave is not.
  const ownSecretShown = delivering !== null && ownSecret ? delivering.secret : undefined;
  if (out.json) {
    const webhooks =
      delivering === null
        ? {}
        : {
            webhookUrl: delivering.url,
            ...(ownSecretShown === undefined ? {} : { webhookSecret: ownSecretShown }),
            simulateEngagement: delivering.simulateEngagement,
          };
    await out.writeJson({
      url: sandbox.url,
      apiKey: SANDBOX_KEY,
      keys: Object.keys(SANDBOX_KEYS),
      stateFile,
      inboxUrl: `${sandbox.url}${INBOX_PATH}`,
      ...webhooks,
    });
  } else await out.write(`${sandbox.url}\n`);
  out.note(`Sandbox listening on ${sandbox.url}; point loopsctl at it with:`);
  out.note(
    `  export LOOPS_BASE_URL=${sandbox.url} LOOPS_API_KEY=${SANDBOX_KEY}${ownSecretShown === undefined ? '' : ` LOOPS_WEBHOOK_SECRET=${ownSecretShown}`}`,
  );
  if (delivering !== null) {
    const engagement = delivering.simulateEngagement ? ', each sent email followed by its simulated engagement' : '';
    out.note(`Delivering webhooks to ${delivering.url}${engagement}; see them with \`loopsctl sandbox deliveries\`.`);
  }
  out.note(`See what it sends, drawn as received, in its inbox: ${sandbox.url}${INBOX_PATH}`);
  const stop = options.exitWithParent ? 'It stops when its stdin closes, or on Ctrl-C.' : 'Press Ctrl-C to stop.';
  out.note(`State is kept in ${stateFile}; start over with \`loopsctl sandbox reset\` or POST ${sandbox.url}${RESET_PATH}. ${stop}`);
  await stopped(context, options.exitWithParent === true);
  await sandbox.close();
  await images.close();
  out.note('Sandbox stopped; state saved.');
});

/** Resolves on Ctrl-C (or SIGTERM), and with `stdinCloses` when stdin ends: the parent that held it is gone. */
function stopped(context: Uses<'files'>, stdinCloses: boolean): Promise<void> {
  return new Promise<void>((resolve) => {
    const { signal, stdin } = context.runtime;
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
    if (!stdinCloses) return;
    // What the parent writes is read and dropped: only its end matters.
    stdin.on('data', () => {});
    stdin.once('end', () => resolve());
    stdin.once('close', () => resolve());
    stdin.resume();
  });
}

/**
 * Starts the sandbox as a process of its own that outlives this one, waits until it listens, and
 * prints the lines a shell evaluates: `eval "$(loopsctl sandbox --detach)"` returns at once.
 */
async function detach(context: Uses<'out' | 'programs'>, options: ServeOptions & { state: string }): Promise<number | void> {
  const [program, ...programArgs] = context.runtime.command ?? [];
  if (program === undefined) throw new UsageError('--detach needs loopsctl run as a program');
  const webhooks = [
    ...(options.webhookUrl === undefined ? [] : ['--webhook-url', options.webhookUrl]),
    ...(options.webhookSecret === undefined ? [] : ['--webhook-secret', options.webhookSecret]),
    ...(options.simulateEngagement ? ['--simulate-engagement'] : []),
    ...(options.webhooks ? [] : ['--no-webhooks']),
  ];
  const inbox = options.allowPrivateLinks === true ? ['--allow-private-links'] : [];
  const args = [
    ...programArgs,
    'sandbox',
    'serve',
    '--json',
    '--port',
    String(options.port),
    '--host',
    options.host,
    '--state',
    options.state,
    ...(options.reset ? ['--reset'] : []),
    ...(options.seed === undefined ? [] : ['--seed', options.seed]),
    ...(options.fixtures === undefined ? [] : ['--fixtures', resolvePath(options.fixtures)]),
    '--rate-limit',
    options.rateLimit,
    '--clock',
    options.clock,
    ...webhooks,
    ...inbox,
  ];
  // Its own process group, and no terminal streams: it lives on after this command and the shell.
  // Its stderr is read until it listens, for the error of a start that fails (a port in use,
  // fixtures with problems), as --json writes it; after that it logs to a closed pipe, which it ignores.
  const child = spawn(program, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: context.env });
  let errors = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  // Once it listens, it prints what it serves as one JSON object: the URL, and its own webhook secret if it made one.
  const started = await new Promise<{ url: string; webhookSecret?: string } | undefined>((resolve) => {
    let text = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      try {
        resolve(JSON.parse(text) as { url: string; webhookSecret?: string });
      } catch {
        // Not whole yet.
      }
    });
    // 'close', not 'exit': the streams have then given all they hold, the error on stderr included.
    child.once('close', () => resolve(undefined));
  });
  child.stdout!.destroy();
  child.stderr!.destroy();
  child.unref();
  if (started === undefined) throw startFailure(errors);
  const { url, webhookSecret } = started;
  const { out } = context;
  if (out.json)
    return out.writeJson({
      url,
      apiKey: SANDBOX_KEY,
      pid: child.pid,
      stateFile: options.state,
      inboxUrl: `${url}${INBOX_PATH}`,
      ...(webhookSecret === undefined ? {} : { webhookSecret }),
    });
  const secretExport = webhookSecret === undefined ? '' : `export LOOPS_WEBHOOK_SECRET=${webhookSecret}\n`;
  await out.write(`export LOOPS_BASE_URL=${url}\n${secretExport}export LOOPS_API_KEY=${SANDBOX_KEY}\nexport LOOPSCTL_SANDBOX_PID=${child.pid}\n`);
  out.note(`Sandbox listening on ${url} (process ${child.pid}); stop it with: kill $LOOPSCTL_SANDBOX_PID`);
  out.note(`Its inbox: ${url}${INBOX_PATH}`);
}

/** Why a detached sandbox did not start, from the error it wrote on stderr as JSON, when it wrote one. */
function startFailure(stderr: string): LocalFileError {
  const fallback = { hint: 'run `loopsctl sandbox` without --detach to see why' };
  let error: { message?: unknown; hint?: unknown; code?: unknown } | undefined;
  try {
    error = (JSON.parse(stderr.trim().split('\n').pop() ?? '') as { error?: typeof error }).error;
  } catch {
    // Not the error of a start (it was killed, or crashed): the fallback says how to see more.
  }
  if (typeof error?.message !== 'string') return new LocalFileError('the sandbox did not start', fallback);
  return new LocalFileError(`the sandbox did not start: ${error.message}`, {
    code: typeof error.code === 'string' ? error.code : undefined,
    hint: typeof error.hint === 'string' ? error.hint : fallback.hint,
    multiline: true,
  });
}

/** How a list the sandbox keeps in its state is shown. */
interface KeptListView<T> {
  empty: string;
  render(out: Output, entries: T[]): Promise<void>;
  cleared(count: number): string;
}

/** Reads the state file and shows the list; --clear removes the entries that are done. */
async function showKept<T>(
  context: Uses<'out' | 'config'>,
  options: { state?: string; clear?: boolean },
  name: KeptListName,
  view: KeptListView<T>,
): Promise<void> {
  const stateFile = options.state ?? defaultStatePath(context.configDir);
  const entries = (await keptEntries(stateFile, name)) as T[];
  const { out } = context;
  if (out.json) await out.writeJson(entries);
  else if (entries.length === 0) out.note(view.empty);
  else await view.render(out, entries);
  if (options.clear) out.note(view.cleared(await clearKeptEntries(stateFile, name)));
}

export const outbox: Handler<[], { state?: string; clear?: boolean }> = handler(['out', 'config'], (context, _args, options) =>
  showKept<OutboxEntry>(context, options, 'outbox', {
    empty: 'The outbox is empty.',
    render: (out, entries) => out.writeProse(renderOutbox(out, entries).trimEnd()),
    cleared: (count) => `Cleared ${count} ${count === 1 ? 'entry' : 'entries'} from the outbox.`,
  }),
);

export const deliveries: Handler<[], { state?: string; clear?: boolean }> = handler(['out', 'config'], (context, _args, options) =>
  showKept<WebhookDelivery>(context, options, 'deliveries', {
    empty: 'No webhook deliveries yet: start the sandbox with --webhook-url <url> to have them.',
    render: (out, entries) => out.write(renderDeliveries(out, entries)),
    cleared: (count) => `Forgot ${count} finished ${count === 1 ? 'delivery' : 'deliveries'}.`,
  }),
);

/** Starts the sandbox's data over from a seed; a server reading the file serves the new data from its next request. */
export const reset: Handler<[], { state?: string; seed?: SeedKind }> = handler(['out', 'config'], async (context, _args, options) => {
  const stateFile = options.state ?? defaultStatePath(context.configDir);
  const seed = await resetState(stateFile, options.seed);
  const { out } = context;
  if (out.json) await out.writeJson({ stateFile, seed });
  else out.note(`Reset ${stateFile} to the ${seed === 'demo' ? "demo team's data" : 'data of a new team'}.`);
});
