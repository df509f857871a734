/**
 * Workflows edited by an agent without a checkout: workflow_propose takes a workflow inline (the
 * YAML of a content tree's workflow.yaml, or a few node edits), and makes of it what `content push
 * --plan --out` makes of a tree: the workflows of the account pulled into a directory of the
 * proposal's own (under the config directory, for the user alone), the file written there, checked
 * by `content check`'s rules, and planned by the push's planner into a plan file. workflow_test
 * runs the proposed graph as `workflow test --file` does; workflow_apply plays the plan as
 * `loopsctl apply` does, once a person approved it where the workflow is live. A new workflow is
 * made as a draft, as `content push` makes one. Every step is one of loopsctl's own commands.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, parseDocument, type YAMLMap } from 'yaml';
import { LoopsctlError, NotFoundError, ProtectedError, UsageError } from '../../base/errors.js';
import { isJsonObject } from '../../base/json-object.js';
import { YES_NEEDED } from '../../core/gate.js';
import type { InputValue } from '../../core/invoke.js';
import type { Invoked } from '../../core/invoker.js';
import { checkBinding, newProposalId, type Proposal, proposalDirectory, propose, readProposal, sweepProposals, takeApproval } from '../change/approvals.js';
import { type PlanReview, reviewWords } from '../content/review/plan-review.js';
import { type Approving, approvalTools, ask, clientOf, notApproved, pending } from './approval.js';
import { notMadeAsApproved } from './binding.js';
import { type Caller, callTool, failed, parsed, producedValue, type ToolAnswer } from './calls.js';
import type { JsonSchema } from './inputs.js';
import type { MetaTool } from './meta.js';
import { linkedReview } from './push-review.js';
import { inputSchema, type Selection, type Settings, type Tool } from './tools.js';

/** Where a proposal's tree, and its plan, are in the proposal's directory. */
const TREE = 'tree';
const PLAN = 'change.json';

const LIFECYCLE =
  'The lifecycle: workflow_propose (checked with the content check rules; answers a plan id and its calls in words) → workflow_test with the plan id (runs the proposed graph on one contact in a throwaway sandbox) → workflow_apply with the plan id.';

const EDIT: JsonSchema = {
  type: 'object',
  properties: {
    node: { type: 'string', minLength: 1, description: "the node's key in workflow.yaml, or its id" },
    set: {
      type: 'object',
      description: "fields of the node to set, as workflow.yaml writes them (a field null removes it); not its type; 'next' for where it leads",
    },
    remove: { type: 'boolean', description: 'remove the node: whatever led to it leads where it led' },
  },
  required: ['node'],
};

/** The workflow's directory in the pulled tree: the one whose name ends in its id, or a new one named after the file's name. */
function workflowDirectory(root: string, id: string | undefined, yaml: string | undefined): { path: string; created: boolean } {
  const workflows = join(root, TREE, 'workflows');
  const names = existsSync(workflows) ? readdirSync(workflows) : [];
  if (id !== undefined) {
    const found = names.find((name) => name.endsWith(`--${id}`));
    if (found === undefined) throw new NotFoundError(`workflow ${id} not found`, { hint: 'see the ids with workflow_list' });
    return { path: `${TREE}/workflows/${found}`, created: false };
  }
  const name = yaml === undefined ? undefined : parseDocument(yaml).get('name');
  const slug = (typeof name === 'string' ? name : 'new-workflow')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  let path = slug || 'new-workflow';
  for (let count = 2; names.includes(path); count += 1) path = `${slug}-${count}`;
  return { path: `${TREE}/workflows/${path}`, created: true };
}

