/**
 * What a command may reach. Each command's behaviour declares the capabilities it uses (`handler`
 * below) and is handed a view of the run's context holding only those, as gh hands each command
 * an Options struct of just what it needs: a command that declares only `out` cannot reach the
 * network, the stored keys or the clock. The declaration and the view's type come from the same
 * list, so the type checker refuses a handler that touches what it did not declare, and at run
 * time an undeclared member is simply absent from the view.
 *
 * The runtime's optional members travel with the ones they qualify, so that a view never lacks one
 * where its absence would change what a helper does: stdin comes with its descriptor and with what
 * an agent's run may read (`files`), stdout and stderr with whether they are paged.
 */
import type { ListResource } from '../api/client.js';
import type { ListView } from '../render/list.js';
import type { CommandContext } from './context.js';
import type { Runtime } from './runtime.js';

/** A member of the run's context that a capability may hand out. */
type ContextMember = keyof CommandContext;

interface CapabilityParts {
  /** What it means, for the docs. */
  about: string;
  /** The context's members it hands out, bound to the context. */
  context: readonly ContextMember[];
  /** The runtime's members it hands out, under the view's `runtime`. */
  runtime: readonly (keyof Runtime)[];
}

/** Every capability, by name: the members of the context and of the runtime it hands out. */
export const CAPABILITIES = {
  out: {
    about: 'prints: the output (--json, --jq, the pager), notes and progress on stderr',
    context: ['out'],
    runtime: ['stdout', 'stderr', 'paged'],
  },
  client: {
    about:
      'calls the API: the run’s client (with the key the precedence rules pick, which it never sees), a client or transport for a key it is given, the base URL, the gate that judges its writes',
    context: [
      'client',
      'clientWithKey',
      'clientWithLimits',
      'transport',
      'baseUrl',
      'proxySettings',
      'sandboxPool',
      'requestLines',
      'cancel',
      'recordNames',
      'running',
      'writeGate',
    ],
    runtime: [],
  },
  outside: {
    about: 'reaches a host other than the API (a Slack webhook, an image to carry) with the run’s timeout, retries and proxy',
    context: ['outsideSettings'],
    runtime: [],
  },
  key: {
    about:
      'reads the API key the run uses, where it came from, and the team it must belong to; takes the profile and team of a content environment; reads another environment’s account (a promotion’s source)',
    context: ['credentials', 'withKeyHint', 'expectedTeam', 'takeEnvironment', 'profileInUse', 'readerOfAnother'],
    runtime: [],
  },
  config: {
    about: 'reads and writes the config directory: stored profiles and keys, the sandbox’s state, caches',
    context: ['configDir', 'profileStore', 'chosenProfile'],
    runtime: ['platform'],
  },
  prompts: {
    about: 'asks the person on the terminal: the confirmation of a destructive step, a hidden key',
    context: ['confirm'],
    // stdin comes with what says how it may be read (as with `files`), stderr with whether it is paged.
    runtime: ['stdin', 'stdinFd', 'files', 'stderr', 'paged'],
  },
  files: {
    about: 'reads or writes the local files and stdin the person names (under `loopsctl mcp`, only content given inline or files under its --root)',
    context: [],
    runtime: ['stdin', 'stdinFd', 'files', 'platform'],
  },
  clock: {
    about: 'reads the clock',
    context: [],
    runtime: ['now'],
  },
  env: {
    about: 'reads environment variables',
    context: ['env'],
    runtime: ['env'],
  },
  globals: {
    about: 'reads the global options (--debug, --timeout, --sandbox…) and what the run may write (--dry-run, --plan) and the writes it held',
    context: ['globals', 'writes', 'held'],
    runtime: [],
  },
  programs: {
    about: 'starts other programs (the browser, loopsctl itself again) with the environment, and knows how loopsctl was installed',
    context: ['env'],
    runtime: ['command', 'installation', 'platform', 'env', 'stdout', 'paged'],
  },
  commands: {
    about: 'runs other commands in this process, which share its context (`loopsctl mcp`’s tools): it reaches all of it',
    context: ['whole'],
    runtime: [],
  },
} as const satisfies Record<string, CapabilityParts>;

