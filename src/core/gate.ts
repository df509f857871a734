/**
 * The one gate every write passes on its way out, whatever road it took: a command at a terminal,
 * `loopsctl apply` of a plan, `undo`, an MCP tool, `approved_apply`, `workflow_apply`,
 * `run_command`. It judges the request by what it does (src/platform/write-gate.ts) and by the
 * state of its target (a workflow that is not a draft), and lets a write that needs a person's yes
 * go only in a run that has one: a run of the destructive tier (its command, or an option such as
 * `--live`, which `loopsctl mcp` grants only on a person's approval) or a call the person approved.
 */
import { NotFoundError, ProtectedError } from '../base/errors.js';
import { isDraftStatus, judgeWrite, type WriteJudgement } from '../platform/write-gate.js';
import type { Tier } from './tier.js';

/** Reads a record of the account (GET path), for the state of a write's target. */
export type ReadRecord = (path: string) => Promise<unknown>;

/** The code of the refusal: a tool call refused so is handed to the person's approval (src/areas/mcp/calls.ts). */
export const YES_NEEDED = 'approval_needed';

export class WriteGate {
  /** Each workflow's status, read once a run: no write of the API starts, pauses or publishes a workflow. */
  private readonly statuses = new Map<string, Promise<unknown>>();

  constructor(private readonly read: ReadRecord) {}

  /** What the write does that needs a person's yes, in words; undefined when it needs none. */
  needsYes(method: string, path: string, body?: unknown): Promise<string | undefined> {
    return this.withState(judgeWrite(method, path, body));
  }

  /** The judgement completed by the state of its target: a workflow's edit needs a yes when the workflow is not a draft. */
  async withState(judged: WriteJudgement): Promise<string | undefined> {
    if (judged.needs === 'nothing') return undefined;
    if (judged.needs === 'yes') return judged.does;
    const status = await this.status(judged.workflowId);
    return isDraftStatus(status) ? undefined : `${judged.does} that is ${String(status)}: contacts move through it`;
  }

  private status(workflowId: string): Promise<unknown> {
    let status = this.statuses.get(workflowId);
    if (status === undefined) {
      status = this.read(`/v1/workflows/${encodeURIComponent(workflowId)}`).then(
        (workflow) => (workflow as { status?: unknown } | null)?.status,
        (error: unknown) => {
          // A workflow the account does not hold: the write itself is refused (404), and nothing moves.
          if (error instanceof NotFoundError) return undefined;
          throw error;
        },
      );
      this.statuses.set(workflowId, status);
    }
    return status;
  }
}

/** Whether a run has a person's yes: a run of the destructive tier (its command, or an option such as --live), or a call a person approved. */
export function runHasYes(writes: { tier?: Tier; approved?: boolean }): boolean {
  return writes.tier === 'destructive' || writes.approved === true;
}

/** The refusal of a write that needs a yes the run does not have; `hint` says how this road gives one. */
export function yesNeeded(does: string, target: string, hint: string): ProtectedError {
  return new ProtectedError(`${target} ${does}, which needs a person's yes; nothing more was sent`, { code: YES_NEEDED, hint });
}
