/**
 * A person's approval of a change above the write tier, which the model cannot give: it has no
 * input that approves. The server asks the person through the client (MCP elicitation, form mode:
 * "Servers request structured data from users with the `elicitation/create` request"; the person
 * may "accept", "decline" or "cancel"), and runs the call only on an explicit accept with approve
 * true. A client that cannot ask (it did not declare the elicitation capability) is answered
 * "pending approval" with the id of the change kept under the config directory: a person runs
 * `loopsctl approve <id>` in a terminal, and the agent applies it with approved_apply, once.
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { InterruptedError, LoopsctlError, ProtectedError, UsageError } from '../../base/errors.js';
import { sanitize } from '../../base/sanitize.js';
import { plans } from '../../core/declare.js';
import { approvalQuestion, newProposalId, propose, proposalDirectory, readProposal, sweepProposals, takeApproval, type Proposal } from '../change/approvals.js';
import { readPlanUnder, type PlannedUnit } from '../change/plan-file.js';
import { PLAN_KINDS } from '../content/kinds.js';
import { planReviewWords } from '../content/review/plan-review.js';
import type { ImpactRecord } from '../change/impact/impact.js';
import { renderImpact } from '../change/impact/render.js';
import { callOf, callTool, failed, producedValue, type Caller, type ToolAnswer } from './calls.js';
import type { MetaTool } from './meta.js';
import { isPush, plannedPush, type LinkedReview } from './push-review.js';
import { asks, type Selection, type Settings, type Tool } from './tools.js';

/** How long the person has to answer the client's question: a person reads, the client waits. */
const ELICITATION_MS = 10 * 60 * 1000;

/** What the server knows of where its calls go and who asks, for the words of a change. */
export interface Approving {
  server: () => Server | undefined;
  configDir: string;
  /** The account in words: `team "Acme" (profile prod)`, or the sandbox. */
  account: string;
  /** The account as this server reaches it, which a change is bound to (approvals.ts, checkBinding). */
  binding: string;
  now: () => Date;
}

/** The client by the name it gave at initialization, as the journal and the person's question name it. */
export function clientOf(approving: Approving): string {
  const client = approving.server()?.getClientVersion();
  return client === undefined ? 'An MCP client' : `${client.name} (MCP)`;
}

/**
 * The calls that need approval handed to it, and the tool that applies a change approved at a
 * terminal (none in a server that only reads: it makes no change to approve).
 */
export function approvalTools(caller: Caller, approving: Approving, selection: Selection, settings: Settings): MetaTool[] {
  caller.approval = approvalOf(caller, approving);
  const offered = new Map([...selection.tools, ...selection.reachable].map((tool) => [tool.name, tool]));
  // Offered where a call may need approval: a tool of the destructive tier, or one that asks.
  if (![...offered.values()].some((tool) => tool.tier === 'destructive' || asks(tool))) return [];
  return [approvedApplyTool(caller, approving, (name) => offered.get(name), settings.sandbox)];
}

/** Inline content longer than this is counted in the words of a change, not shown. */
const SHOWN_CONTENT_MAX = 200;

/**
 * A call as a command line that runs as shown: what the person reads before saying yes. Content
 * given inline (vars, a payload) goes in on stdin (`--vars-file -`), as a file option reads it;
 * long inline content is counted, not shown.
 */
