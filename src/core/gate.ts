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
 * live since the last write (a person started the workflow in the app) is judged live. Three answers
 * the run has from the API stand for that read, each within a freshness rule of its own
 * (`WriteGate.taken`; docs/changes.md, "What can email people now"):
 * - in the round before the run's first write (`beforeFirstWrite`: a plan refused before anything
 *   is sent), an answer the run received (its client's, or the gate's own read for another unit)
 *   at most FIRST_ROUND_FRESH_MS before, with no write of the run since (there is none yet): the
 *   apply's account check has just read each workflow, and the emails' list each email's record.
 *   Each write is judged again just before it;
 * - just before a write, the answer to the run's write sent just before it (no request between
 *   them, at most BACK_TO_BACK_MS apart), where that answer is the record as the platform left it
 *   (src/platform/state-answers.ts: a workflow's node writes answer "the latest simplified
 *   workflow"): the state is then as near the write as a read sent between them would find it;
 * - just before a write, an item of a list's page (the transactional emails') read within
 *   PAGE_REQUESTS requests and PAGE_FRESH_MS, no write of the run to its record since; past
 *   either, the page is read again (one read for the records it holds).
 * What holds an email message is kept for the run, since it never changes (liveness.ts), so that a
 * message is judged by one read of its holder. A read that fails (a server error, the rate limit,
 * the network) says nothing of the state: the target may be live, and the write needs the yes a
 * live one needs.
 *
 * A person's yes is given to a change as it was when they were asked: the records the gate found
 * live then are kept with the approval, and a run made on it judges each write again, refusing one
 * whose target is live now and was not then (exit 5), so that the person is asked again.
 */
import type { RequestTarget, Transport } from '../api/http.js';
import { AuthError, type ErrorDetails, InterruptedError, LoopsctlError, NotFoundError, ProtectedError } from '../base/errors.js';
import { hasParticulars, saidBeforeParticulars } from '../base/particulars.js';
import { pathRefusal, targetProblem } from '../base/request-target.js';
import { componentIdsOf, parseLmx, themeIdOf } from '../lmx/index.js';
import { type Holder, holdersIn, type LiveTarget, whyLive } from '../platform/liveness.js';
import { type AnsweredRequest, LISTED_AS_READ, statesAnswered } from '../platform/state-answers.js';
import { TooManyToRead, type Uses, whyUsedLive } from '../platform/used-liveness.js';
import { judgeWrite, type WriteJudgement } from '../platform/write-gate.js';
import { liveSinceYes } from './bound-calls.js';
import type { Tier } from './tier.js';

/** Reads a record of the account (GET path) from the API itself, for the state of a write's target. */
export type ReadRecord = (path: string) => Promise<unknown>;

/** The code of the refusal: a tool call refused so is handed to the person's approval (src/areas/mcp/calls.ts). */
export const YES_NEEDED = 'approval_needed';

/**
 * How old an answer of the run may be for the round before its first write to take it as the
 * state now: the round only refuses a plan before anything is sent, and each write is judged again
 * just before it. Past it (a run that waited on a person, a slow account check) the round reads.
 */
export const FIRST_ROUND_FRESH_MS = 30_000;

/**
 * How long after a write's answer the next write, sent back to back, may be judged by it: the
 * platform's word on the record at the moment of the write. A run that waits between them (on a
 * person, on the disk) reads again.
 */
export const BACK_TO_BACK_MS = 2_000;

/**
 * How near a write a page of a list whose items are each its record as read (the transactional
 * emails', platform/state-answers.ts) may have been read for the write to be judged by its item:
 * at most PAGE_REQUESTS requests of the run before (two seconds at the API's ten a second) and at
 * most PAGE_FRESH_MS. Past either, the page is read again: one read for the fifty records it holds,
 * where a read of each record before its message's write would be fifty. An email's record tells
 * only whether the message is its draft or its published one, and the platform refuses the update
 * of a message whose email has published it meanwhile ("The campaign or transactional email that
 * owns this email message must be in `Draft` status", the API's reference of
 * `POST /v1/email-messages/{emailMessageId}`): the page's moment is the gate's, the 409 the platform's.
 */
export const PAGE_REQUESTS = 20;
export const PAGE_FRESH_MS = 5_000;