export type Capability = keyof typeof CAPABILITIES;

type ContextOf<K extends Capability> = (typeof CAPABILITIES)[K]['context'][number];
type RuntimeOf<K extends Capability> = (typeof CAPABILITIES)[K]['runtime'][number];

/**
 * What a handler that uses K is handed: the context's members of those capabilities, and under
 * `runtime` the runtime's, with the abort signal that every command has (Ctrl-C ends its waits).
 */
export type Uses<K extends Capability> = Pick<CommandContext, ContextOf<K>> & { readonly runtime: Pick<Runtime, RuntimeOf<K> | 'signal'> };

/** A command's behaviour: what it uses, and the function it runs with only that. */
// biome-ignore lint/suspicious/noExplicitAny: each handler declares its own argument and option types, which a Handler of the tree must accept
export type Handler<A = any, O = any> = ((context: Uses<Capability>, args: A, options: O) => Promise<number | void>) & {
  readonly uses: readonly Capability[];
  /** A list command's records and columns, which the picker offers where an id of them is wanted (pick.ts). */
  // biome-ignore lint/suspicious/noExplicitAny: each list has its own item type, which the picker only hands back to its own view
  readonly listing?: Listing<any>;
  /** The run reads each record and list once: what it read is kept until its own write changes it (src/api/read-cache.ts). */
  readonly readsOnce?: boolean;
  /**
   * The account its arguments name (a plan's, a change's), which the run takes when the command
   * line names none (CommandContext.takeAccountOf); undefined where they name none that can be
   * read, which the command itself then reports.
   */
  readonly account?: (context: Uses<Capability>, args: A) => Promise<string | undefined>;
  /**
   * Where the arguments and options choose the run's profile themselves (content's --env, whose
   * environment names it): done before anything picks the run's key, the read-only check's too.
   */
  readonly chooseAccount?: (context: Uses<Capability>, args: A, options: O) => Promise<void>;
};

/** What a list command lists, and how it shows each: its resource and its view. */
export interface Listing<T> {
  resource: ListResource<T>;
  view: ListView<T>;
}

/**
 * A command's behaviour, declaring what it uses: `run` is handed only that, and the type checker
 * refuses a `run` that touches anything else.
 */
export function handler<K extends Capability, A, O>(
  uses: readonly K[],
  run: (context: Uses<K>, args: A, options: O) => Promise<number | void>,
  how: Pick<Handler, 'readsOnce'> & {
    account?: (context: Uses<K>, args: A) => Promise<string | undefined>;
    chooseAccount?: (context: Uses<K>, args: A, options: O) => Promise<void>;
  } = {},
): Handler<A, O> {
  return Object.assign(run, { uses, ...how });
}

/**
 * The view of the context that a handler using these capabilities is handed: each member read
 * from the context when asked (a method bound to it), nothing else there at all.
 */
export function viewOf<K extends Capability>(context: CommandContext, uses: readonly K[]): Uses<K> {
  const runtime = {};
  const view = { runtime };
  for (const name of new Set<keyof Runtime>(['signal', ...uses.flatMap((use) => CAPABILITIES[use].runtime)])) {
    // A getter, as the runtime's own may be: the process's stdin is opened only when read.
    Object.defineProperty(runtime, name, { enumerable: true, get: () => context.runtime[name] });
  }
  for (const name of new Set<ContextMember>(uses.flatMap((use) => CAPABILITIES[use].context))) {
    Object.defineProperty(view, name, {
      enumerable: true,
      get: () => {
        const value = context[name];
        return typeof value === 'function' ? value.bind(context) : value;
      },
    });
  }
  return view as Uses<K>;
}
