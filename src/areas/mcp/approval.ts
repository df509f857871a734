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
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { InterruptedError, LoopsctlError, ProtectedError, UsageError } from '../../base/errors.js';
import { LIVE_SINCE_YES } from '../../core/bound-calls.js';
import { approvalQuestion, newProposalId, type Proposal, proposalDirectory, propose, readProposal, sweepProposals, takeApproval } from '../change/approvals.js';
import { type Binding, bindingOf, checkBound, runBound } from './binding.js';
import { type Caller, failed, type ToolAnswer } from './calls.js';
import type { MetaTool } from './meta.js';
import { isPush, type LinkedReview } from './push-review.js';
import { asks, type Selection, type Settings, type Tool } from './tools.js';

/** How many times a person is asked about one call whose target goes live while they read the question. */
const ASKED_AT_MOST = 3;

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

/**
 * A call that needs approval: what the person's yes would bind made first (binding.ts), then asked,
 * and on a yes the change made as bound; or kept for `loopsctl approve`. A change whose target went
 * live while the person read the question is refused by the gate, nothing sent, and the person is
 * asked again about it as it is now (at most ASKED_AT_MOST times). The proposal's directory
 * holds the bound plan (and a push's review page) while the change waits; a question answered
 * takes it away, but a push's, whose page the person may still be reading.
 */
function approvalOf(caller: Caller, approving: Approving): NonNullable<Caller['approval']> {
  return async (tool, given, signal, why) => {
    const input = settled(tool, given);
    const id = newProposalId();
    let dir: string | undefined;
    let answer: Awaited<ReturnType<typeof ask>> | undefined;
    let keep = isPush(tool);
    try {
      // Proposals that can no longer be applied go first: their directories hold the account's content.
      sweepProposals(approving.configDir, approving.now());
      dir = proposalDirectory(approving.configDir, id);
      let binding: Binding;
      let words: string[];
      for (let round = 1; ; round++) {
        binding = await bindingOf(caller, tool, input, dir, signal);
        // Kept while the change waits: the plan the yes binds, a push's review page.
        keep ||= 'plan' in binding.bound;
        words = [commandLine(tool, input), ...(why === undefined ? [] : [`Asked because: ${why}`]), ...binding.words];
        answer = await ask(approving, words, signal);
        if (answer !== 'approved') break;
        const made = await runBound(caller, tool, input, binding.bound, dir, signal);
        // What went live while the person read the question is no part of their yes: asked again, as it is now.
        const refusal = (made.structuredContent?.error as { code?: string; message?: string } | undefined) ?? {};
        if (refusal.code !== LIVE_SINCE_YES || round === ASKED_AT_MOST) return withReview(made, binding.review);
        why = `${refusal.message ?? ''} (asked again)`;
        // The next question's binding is made afresh, in a directory emptied of this one's.
        rmSync(dir, { recursive: true, force: true });
        dir = proposalDirectory(approving.configDir, id);
      }
      if (answer !== 'unable') return notApproved(tool, answer);
      const proposal = propose(
        approving.configDir,
        { by: clientOf(approving), account: approving.account, binding: approving.binding, words, call: { tool: tool.name, input }, bound: binding.bound },
        approving.now(),
        id,
      );
      return withReview(pending(proposal), binding.review);
    } catch (error) {
      if (error instanceof LoopsctlError) return failed(tool, error);
      throw error;
    } finally {
      if (dir !== undefined && !(keep && (answer === 'unable' || isPush(tool)))) rmSync(dir, { recursive: true, force: true });
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
        if (proposal.bound === undefined)
          throw new ProtectedError(`${proposal.id} holds no calls a yes binds; nothing was sent`, { code: 'not_approved', hint: 'propose the change again' });
        const dir = 'plan' in proposal.bound ? proposalDirectory(approving.configDir, proposal.id) : '';
        // The plan approved, as the person approved it, before the approval is used.
        await checkBound(dir, proposal.bound);
        takeApproval(approving.configDir, proposal, approving.now(), approving.binding);
        return await runBound(caller, tool, proposal.call.input, proposal.bound, dir, signal);
      } catch (error) {
        if (error instanceof LoopsctlError) return failed(undefined, error);
        throw error;
      }
    },
  };
}