/** The workflow file with the edits made: each node by its key, or by its id as the pull's state file records it. */
function edited(root: string, path: string, edits: { node: string; set?: Record<string, unknown>; remove?: boolean }[]): string {
  const file = join(root, path, 'workflow.yaml');
  const document = parseDocument(readFileSync(file, 'utf8'));
  const state = JSON.parse(readFileSync(join(root, TREE, 'loopsctl-state.json'), 'utf8')) as {
    accounts: Record<string, Record<string, { nodes?: Record<string, string> } | undefined>>;
  };
  const record = path.slice(`${TREE}/`.length);
  const keyOf = new Map(Object.values(state.accounts).flatMap((account) => Object.entries(account[record]?.nodes ?? {}).map(([key, id]) => [id, key])));
  const nodes = document.get('nodes');
  if (!isMap<string, YAMLMap<string, unknown>>(nodes)) throw new UsageError(`${path}/workflow.yaml holds no nodes`);
  const nodeAt = (key: string) => nodes.get(key) as YAMLMap<string, unknown>;
  for (const edit of edits) {
    const key = nodes.has(edit.node) ? edit.node : keyOf.get(edit.node);
    if (key === undefined || !nodes.has(key))
      throw new UsageError(`no node "${edit.node}" in the workflow`, { hint: 'name a node by its key in workflow.yaml, or by its id' });
    if (edit.remove === true) {
      // Whatever led to it leads where it led.
      const next = ((nodeAt(key).toJSON() as { next?: string[] }).next ?? []) as string[];
      nodes.delete(key);
      for (const pair of nodes.items) {
        const node = pair.value as YAMLMap<string, unknown>;
        const leads = (node.toJSON() as { next?: string[] }).next;
        if (leads?.includes(key))
          node.set(
            'next',
            leads.flatMap((to) => (to === key ? next : [to])),
          );
      }
      continue;
    }
    for (const [field, value] of Object.entries(edit.set ?? {})) {
      if (field === 'type')
        throw new UsageError(`node "${edit.node}": its type cannot be set`, { hint: 'remove the node and add one of the type wanted, in yaml' });
      if (value === null) nodeAt(key).delete(field);
      else nodeAt(key).set(field, value);
    }
  }
  return document.toString();
}

/** A command of loopsctl run on the proposal's own files. */
async function runOn(caller: Caller, dir: string, path: string[], input: Record<string, InputValue>, signal?: AbortSignal, text = false) {
  const ran = await caller.invoker.invoke(path, input, { signal, files: { inline: new Map(), root: dir }, text });
  if (ran.error !== undefined) throw ran.error;
  return ran;
}

/** The problems content check finds in the proposed workflow and its emails, with where each is. */
async function problemsOf(caller: Caller, dir: string, path: string, signal?: AbortSignal) {
  const ran = await caller.invoker.invoke(
    ['content', 'check'],
    { paths: [join(dir, path)], account: true },
    { signal, files: { inline: new Map(), root: dir } },
  );
  const checks = (producedValue(ran) ?? []) as { file: string; errors: unknown[]; warnings: unknown[] }[];
  if (ran.error !== undefined && checks.length === 0) throw ran.error;
  const at = (file: string) => file.slice(file.indexOf('/workflows/') + 1);
  return {
    errors: checks.flatMap((check) => check.errors.map((problem) => ({ file: at(check.file), ...(problem as object) }))),
    warnings: checks.flatMap((check) => check.warnings.map((problem) => ({ file: at(check.file), ...(problem as object) }))),
  };
}

