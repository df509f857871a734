/**
 * The one gate every write passes on its way out, whatever road it took: a command at a terminal,
 * `loopsctl apply` of a plan, `undo`, an MCP tool, `approved_apply`, `workflow_apply`,
 * `run_command`. It judges the request by what it does (src/platform/write-gate.ts) and by the
 * state of its target now (src/platform/liveness.ts: a workflow that is not a draft, a campaign
 * that is scheduled, an email message one of them sends or a transactional email's published
 * one), and lets a write that needs a person's yes go only in a run that has one: a run of the
 * destructive tier (its command, or an option such as `--live`, which `loopsctl mcp` grants only on
 * a person's approval) or a call the person approved.
 *
 * The state is read from the API each time a write is judged, never kept: a record that turned
 * live since the last write (a person started the workflow in the app) is judged live. What holds
 * an email message is kept for the run, since it never changes (liveness.ts), so that a message is
 * judged by one read of its holder. A read that fails (a server error, the rate limit, the network)
 * says nothing of the state: the target may be live, and the write needs the yes a live one needs.
 *
 * A person's yes is given to a change as it was when they were asked: the records the gate found
 * live then are kept with the approval, and a run made on it judges each write again, refusing one
 * whose target is live now and was not then (exit 5), so that the person is asked again.
 */
import type { RequestTarget, Transport } from '../api/http.js';
import { AuthError, InterruptedError, LoopsctlError, NotFoundError, ProtectedError } from '../base/errors.js';
import { liveSinceYes } from './bound-calls.js';
import { pathRefusal, targetProblem } from '../base/request-target.js';
import { holdersIn, whyLive, type Holder, type LiveTarget } from '../platform/liveness.js';
import { judgeWrite, type WriteJudgement } from '../platform/write-gate.js';
import type { Tier } from './tier.js';

/** Reads a record of the account (GET path) from the API itself, for the state of a write's target. */
export type ReadRecord = (path: string) => Promise<unknown>;

/** The code of the refusal: a tool call refused so is handed to the person's approval (src/areas/mcp/calls.ts). */
export const YES_NEEDED = 'approval_needed';

/** A read of the state that failed otherwise than by the record being absent. */
class StateUnread extends Error {
  constructor(readonly why: LoopsctlError) {
    super(why.message);
  }
}

export class WriteGate {
  /** What holds each email message, as the run learned it: a fact that never changes, unlike the holder's state, which is always read. */
  private readonly holders = new Map<string, Holder>();
  /**
   * The records this gate found live (or could not tell), by `liveKey`: when a person is asked
   * about a change, what their yes covers; a write on that yes to any other that is live then is
   * refused (passGate's `liveAtYes`).
   */
  readonly foundLive = new Set<string>();

  constructor(private readonly read: ReadRecord) {}

  /**
   * What the write does that needs a person's yes, in words; undefined when it needs none. It is
   * judged by its target as sent: a path a URL parser or a server would read as another is refused.
   */
  needsYes(method: string, path: string, body?: unknown): Promise<string | undefined> {
    return this.withState(this.judged(method, path, body));
  }

  /** What the write does, as far as a yes is concerned (platform/write-gate.ts), once its target is known to be sent as written. */
  judged(method: string, path: string, body?: unknown): WriteJudgement {
    const problem = targetProblem(path, method !== 'GET');
    if (problem !== undefined) throw pathRefusal(path, problem);
    return judgeWrite(method, path, body);
  }

  /** The judgement completed by the state of its target now: a write to a live record needs a yes. */
  async withState(judged: WriteJudgement): Promise<string | undefined> {
    if (judged.needs === 'nothing') return undefined;
    if (judged.needs === 'yes') return judged.does;
    const why = await this.live(judged.target);
    return why === undefined ? undefined : `${judged.does} ${why}`;
  }

  /**
   * Why the target can email people now, read from the account at this moment (the words that
   * follow what a write does to it); undefined when it cannot. A target whose state could not be
   * read may be live, and is said so.
   */
  async live(target: LiveTarget): Promise<string | undefined> {
    let why: string | undefined;
    try {
      why = await whyLive(target, { read: (path) => this.fresh(path), holders: this.holders });
    } catch (error) {
      if (!(error instanceof StateUnread)) throw error;
      why = `that may be live: whether it is could not be read (${error.why.message})`;
    }
    if (why !== undefined) this.foundLive.add(this.liveKey(target));
    return why;
  }

  /**
   * The record whose state makes the target live: a workflow or a campaign itself, and for an
   * email message the workflow or campaign that sends it (it is live as they are), or the message
   * itself when it is a transactional email's (live as its published one) or its holder is unknown.
   */
  liveKey(target: LiveTarget): string {
    const holder = target.kind === 'email message' ? this.holders.get(target.id) : undefined;
    return holder === undefined || holder.kind === 'transactional' ? `${target.kind} ${target.id}` : `${holder.kind} ${holder.id}`;
  }

