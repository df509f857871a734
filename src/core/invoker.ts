/**
 * Commands run from inside the process with typed input (no argv text), each with output streams
 * of its own, all sharing one context: one key, one client, one sandbox, one pace. What they
 * printed under --json comes back as text, and what it wrote as JSON as values. The tool calls of `loopsctl mcp` run so.
 */
import { Readable, Writable } from 'node:stream';
import { InterruptedError, type LoopsctlError, UsageError } from '../base/errors.js';
import type { Written } from '../render/output.js';
import type { BoundCall } from './bound-calls.js';
import type { CommandContext } from './context.js';
import type { Behaviours } from './declare.js';
import { type CommandSpec, DRY_RUN_OPTION, plans, runTier, type Spec, walkSpecs } from './declare.js';
import { asLoopsctlError, type CommandInput, invocationOf, runCommand } from './invoke.js';
import type { FileAccess, Runtime } from './runtime.js';

/** What a run from inside the process printed, and its exit code; `error` when it failed. */
export interface Invoked {
  exitCode: number;
  stdout: string;
  /** What it wrote as JSON, as values (see Output.written): exact where the printed text would be read back rounded. */
  written: Written[];
  /** The writes it held (a capture, a --dry-run), as a person's yes binds them. */
  held: BoundCall[];
  /** The records its gate found live (core/gate.ts, liveKey): under a capture, what a person's yes to it covers. */
  live: string[];
  error?: LoopsctlError;
}

/** Options of one invocation: its own abort signal, stdin, and what it may read of local files. */
export interface InvokeOptions {
  signal?: AbortSignal;
  files?: FileAccess;
  /** Print the command's text view instead of --json (a drawing, the bare LMX). */
  text?: boolean;
  /** A person approved this very call: its writes that need a yes may go (src/core/gate.ts). */
  approved?: boolean;
  /** The calls the person approved: the run sends those and no other (src/core/bound-calls.ts). */
  bound?: BoundCall[];
  /**
   * Hold the run's writes at the transport, whatever the command declares (as --dry-run holds
   * them): what a person is asked about, the calls the command would make, sent nothing.
   */
  capture?: boolean;
  /** The records that were live when the person said yes: a write to another that is live now is refused (src/core/gate.ts). */
  liveAtYes?: readonly string[];
}

/** Output kept in memory, for the caller to read once the run is over. */
class CapturedStream extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
    this.text += chunk.toString();
    callback();
  }
}

/**
 * Runs commands of a tree in this process, each with fresh output streams, all sharing the
 * context they were made with: one key, one client, one sandbox, one pace for every run.
 */
export class Invoker {
  private readonly commands: Map<string, CommandSpec>;

  constructor(
    private readonly tree: Spec[],
    /** What the declarations' behaviours do (src/core/invoke.ts), as for a run of the CLI. */
    private readonly behaviours: Behaviours,
    private readonly base: CommandContext,
    /** Who calls, for the journal of changes: the MCP client, once it has said its name. */
    private readonly actor: () => string | undefined = () => undefined,
  ) {
    this.commands = new Map(walkSpecs(tree).map(({ path, spec }) => [path.join(' '), spec]));
  }

  async invoke(path: string[], input: CommandInput, options: InvokeOptions = {}): Promise<Invoked> {
    const stdout = new CapturedStream();
    const signal = options.signal === undefined ? this.base.runtime.signal : AbortSignal.any([this.base.runtime.signal, options.signal]);
    const runtime: Runtime = {
      ...this.base.runtime,
      stdout,
      // Nothing a run says on the side (retries, notes) belongs in its answer.
      stderr: new CapturedStream(),
      // The process's stdin may carry something else (the MCP protocol): a run reads none of it.
      stdin: Readable.from([]),
      stdinFd: undefined,
      stdoutClosed: undefined,
      paged: false,
      signal,
      files: options.files,
    };
    const globals = { ...this.base.globals, json: options.text !== true, jq: undefined, debug: false, color: false };
    let context: CommandContext | undefined;
    try {
      const spec = this.commands.get(path.join(' '));
      if (spec === undefined) throw new UsageError(`no command is named \`${path.join(' ')}\``);
      const invocation = invocationOf(spec, path, input);
      // What the call may write is its own command's, as for a run of the CLI.
      context = this.base.forRun(
        runtime,
        globals,
        {
          tier: runTier(spec, invocation.options),
          dryRun: options.capture === true || (invocation.options.dryRun === true && spec.options?.includes(DRY_RUN_OPTION) === true),
          plan: invocation.options.plan === true && plans(spec),
          allowWrites: false,
          approved: options.approved === true,
          capture: options.capture === true,
          ...(options.bound === undefined ? {} : { bound: options.bound }),
          ...(options.liveAtYes === undefined ? {} : { liveAtYes: options.liveAtYes }),
        },
        this.actor(),
      );
      const run = runCommand(context, this.tree, this.behaviours, invocation);
      const exitCode = await untilAborted(run, signal);
      return { exitCode, stdout: stdout.text, written: context.out.written ?? [], held: context.heldCalls, live: context.liveFound() };
    } catch (thrown) {
      const error = asLoopsctlError(thrown);
      return {
        exitCode: error.exitCode,
        stdout: stdout.text,
        written: context?.out.written ?? [],
        held: context?.heldCalls ?? [],
        live: context?.liveFound() ?? [],
        error,
      };
    } finally {
      await context?.close();
    }
  }
}

/**
 * The run's outcome, or an interruption as soon as the signal fires: a request in flight on the
 * shared connections then ends on its own, and its answer is dropped.
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  // The run goes on to its end after an interruption; how it ends then is nobody's concern, and
  // must not surface as an unhandled rejection that would end the server.
  work.catch(() => undefined);
  if (signal.aborted) return Promise.reject(new InterruptedError('interrupted'));
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(new InterruptedError('interrupted'));
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}