// The proposal's steps in order, each a command of loopsctl on its files: one piece.
async function proposeWorkflow(caller: Caller, approving: Approving, input: Record<string, unknown>, signal?: AbortSignal): Promise<ToolAnswer> {
  const workflow = input.workflow as string | undefined;
  const yaml = input.yaml as string | undefined;
  const edits = input.edits as { node: string; set?: Record<string, unknown>; remove?: boolean }[] | undefined;
  if ((yaml === undefined) === (edits === undefined)) throw new UsageError('give the workflow as "yaml" or as "edits", one of them');
  if (edits !== undefined && workflow === undefined) throw new UsageError('"edits" change an existing workflow: give its id as "workflow"');
  sweepProposals(approving.configDir, approving.now());
  const id = newProposalId();
  const dir = proposalDirectory(approving.configDir, id);
  try {
    return await planProposal(caller, approving, { id, dir, workflow, yaml, edits }, signal);
  } catch (error) {
    // Nothing was proposed: the pulled tree is not kept.
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

async function planProposal(
  caller: Caller,
  approving: Approving,
  {
    id,
    dir,
    workflow,
    yaml,
    edits,
  }: { id: string; dir: string; workflow?: string; yaml?: string; edits?: { node: string; set?: Record<string, unknown>; remove?: boolean }[] },
  signal?: AbortSignal,
): Promise<ToolAnswer> {
  await runOn(caller, dir, ['content', 'pull'], { dir: join(dir, TREE), only: 'workflows' }, signal);
  const { path, created } = workflowDirectory(dir, workflow, yaml);
  const text = yaml ?? edited(dir, path, edits!);
  if (created) mkdirSync(join(dir, path), { recursive: true, mode: 0o700 });
  writeFileSync(join(dir, path, 'workflow.yaml'), text, { mode: 0o600 });
  const problems = await problemsOf(caller, dir, path, signal);
  if (problems.errors.length > 0) {
    rmSync(dir, { recursive: true, force: true });
    const error = new UsageError(`the proposed workflow breaks ${problems.errors.length} of the rules content check applies; nothing was planned`, {
      code: 'check',
      hint: 'fix each problem (structuredContent.output.errors) and propose again',
    });
    return { ...failed(undefined, error), structuredContent: { ...failed(undefined, error).structuredContent, output: problems } };
  }
  // Planned as a push plans it, live workflows too: planning sends nothing, and the apply of a live one is approved by a person.
  const planned = await runOn(
    caller,
    dir,
    ['content', 'push'],
    { dir: join(dir, TREE), only: 'workflows', plan: true, live: true, ...(created ? {} : { out: join(dir, PLAN) }) },
    signal,
    true,
  );
  const calls = planned.stdout.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('Wrote the plan'));
  const plan = created ? undefined : (parsed(readFileSync(join(dir, PLAN), 'utf8')) as { digest: string; units: { live?: boolean }[]; review?: PlanReview });
  if (plan !== undefined && plan.units.length === 0) {
    rmSync(dir, { recursive: true, force: true });
    return { content: [{ type: 'text', text: 'No change: the account holds this workflow already.\n' }], structuredContent: { change: false } };
  }
  const live = plan?.units.some((unit) => unit.live === true) === true;
  // The review of the emails the change draws otherwise, its page beside the plan in the proposal's directory.
  const review = plan?.review === undefined ? undefined : linkedReview(plan.review, plan.review.page);
  const proposal = propose(
    approving.configDir,
    {
      by: clientOf(approving),
      account: approving.account,
      binding: approving.binding,
      words: [
        created
          ? `a new draft workflow, ${path.slice(`${TREE}/`.length)}:`
          : `${live ? 'a live workflow' : 'a draft workflow'}, ${path.slice(`${TREE}/`.length)}:`,
        ...calls,
        ...(plan?.review === undefined ? [] : reviewWords(plan.review)),
      ],
      call: { tool: 'workflow_apply', input: { path, created, live, ...(plan === undefined ? {} : { planDigest: plan.digest }) } },
      ...(plan === undefined ? {} : { bound: { plan: plan.digest } }),
    },
    approving.now(),
    id,
  );
  const answer = {
    plan: proposal.id,
    workflow: path.slice(`${TREE}/workflows/`.length),
    new: created,
    live,
    calls,
    warnings: problems.warnings,
    ...(review === undefined ? {} : { review }),
    expiresAt: proposal.expiresAt,
    next: `test it with workflow_test {"plan": "${proposal.id}", "contact": ...}, then apply it with workflow_apply {"plan": "${proposal.id}"}${live ? ': a live workflow needs a person’s approval' : ''}`,
  };
  return { content: [{ type: 'text', text: `${JSON.stringify(answer, null, 2)}\n` }], structuredContent: answer };
}

/** A proposal of workflow_propose's, with its directory. */
function workflowProposal(approving: Approving, id: unknown): { proposal: Proposal; dir: string; path: string } {
  const proposal = readProposal(approving.configDir, String(id), approving.now());
  if (proposal.call.tool !== 'workflow_apply') throw new UsageError(`${proposal.id} is not a proposed workflow`, { hint: 'apply it with approved_apply' });
  return { proposal, dir: proposalDirectory(approving.configDir, proposal.id), path: proposal.call.input.path as string };
}

async function applyWorkflow(caller: Caller, approving: Approving, input: Record<string, unknown>, signal?: AbortSignal): Promise<ToolAnswer> {
  const { proposal, dir } = workflowProposal(approving, input.plan);
  checkBinding(proposal, approving.binding);
  const { created, live, planDigest } = proposal.call.input as { created: boolean; live: boolean; planDigest?: string };
  /** The person's yes: given at a terminal (`loopsctl approve`), or asked now; the answer to give instead when there is none. */
  const yesOf = async (why?: string): Promise<ToolAnswer | undefined> => {
    if (existsSync(join(dir, '..', `${proposal.id}.approved.json`))) {
      takeApproval(approving.configDir, proposal, approving.now(), approving.binding);
      return undefined;
    }
    const answer = await ask(approving, why === undefined ? proposal.words : [...proposal.words, `Asked because: ${why}`], signal);
    if (answer === 'unable') return pending(proposal, 'workflow_apply');
    return answer === 'approved' ? undefined : notApproved(undefined, answer);
  };
  if (live) {
    if (caller.tier !== 'destructive')
      throw new ProtectedError('the workflow is live: contacts move through it, and the server was started without --allow-destructive', {
        hint: 'ask the person who started the server',
      });
    const refused = await yesOf();
    if (refused !== undefined) return refused;
  }
  if (created) {
    // Made as a draft, as `content push` makes a new workflow; the rest of the tree was pulled just before, and is in step.
    const ran = await runOn(caller, dir, ['content', 'push'], { dir: join(dir, TREE), only: 'workflows', yes: true }, signal);
    return applied(dir, ran);
  }
  const written = parsed(readFileSync(join(dir, PLAN), 'utf8')) as { digest?: string } | undefined;
  if (written?.digest !== planDigest)
    throw new ProtectedError(`the plan of ${proposal.id} is not the one proposed; nothing was sent`, { hint: 'propose it again' });
  const apply = (yes: boolean) => runOn(caller, dir, ['apply'], { plan: join(dir, PLAN), ...(yes ? { live: true } : {}) }, signal);
  if (live) return applied(dir, await apply(true));
  try {
    return applied(dir, await apply(false));
  } catch (error) {
    // A draft when it was proposed, live now: nothing was sent, and the person is asked, as for one proposed live.
    if (!(error instanceof LoopsctlError) || error.code !== YES_NEEDED || caller.tier !== 'destructive') throw error;
    const refused = await yesOf(error.message);
    if (refused !== undefined) return refused;
    return applied(dir, await apply(true));
  }
}

/**
 * The answer of a change made: its pulled tree is not needed any more, and is not kept. An apply
 * that stopped at a conflict (exit 5) or whose email Guardian refused (exit 1) made not all of the
 * change: a tool error, saying where it stopped.
 */
function applied(dir: string, ran: Invoked): ToolAnswer {
  rmSync(dir, { recursive: true, force: true });
  if (ran.exitCode === 0) return answerOf(ran);
  const proposed = { what: 'the proposed change', since: 'the change was proposed', again: 'and apply the new proposal' };
  return failed(undefined, notMadeAsApproved(ran.exitCode, producedValue(ran), proposed), ran);
}

function answerOf(ran: { stdout: string; written: unknown[] }): ToolAnswer {
  const value = producedValue(ran as never);
  const structured = isJsonObject(value) ? value : { data: value };
  return { content: [{ type: 'text', text: ran.stdout }], structuredContent: structured };
}

/** Each call's failure as a tool error, as the command tools answer theirs. */
function guarded(call: MetaTool['call']): MetaTool['call'] {
  return async (input, signal) => {
    try {
      return await call(input, signal);
    } catch (error) {
      if (error instanceof LoopsctlError) return failed(undefined, error);
      throw error;
    }
  };
}

/**
 * The server's own tools, beside the commands': approved_apply where a call may need approval, and
 * workflow_propose and workflow_apply where workflow_test is offered (the workflow tools, named or not).
 */
export function ownTools(caller: Caller, approving: Approving, selection: Selection, settings: Settings): MetaTool[] {
  const workflows = selection.tools.some((tool) => tool.name === 'workflow_test') ? workflowTools(caller, approving, settings.sandbox) : [];
  return [...approvalTools(caller, approving, selection, settings), ...workflows];
}

/** workflow_propose and workflow_apply, in a server that may write. */
function workflowTools(caller: Caller, approving: Approving, sandbox: boolean): MetaTool[] {
  if (caller.tier === 'read') return [];
  const hints = { readOnlyHint: false, idempotentHint: false, openWorldHint: !sandbox };
  return [
    {
      name: 'workflow_propose',
      description: `Propose a change to a Loops workflow, or a new one, without applying it: the whole workflow as "yaml" (the workflow.yaml of a content tree, as content_pull writes it: name, root, nodes by key, each with its type, next and fields), or a few node "edits" of an existing "workflow" (set fields, remove a node). New workflows are made as drafts only. The API cannot publish or start a workflow, nor create a trigger: a new workflow starts with a blank trigger, set in the app. Nothing is sent. Answers the plan id, its calls in words, the review of the emails it changes as recipients see them (its digest, the path of its page before and after, and the emails), and the rule-book problems if it breaks any. ${LIFECYCLE}`,
      inputSchema: {
        type: 'object',
        properties: {
          workflow: { type: 'string', minLength: 1, description: 'the id of the workflow to change; leave out for a new one (with "yaml")' },
          yaml: { type: 'string', maxLength: 256 * 1024, description: 'the whole workflow.yaml' },
          edits: { type: 'array', items: EDIT, minItems: 1, description: 'node edits of the existing workflow, in order' },
        },
        additionalProperties: false,
      },
      annotations: { title: 'Propose a workflow change', ...hints, destructiveHint: false },
      call: guarded((input, signal) => proposeWorkflow(caller, approving, input, signal)),
    },
    {
      name: 'workflow_apply',
      description: `Apply a change workflow_propose made, by its plan id and nothing else: exactly the calls it answered, each guarded by the workflow's revision it was planned against (a change made since is refused, and nothing after it is sent). A draft is changed at once; a new workflow is made as a draft; a live workflow (contacts move through it) needs a person's approval, asked through the client, or else answered "pending approval" for \`loopsctl approve <id>\` at a terminal. ${LIFECYCLE}`,
      inputSchema: {
        type: 'object',
        properties: { plan: { type: 'string', pattern: '^p-[a-z0-9]{12}$', description: 'the plan id workflow_propose answered (p-…)' } },
        required: ['plan'],
        additionalProperties: false,
      },
      annotations: { title: 'Apply a proposed workflow change', ...hints, destructiveHint: caller.tier === 'destructive' },
      call: guarded((input, signal) => applyWorkflow(caller, approving, input, signal)),
    },
  ];
}

/** workflow_test's schema with "plan": the id of a proposed workflow, run instead of one of the account. */
export function testSchema(tool: Tool, tier: Caller['tier']): JsonSchema {
  const schema = inputSchema(tool, tier);
  const properties = schema.properties as Record<string, JsonSchema>;
  return {
    ...schema,
    properties: {
      ...properties,
      plan: {
        type: 'string',
        pattern: '^p-[a-z0-9]{12}$',
        description: `a plan id of workflow_propose: run the proposed workflow, before anything is applied (instead of "id")`,
      },
    },
  };
}

/** workflow_test of a proposed workflow: `workflow test --file` on the proposal's file. */
export async function testProposal(
  caller: Caller,
  approving: Approving,
  tool: Tool,
  input: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<ToolAnswer> {
  const { plan, ...rest } = input;
  try {
    const { dir, path } = workflowProposal(approving, plan);
    if (rest.id !== undefined) throw new UsageError('give "plan" or "id", not both');
    return await callTool(caller, tool, rest, signal, false, { root: dir, input: { file: join(dir, path, 'workflow.yaml') } });
  } catch (error) {
    if (error instanceof LoopsctlError) return failed(tool, error);
    throw error;
  }
}