export function commandLine(tool: Tool, input: Record<string, unknown>): string {
  const words = ['loopsctl', ...tool.path];
  let piped: string | undefined;
  const quoted = (value: unknown) => {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    if (text.length > SHOWN_CONTENT_MAX) return `<${text.length} characters>`;
    return /^[\w@.:/+=,-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
  };
  for (const param of tool.params) {
    const { target } = param;
    const value = input[param.key];
    if ((target.kind !== 'argument' && target.kind !== 'option') || value === undefined || value === null || value === false) continue;
    if (target.kind === 'option' && param.file?.inline?.encoding === 'json' && piped === undefined) {
      piped = quoted(value);
      words.push(`--${target.name}`, '-');
      continue;
    }
    for (const item of Array.isArray(value) ? value : [value]) {
      if (target.kind === 'option') words.push(`--${target.name}`);
      if (item !== true) words.push(quoted(item));
    }
  }
  return `${piped === undefined ? '' : `printf '%s' ${piped} | `}${words.join(' ')}`;
}

/** The call's input, with what makes a second run of it send nothing twice: a send's idempotency key, fixed now. */
function settled(tool: Tool, input: Record<string, unknown>): Record<string, unknown> {
  const keyed = tool.params.some((param) => param.key === 'idempotency-key');
  return keyed && input['idempotency-key'] === undefined ? { ...input, 'idempotency-key': randomUUID() } : input;
}

/** Asks the person through the client; 'unable' when the client cannot ask. */
export async function ask(
  approving: Approving,
  words: string[],
  signal?: AbortSignal,
): Promise<'approved' | 'declined' | 'cancelled' | 'unanswered' | 'unable'> {
  const server = approving.server();
  if (server?.getClientCapabilities()?.elicitation?.form === undefined) return 'unable';
  try {
    const answer = await server.elicitInput(
      {
        mode: 'form',
        message: [...approvalQuestion(clientOf(approving), approving.account, words), 'Approve it?'].join('\n'),
        requestedSchema: {
          type: 'object',
          properties: { approve: { type: 'boolean', title: 'Approve this change', description: 'Yes to make the change; no to make nothing', default: false } },
          required: ['approve'],
        },
      },
      { timeout: ELICITATION_MS, ...(signal === undefined ? {} : { signal }) },
    );
    if (answer.action === 'accept') return answer.content?.approve === true ? 'approved' : 'declined';
    return answer.action === 'decline' ? 'declined' : 'cancelled';
  } catch (error) {
    if (signal?.aborted) throw new InterruptedError('interrupted');
    // A client that answers nothing in time, or answers what was not asked: no yes was given.
    void error;
    return 'unanswered';
  }
}

/**
 * What the call does to people and to the app, in the words of a plan's impact (the contacts
 * waiting at a node it deletes, the data variables a publish adds, a schedule's audience): the
 * command run with --plan into the change's own directory, which sends nothing. None for a command
 * that cannot plan; one that could not be planned says why.
 */
async function impactWords(caller: Caller, approving: Approving, tool: Tool, input: Record<string, unknown>, id: string, signal?: AbortSignal) {
  if (tool.path.join(' ') === 'apply') return planWords(caller, tool, input);
  if (!plans(tool.spec)) return [];
  const dir = proposalDirectory(approving.configDir, id);
  try {
    const call = callOf(caller, tool, input);
    // A plan never discards queued contacts: it is planned without, and its impact counts them.
    const { 'queued-contacts': _discards, ...planned } = call.input;
    const ran = await caller.invoker.invoke(
      tool.path,
      { ...planned, plan: true, out: join(dir, 'impact.json') },
      { signal, files: { ...call.files, root: dir } },
    );
    if (ran.error !== undefined) return [sanitize(`Impact: unknown, it could not be planned: ${ran.error.message}`)];
    const impact = (producedValue(ran) as { impact?: ImpactRecord[] } | undefined)?.impact ?? [];
    return impact.length === 0 ? [] : renderImpact(impact).trimEnd().split('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What a plan file to apply holds: its records, and the impact written under its digest. */
async function planWords(caller: Caller, tool: Tool, input: Record<string, unknown>): Promise<string[]> {
  const file = callOf(caller, tool, input).input.plan as string;
  const plan = await readPlanUnder(caller.root, file, PLAN_KINDS).catch((error: unknown) => {
    if (error instanceof LoopsctlError) return error;
    throw error;
  });
  if (plan instanceof LoopsctlError) return [sanitize(`The plan cannot be read: ${plan.message}`)];
  const impact = renderImpact((plan.impact ?? []) as unknown as ImpactRecord[]);
  // What it does, from its calls (checked against their records when it is applied), and the digest the approval is for.
  const calls = (unit: PlannedUnit) =>
    unit.calls.map((call) => (call.op === 'request' ? `${String(call.operation)} ${String(call.path)}` : call.op)).join(', ');
  return [
    sanitize(`The plan ${plan.digest}, for ${plan.account.team}:`),
    ...plan.units.map((unit) => sanitize(`  ${unit.record}: ${calls(unit)}`)),
    ...(impact === '' ? [] : impact.trimEnd().split('\n')),
    ...planReviewWords(plan),
  ];
}

/**
 * The digest an approval is for: of the plan file an apply call names, or of the review of the
 * emails a push would change, planned again now; undefined for another call, or a plan that cannot be read.
 */
async function planDigestOf(caller: Caller, approving: Approving, tool: Tool, input: Record<string, unknown>): Promise<string | undefined> {
  if (isPush(tool)) {
    const dir = proposalDirectory(approving.configDir, newProposalId());
    try {
      return (await plannedPush(caller, tool, input, dir)).review?.digest;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (tool.path.join(' ') !== 'apply') return undefined;
  const plan = await readPlanUnder(caller.root, callOf(caller, tool, input).input.plan as string, PLAN_KINDS).catch(() => undefined);
  return plan?.digest;
}

/** An answer with the review of the emails the call changes: its digest, its page and the emails, for the person approving. */
function withReview(answer: ToolAnswer, review: LinkedReview | undefined): ToolAnswer {
  if (review === undefined) return answer;
  const where = review.page === undefined ? '' : ` See them before and after in ${review.page}.`;
  return {
    ...answer,
    content: [...answer.content, { type: 'text', text: `Review (digest ${review.digest}): ${review.summary}${where}` }],
    structuredContent: { ...answer.structuredContent, review },
  };
}

/** A call that needs approval: asked, then run on yes; or kept for `loopsctl approve`. */
function approvalOf(caller: Caller, approving: Approving): NonNullable<Caller['approval']> {
  return async (tool, given, signal, why) => {
    const input = settled(tool, given);
    try {
      const id = newProposalId();
      // A push is planned into the proposal's directory, where its review's page stays while the change waits.
      if (isPush(tool)) sweepProposals(approving.configDir, approving.now());
      const push = isPush(tool) ? await plannedPush(caller, tool, input, proposalDirectory(approving.configDir, id), signal) : undefined;
      const words = [
        commandLine(tool, input),
        ...(why === undefined ? [] : [`Asked because: ${why}`]),
        ...(push?.words ?? (await impactWords(caller, approving, tool, input, id, signal))),
      ];
      const planDigest = push === undefined ? await planDigestOf(caller, approving, tool, input) : push.review?.digest;
      const answer = await ask(approving, words, signal);
      if (answer === 'approved') return withReview(await callTool(caller, tool, input, signal, true), push?.review);
      if (answer !== 'unable') return notApproved(tool, answer);
      const proposal = propose(
        approving.configDir,
        {
          by: clientOf(approving),
          account: approving.account,
          binding: approving.binding,
          words,
          call: { tool: tool.name, input },
          ...(planDigest === undefined ? {} : { planDigest }),
        },
        approving.now(),
        id,
      );
      return withReview(pending(proposal), push?.review);
    } catch (error) {
      if (error instanceof LoopsctlError) return failed(tool, error);
      throw error;
    }
  };
}

export function notApproved(tool: Tool | undefined, answer: 'declined' | 'cancelled' | 'unanswered'): ToolAnswer {
  const why = { declined: 'the person declined it', cancelled: 'the person cancelled the question', unanswered: 'no answer came in time' }[answer];
  return failed(tool, new ProtectedError(`not approved: ${why}; nothing was sent`, { code: 'not_approved', hint: 'ask the person; do not retry on your own' }));
}

/** The answer of a call kept for a person to approve: its id, how it is approved, and how it is then applied. */
export function pending(proposal: Proposal, then = 'approved_apply'): ToolAnswer {
  const structured = {
    status: 'pending approval',
    plan: proposal.id,
    expiresAt: proposal.expiresAt,
    change: proposal.words,
    approveWith: `loopsctl approve ${proposal.id}`,
    thenCall: { tool: then, arguments: { plan: proposal.id } },
  };
  const text = [
    `Pending approval: nothing was sent. This client cannot ask its person, so a person must run \`loopsctl approve ${proposal.id}\` in a terminal.`,
    `Once they have, call ${then} with {"plan": "${proposal.id}"}; the approval expires at ${proposal.expiresAt}.`,
  ].join('\n');
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/** approved_apply: a change a person approved with `loopsctl approve`, applied once. */
function approvedApplyTool(caller: Caller, approving: Approving, offered: (name: string) => Tool | undefined, sandbox: boolean): MetaTool {
  return {
    name: 'approved_apply',
    description:
      'Apply a change that a person approved with `loopsctl approve <id>` after a tool answered "pending approval" with that id. Takes only the id: the change is the one the person approved (its digest), applied once, before the approval expires.',
    inputSchema: {
      type: 'object',
      properties: { plan: { type: 'string', pattern: '^p-[a-z0-9]{12}$', description: 'the id the tool answered with (p-…)' } },
      required: ['plan'],
      additionalProperties: false,
    },
    annotations: { title: 'Apply an approved change', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: !sandbox },
    call: async (input, signal) => {
      try {
        const proposal = readProposal(approving.configDir, String(input.plan), approving.now());
        if (proposal.call.tool === 'workflow_apply')
          throw new UsageError(`${proposal.id} is a proposed workflow`, { hint: `apply it with workflow_apply {"plan": "${proposal.id}"}` });
        const tool = offered(proposal.call.tool);
        if (tool === undefined) throw new UsageError(`${proposal.call.tool} is not offered by this server`, { hint: 'ask the person who started the server' });
        if (proposal.planDigest !== undefined && (await planDigestOf(caller, approving, tool, proposal.call.input)) !== proposal.planDigest)
          throw new ProtectedError(
            isPush(tool)
              ? `the emails ${proposal.id} pushes would now be drawn otherwise than in the review the person approved (its digest changed); nothing was sent`
              : `the plan file of ${proposal.id} is not the plan the person approved (its digest changed); nothing was sent`,
            {
              code: 'not_approved',
              hint: isPush(tool)
                ? 'propose the push again, for a person to approve its review as it is'
                : 'propose the apply again, for a person to approve the plan as it is',
            },
          );
        takeApproval(approving.configDir, proposal, approving.now(), approving.binding);
        return await callTool(caller, tool, proposal.call.input, signal, true);
      } catch (error) {
        if (error instanceof LoopsctlError) return failed(undefined, error);
        throw error;
      }
    },
  };
}