/** A record's state as an answer of the run gave it (platform/state-answers.ts). */
interface Answered {
  state: unknown;
  /** When it came (the gate's clock). */
  at: number;
  /** How many requests the run had started when it came (WriteGate.started). */
  requests: number;
  /** Whether it answered a write. */
  write: boolean;
  /** The page of a list it came from (its path and query, as read again), for an item of one. */
  page?: string;
}

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
   * The records this gate found live (or could not tell), by `liveKey`, with, for a component or a
   * theme, each live record whose email uses it: when a person is asked about a change, what their
   * yes covers; a write on that yes to any other that is live then, or reaching one, is refused
   * (passGate's `liveAtYes`).
   */
  readonly foundLive = new Set<string>();
  /** The requests the run has started (its client's and the gate's own reads), numbered in order. */
  private requests = 0;
  /** By the path of each record's read, the state the run's latest answer from the API gave of it. */
  private readonly answered = new Map<string, Answered>();
  /** Whether a write of the run came to the gate: the round before the first write is over. */
  private writing = false;
  /** Whether the round before the run's first write is being judged (beforeFirstWrite). */
  private firstRound = false;

  constructor(
    private readonly read: ReadRecord,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** A request of the run starts: counted, so that an answer is known to be the last before a write. */
  started(): void {
    this.requests += 1;
  }

  /**
   * What the API's answer to a request of the run says of records' state (platform/state-answers.ts);
   * `page`: the request's path and query, where it read a page of a list.
   */
  heard(request: AnsweredRequest, answer: unknown, page?: string): void {
    const at = this.clock();
    const write = request.method !== 'GET';
    // A write to a record (an email's draft made, its draft published) leaves no earlier answer of it standing.
    if (write)
      for (const [path, answered] of this.answered)
        if (answered.page !== undefined && (request.path === path || request.path.startsWith(`${path}/`))) this.answered.delete(path);
    for (const [path, state] of statesAnswered(request, answer)) {
      const listed = page !== undefined && LISTED_AS_READ.includes(request.path.split('?')[0]!) ? { page } : {};
      this.answered.set(path, { state, at, requests: this.requests, write, ...listed });
    }
  }

  /** A write of the run comes to be judged: from now on no judgement is of the round before the first write. */
  writeComes(): void {
    this.writing = true;
  }

  /**
   * The round before the run's first write, which refuses a plan that needs a yes before anything
   * is sent: it may take the state from an answer the run already has (FIRST_ROUND_FRESH_MS).
   */
  async beforeFirstWrite<T>(round: () => Promise<T>): Promise<T> {
    this.firstRound = true;
    try {
      return await round();
    } finally {
      this.firstRound = false;
    }
  }

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
    return (await this.liveNow(target)).why;
  }

  /**
   * Why the target can email people now (live), and the records that make it so, by liveKey: the
   * target's own, and for a component or a theme each live record whose email uses it, so that a
   * yes given for it covers those alone. Each is kept in foundLive.
   */
  private async liveNow(target: LiveTarget): Promise<{ why?: string; keys: string[] }> {
    let why: string | undefined;
    const senders: string[] = [];
    const reads = { read: (path: string) => this.fresh(path), holders: this.holders };
    try {
      why =
        target.kind === 'component' || target.kind === 'theme'
          ? await whyUsedLive(target, { ...reads, uses: usesOf, sender: (key) => senders.push(key) })
          : await whyLive(target, reads);
    } catch (error) {
      if (error instanceof TooManyToRead) why = `that may be live: ${error.message}`;
      else if (!(error instanceof StateUnread)) throw error;
      else why = `that may be live: whether it is could not be read (${error.why.message})`;
    }
    if (why === undefined) return { keys: [] };
    const keys = [this.liveKey(target), ...senders];
    for (const key of keys) this.foundLive.add(key);
    return { why, keys };
  }

  /** Why the target is live now in a way a yes given when `liveAtYes` were live does not cover; undefined when it is not live, or is covered. */
  async liveBeyond(target: LiveTarget, liveAtYes: readonly string[]): Promise<string | undefined> {
    const { why, keys } = await this.liveNow(target);
    return why !== undefined && keys.some((key) => !liveAtYes.includes(key)) ? why : undefined;
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

  /**
   * The state of the record read at `path` from an answer the run has, where a freshness rule
   * allows it; undefined when it is to be read now. In the round before the first write, an answer
   * of at most FIRST_ROUND_FRESH_MS, no write of the run sent since. Just before a write, the answer
   * to the write sent just before it, no request between them, at most BACK_TO_BACK_MS before; or
   * an item of a list's page read within PAGE_REQUESTS requests and PAGE_FRESH_MS, no write of the
   * run to its record since.
   */
  private taken(path: string): Answered | undefined {
    const answered = this.answered.get(path);
    if (answered === undefined) return undefined;
    const age = this.clock() - answered.at;
    if (this.firstRound && !this.writing && age <= FIRST_ROUND_FRESH_MS) return answered;
    // The write being judged is the only request started since the answer came.
    if (this.writing && answered.write && this.requests === answered.requests + 1 && age <= BACK_TO_BACK_MS) return answered;
    if (this.writing && answered.page !== undefined && this.requests - answered.requests <= PAGE_REQUESTS && age <= PAGE_FRESH_MS) return answered;
    return undefined;
  }

  private async fresh(path: string): Promise<unknown> {
    const taken = this.taken(path);
    if (taken !== undefined) return taken.state;
    // A record a page of its list gave: that page read again, which still holds it unless it moved to another.
    const page = this.answered.get(path)?.page;
    if (page !== undefined && this.writing) {
      await this.readNow(page);
      const item = this.answered.get(path);
      if (item?.page === page && this.requests === item.requests) return item.state;
    }
    return this.readNow(path);
  }

  /** A read of the API itself, for the state of a write's target: what it says is kept as any answer of the run. */
  private async readNow(path: string): Promise<unknown> {
    this.started();
    try {
      const answer = await this.read(path);
      this.learn(path, answer);
      // An answer from the API as any other of the run: the round before the first write judges each unit by it, read once.
      this.heard({ method: 'GET', path, query: false }, answer, path.includes('?') ? path : undefined);
      // A page of a list the rules read (`?perPage=…`), which no request of the run's own names as
      // the gate does: kept for that round too, so that its units read each list once.
      if (path.includes('?')) this.answered.set(path, { state: answer, at: this.clock(), requests: this.requests, write: false });
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

/** What an email's LMX uses (platform/used-liveness.ts): the components it embeds, and the theme its `<Style>` names. */
function usesOf(lmx: string): Uses {
  const { document } = parseLmx(lmx);
  const theme = themeIdOf(document);
  return { components: componentIdsOf(document), ...(theme === undefined || theme === '' ? {} : { theme }) };
}

/** Reads a record through a transport's own requests: from the API itself, never from what a run kept. */
export function readThrough(transport: Transport): ReadRecord {
  return async (path) => (await transport.send({ method: 'GET', idempotent: true, path })).body;
}

/**
 * The transport as a run's client sees it: each answer tells the gate what holds which email
 * message, so that its reads of state are one a write, and the records' state it gives, which the
 * gate's freshness rules may take (WriteGate.taken). Below the run's kept reads: every answer here
 * came from the API.
 */
export function learningFrom(transport: Transport, gate: WriteGate): Transport {
  return {
    send: async (req) => {
      gate.started();
      const res = await transport.send(req);
      gate.learn(req.path, res.body);
      const query = Object.entries(req.query ?? {}).flatMap(([name, value]): [string, string][] => (value === undefined ? [] : [[name, String(value)]]));
      // A page is read again as it was asked for: its path and query (the gate's own reads carry theirs in the path).
      const page = req.method === 'GET' && query.length > 0 ? `${req.path}?${new URLSearchParams(query).toString()}` : undefined;
      gate.heard({ method: req.method, path: req.path, query: query.length > 0, body: req.body }, res.body, page);
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
  gate.writeComes();
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

/**
 * Refuses a write made on a person's yes to a target that is live now and was not when they were
 * asked, or that reaches a live record the yes did not cover (a component a workflow started since uses).
 */
async function refuseLiveSinceYes(gate: WriteGate, liveAtYes: readonly string[], method: string, path: string, body: unknown): Promise<void> {
  const judged = gate.judged(method, path, body);
  if (judged.needs !== 'live') return;
  // Its own record, and for a component or a theme each live record that uses it, each covered by the yes.
  const why = await gate.liveBeyond(judged.target, liveAtYes);
  if (why === undefined) return;
  throw liveSinceYes(`${method} ${path.split('?')[0]} ${judged.does} ${why}`);
}

/**
 * The refusal of a write that needs a yes the run does not have, which keeps what the write does in
 * the gate's words (`does`): a run of many records (`content push`) reports it as its record's.
 */
export class YesNeededError extends ProtectedError {
  constructor(
    message: string,
    details: ErrorDetails,
    readonly does?: string,
  ) {
    super(message, details);
  }
}

/** The refusal of a write that needs a yes the run does not have; `hint` says how this road gives one. */
export function yesNeeded(does: string, target: string, hint: string): YesNeededError {
  const said = `${target} ${does}`;
  return new YesNeededError(
    saidBeforeParticulars(said, ", which needs a person's yes; nothing more was sent"),
    { code: YES_NEEDED, hint, multiline: hasParticulars(said) },
    does,
  );
}
