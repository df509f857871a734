/**
 * The way out of a run's writes: what each request that changes the account passes after the
 * transport has made its target (src/api/http.ts) and before it is sent. The team check, once a
 * run; --dry-run and --plan, which hold the write instead of sending it; the write gate
 * (src/core/gate.ts), which lets a write that needs a person's yes go only in a run that has one;
 * and, for a run a person approved call by call, those calls and no other.
 */
import type { HttpRequest, RequestTarget, Transport } from '../api/http.js';
import { API_KEY } from '../platform/auth/resource.js';
import { requestLine } from '../platform/operation-row.js';
import type { BoundCall } from './bound-calls.js';
import type { Credentials } from './credentials.js';
import type { WriteGate } from './gate.js';
import { refuseAnotherTeam } from './team.js';
import type { Tier } from './tier.js';

/** What a run may do to the account, as its command and options say. */
export interface RunWrites {
  /** The run's tier (runTier in declare.ts); undefined for a local command. */
  tier?: Tier;
  /** The writes are held and printed, not sent (the --dry-run every write takes). */
  dryRun: boolean;
  /** --plan of a write that can be planned: its writes are held as under --dry-run, and written to a plan file. */
  plan?: boolean;
  /** --allow-writes: a read-only profile writes this once. */
  allowWrites: boolean;
  /** A person approved this very call (`loopsctl mcp`): its writes that need a yes may go (src/core/gate.ts). */
  approved?: boolean;
  /**
   * The calls a person approved, in order (src/core/bound-calls.ts): the run sends those and no
   * other, each as it was when the person said yes, or is refused (exit 5) before the first that differs.
   */
  bound?: BoundCall[];
  /** The writes are held, as --dry-run holds them, for a person to be asked about: the gate judges each, and finds what is live now. */
  capture?: boolean;
  /** The records that were live when the person said yes (core/gate.ts, liveKey): a write to another that is live now is refused, exit 5. */
  liveAtYes?: readonly string[];
}

/**
 * A write held by --dry-run: thrown where it would have been sent, so that the command stops there;
 * main() prints what was held and ends the run successfully.
 */
class HeldWrite extends Error {}

/** Whether an error is a write held (--dry-run, --plan, a person's question): what a run of many writes (an import) goes past, to hold the next. */
export function isHeldWrite(error: unknown): boolean {
  return error instanceof HeldWrite;
}

/** What the write path asks of the run it belongs to. */
export interface WritingRun {
  writes: RunWrites;
  /** Who runs it, when not the terminal's user: the MCP client that called the tool. */
  actor?: string;
  /** The writes --dry-run held, in the order the command would have sent them. */
  held: HttpRequest[];
  /** The same, as a person's yes binds them (what `loopsctl mcp` asks a person about). */
  heldCalls: BoundCall[];
  expectedTeam(): Promise<{ name: string; by: string } | undefined>;
  credentials(): Promise<Credentials>;
}

export class WritePath {
  /** The team check, made before the run's first write and never again. */
  private teamCheck?: Promise<void>;
  /**
   * What judges each write of the run that needs a person's yes, with the state of its target: one
   * for the run, which its client teaches what holds each email message (core/context.ts).
   */
  gate?: WriteGate;
  /** The team the key belongs to, as the team check found it. */
  checkedTeam?: string;
  /** Which of the calls a person approved the run has sent. */
  private readonly boundSent = new Set<number>();

  constructor(private readonly run: WritingRun) {}

  /**
   * Before each write: the team check, once; then, under --dry-run or --plan, the write is held
   * instead of sent; else the calls a person approved, and the gate. `target` is the request's as
   * the transport sends it; `send` is the transport's own, for the reads these need.
   */
  async beforeWrite(req: HttpRequest, target: RequestTarget, send: Transport['send']): Promise<void> {
    this.teamCheck ??= this.checkTeam(send);
    await this.teamCheck;
    const { writes } = this.run;
    const body = await requestBodyOf(req);
    if (!writes.dryRun && writes.plan !== true) {
      if (writes.bound !== undefined) (await import('./bound-calls.js')).refuseUnbound(writes.bound, this.boundSent, req.method, target, body);
      return this.toGate(req.method, target, body, send);
    }
    // A plan's impact asks the API its own dry run ("Make a dry run request using `dryRun: true`"), which changes nothing.
    if (writes.plan === true && (await import('../platform/configuration-writes.js')).isDryRun(req.method, target.path, body)) return;
    // Held for a person to be asked about: judged, so that their yes covers what is live now.
    if (writes.capture === true) await this.toGate(req.method, target, body, send);
    this.run.held.push(req);
    this.run.heldCalls.push((await import('./bound-calls.js')).boundCall(req.method, target, body));
    throw new HeldWrite(`${req.method} ${target.path} held by --dry-run`);
  }

  /** The write handed to the run's gate (core/gate.ts, passGate, the one judgement), by its target as the transport sends it. */
  private async toGate(method: string, target: RequestTarget, body: unknown, send: Transport['send']): Promise<void> {
    const { passGate, readThrough, WriteGate } = await import('./gate.js');
    this.gate ??= new WriteGate(readThrough({ send }));
    await passGate(this.run.writes, this.gate, { method, target, body }, this.run.actor);
  }

  /** Asks the API whose key this is, and refuses the write when it is another team's. */
  private async checkTeam(send: Transport['send']): Promise<void> {
    const expected = await this.run.expectedTeam();
    if (expected === undefined) return;
    const [{ checkShape }, { apiKeyInfo }] = await Promise.all([import('../api/client.js'), import('../platform/auth/schemas.js')]);
    const { testApiKey } = API_KEY.operations;
    const response = await send({ method: testApiKey.method, idempotent: true, path: testApiKey.path });
    const team = checkShape(apiKeyInfo, response.body, requestLine(testApiKey), response).teamName;
    this.checkedTeam = team;
    await refuseAnotherTeam(team, expected, () => this.run.credentials());
  }
}

/** The body of a request as it is sent: its JSON, parsed, where it was given as text. */
async function requestBodyOf(req: HttpRequest): Promise<unknown> {
  return (await import('./change-journal-watch.js')).requestBody(req);
}