  /** What an answer the run read says holds which email message (liveness.ts, holdersIn): known, a message is judged by one read. */
  learn(path: string, answer: unknown): void {
    for (const [message, holder] of holdersIn(path, answer)) this.holders.set(message, holder);
  }

  private async fresh(path: string): Promise<unknown> {
    try {
      const answer = await this.read(path);
      this.learn(path, answer);
      return answer;
    } catch (error) {
      // A record the account does not hold: the write itself is refused (404), and nothing moves.
      if (error instanceof NotFoundError) return undefined;
      // A key the API refuses refuses the write too; an interruption ends the run. Nothing else tells the state.
      if (error instanceof LoopsctlError && !(error instanceof AuthError) && !(error instanceof InterruptedError)) throw new StateUnread(error);
      throw error;
    }
  }
}

/** Reads a record through a transport's own requests: from the API itself, never from what a run kept. */
export function readThrough(transport: Transport): ReadRecord {
  return async (path) => (await transport.send({ method: 'GET', idempotent: true, path })).body;
}

/** The transport as a run's client sees it: each answer tells the gate what holds which email message, so that its reads of state are one a write. */
export function learningFrom(transport: Transport, gate: WriteGate): Transport {
  return {
    send: async (req) => {
      const res = await transport.send(req);
      gate.learn(req.path, res.body);
      return res;
    },
  };
}

/** What a run's writes have of a person's yes (src/core/write-path.ts, RunWrites). */
export interface RunYes {
  tier?: Tier;
  approved?: boolean;
  /** The writes are held for a person to be asked about them: each is judged, so that the gate finds what is live now, and none refused. */
  capture?: boolean;
  /** The run is made on a person's yes given when these records were live (WriteGate.liveKey): a write to another that is live now is refused. */
  liveAtYes?: readonly string[];
}

/** Whether a run has a person's yes: a run of the destructive tier (its command, or an option such as --live), or a call a person approved. */
export function runHasYes(writes: RunYes): boolean {
  return writes.tier === 'destructive' || writes.approved === true;
}

/** Whether the gate judges a run's writes: a run without a yes, one made on a yes that covers what was live when it was given, and a capture. */
export function gateJudges(writes: RunYes): boolean {
  return !runHasYes(writes) || writes.liveAtYes !== undefined || writes.capture === true;
}

/** A write as the transport sends it: its method, its target (src/api/http.ts) and its body. */
export interface SentWrite {
  method: string;
  target: RequestTarget;
  body: unknown;
}

/**
 * A write sent only as far as the run's yes goes: one that sends, schedules, publishes, deletes,
 * writes a contact, discards queued contacts or changes a live record needs a run of the
 * destructive tier (the person gave its option at a terminal, or approved the tool call), or the
 * approval of this very call; a run on an approval given when its target was not live is refused
 * (bound-calls.ts, liveSinceYes). It is judged by its target as the transport sends it. `actor`: the MCP client
 * that runs it, if any.
 */
export async function passGate(writes: RunYes, gate: WriteGate, write: SentWrite, actor?: string): Promise<void> {
  const { method, target } = write;
  const sent = `${target.path}${target.search}`;
  // What the person is asked about: judged, so that the gate knows what is live now; nothing is sent.
  if (writes.capture === true) {
    await gate.needsYes(method, sent, write.body);
    return;
  }
  if (runHasYes(writes)) {
    if (writes.liveAtYes !== undefined) await refuseLiveSinceYes(gate, writes.liveAtYes, method, sent, write.body);
    return;
  }
  const does = await gate.needsYes(method, sent, write.body);
  if (does === undefined) return;
  throw yesNeeded(
    does,
    `${method} ${target.path}`,
    actor === undefined
      ? 'give the command --live (a plan or an undo: `--live`), which says a person means it'
      : 'a person approves it: the server asks, or it waits for `loopsctl approve`',
  );
}

/** Refuses a write made on a person's yes to a target that is live now and was not when they were asked. */
async function refuseLiveSinceYes(gate: WriteGate, liveAtYes: readonly string[], method: string, path: string, body: unknown): Promise<void> {
  const judged = gate.judged(method, path, body);
  if (judged.needs !== 'live') return;
  const why = await gate.live(judged.target);
  if (why === undefined || liveAtYes.includes(gate.liveKey(judged.target))) return;
  throw liveSinceYes(`${method} ${path.split('?')[0]} ${judged.does} ${why}`);
}

/** The refusal of a write that needs a yes the run does not have; `hint` says how this road gives one. */
export function yesNeeded(does: string, target: string, hint: string): ProtectedError {
  return new ProtectedError(`${target} ${does}, which needs a person's yes; nothing more was sent`, { code: YES_NEEDED, hint });
}
