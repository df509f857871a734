/**
 * What a person's yes binds, on each road that takes one: the yes lets exactly the calls it was
 * given for through, and a call changed since it was given is refused, nothing sent. Each road
 * declares, for each way a call can change, the case that walks it (binding.test.ts runs them), or
 * why that change cannot arise on the road; coverage.test.ts fails for a road that takes a yes
 * without its cases.
 *
 * - `terminal`: a person's `--live` at a terminal, given to the plan they reviewed (`apply --live`);
 * - `approve`: `loopsctl approve` at a terminal, then the agent's `approved_apply`;
 * - `elicitation`: the MCP client's question to its person, answered while the call waits;
 * - `workflow_apply`: a proposed workflow's edit, asked about or approved, then applied.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect } from 'vitest';
import { type Proposal, propose } from '../../src/areas/change/approvals.js';
import { planDigest } from '../../src/areas/change/plan-file.js';
import { canonicalJson } from '../../src/base/canonical-json.js';
import { boundCall } from '../../src/core/bound-calls.js';
import { seedId } from '../../src/emulator/module.js';
import { campaigns } from '../../src/emulator/routes/campaign-records.js';
import { workflows } from '../../src/emulator/routes/workflow-records.js';
import { recordingSandbox } from '../support/recording.js';
import { type Arena, type Attempt, NOVEMBER, type Target, WIN_BACK } from './arena.js';

/** The ways a call can differ from the one a yes was given for, and `exact`: the yes lets the very calls through. */
export const CHANGES = ['exact', 'body', 'spelling', 'account', 'revision', 'live'] as const;
export type Change = (typeof CHANGES)[number];

/** A case: run on an arena whose state is the seed's. */
export type BindingCase = (arena: Arena) => Promise<void>;

export type YesRoad = 'terminal' | 'approve' | 'elicitation' | 'workflow_apply';

const LIVE_WORKFLOW: Target = { kind: 'workflow', live: true };
const DRAFT_WORKFLOW: Target = { kind: 'workflow', live: false };
const SCHEDULE = '2031-01-06T09:00:00Z';

/** A request as the sandbox received it, or as a yes binds it: its method, path and body. */
interface Call {
  method: string;
  path: string;
  body?: unknown;
}

/** The attempt sent exactly these calls, in order, and nothing else. */
export function expectExactly(attempt: Attempt, calls: readonly Call[], what: string): void {
  expect(attempt.code, `${what}: ${attempt.message}`).toBe(0);
  expect(
    attempt.sent.map((request) => ({ method: request.method, path: request.path, body: canonicalJson(request.body ?? null) })),
    `${what}: sent`,
  ).toEqual(calls.map((call) => ({ method: call.method, path: call.path, body: canonicalJson(call.body ?? null) })));
}

/** A call changed since the yes, refused: the exit code and words of its refusal, nothing sent, the sandbox as it was. */
export function expectBoundRefusal(arena: Arena, attempt: Attempt, before: string, exit: number, words: RegExp, what: string): void {
  expect(
    attempt.sent.map((request) => `${request.method} ${request.path}`),
    `${what}: sent`,
  ).toEqual([]);
  expect(arena.state() === before, `${what}: the sandbox's state changed`).toBe(true);
  expect(attempt.message, `${what}: its refusal`).toMatch(words);
  expect(attempt.code, `${what}: ${attempt.message}`).toBe(exit);
}

/** An attempt on a change since the yes, refused: nothing sent, the sandbox as it was before it (expectBoundRefusal). */
async function expectRefusal(arena: Arena, attempt: () => Promise<Attempt>, exit: number, words: RegExp, what: string): Promise<void> {
  const before = arena.state();
  expectBoundRefusal(arena, await attempt(), before, exit, words, what);
}

/** The plan of a node's edit of Win-back (its experiment's sampling rate), written in the arena's root: its file, and its one call. */
async function nodeEditPlan(arena: Arena, rate = 30): Promise<{ file: string; call: Call }> {
  const file = join(arena.root, `binding-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  const made = await arena.sandbox.loopsctl([
    'workflow',
    'nodes',
    'update',
    WIN_BACK,
    arena.ids().experiment,
    '--set',
    `samplingRate:=${rate}`,
    '--plan',
    '--out',
    file,
  ]);
  expect(made.code, made.stderr).toBe(0);
  const call = (JSON.parse(readFileSync(file, 'utf8')) as { units: { calls: Call[] }[] }).units[0]!.calls[0]!;
  return { file, call: { method: call.method, path: call.path, body: call.body } };
}

/** The plan file rewritten by `edit`, with its digest made again (as whoever can write the file can). */
function rewritePlan(file: string, edit: (plan: { units: { calls: Call[] }[] }) => void): void {
  const plan = JSON.parse(readFileSync(file, 'utf8'));
  edit(plan);
  plan.digest = planDigest(plan);
  writeFileSync(file, `${JSON.stringify(plan, null, 2)}\n`);
}

/** A change that waits for a person: the tool called on the server whose client cannot ask, and the id of the change it answered. */
async function waiting(arena: Arena, tool: string, input: Record<string, unknown>): Promise<string> {
  const asked = await arena.tool('pending', tool, input);
  const id = asked.answer?.plan;
  expect(id, `${tool}: ${asked.message}`).toMatch(/^p-/);
  return id!;
}

/** The change as it waits, read from the server's config directory. */
function proposalOf(arena: Arena, id: string): Proposal {
  return JSON.parse(readFileSync(join(arena.approvals, 'approvals', `${id}.json`), 'utf8')) as Proposal;
}

/** The plan a change binds, kept in its directory. */
function boundPlanCalls(arena: Arena, id: string): Call[] {
  const plan = JSON.parse(readFileSync(join(arena.approvals, 'approvals', id, 'change.json'), 'utf8')) as { units: { calls: Call[] }[] };
  return plan.units.flatMap((unit) => unit.calls.map((call) => ({ method: call.method, path: call.path, body: call.body })));
}

/** The change rewritten before the person approves it, as if the calls they were shown were these. */
function reproposed(arena: Arena, id: string, edit: (proposal: Proposal) => void): void {
  const proposal = structuredClone(proposalOf(arena, id));
  edit(proposal);
  propose(arena.approvals, proposal, new Date(proposal.createdAt), id, Date.parse(proposal.expiresAt) - Date.parse(proposal.createdAt));
}

/** Win-back made live as a person starts it in the app: its status alone; its revision stays. */
function started(arena: Arena): void {
  arena.make(LIVE_WORKFLOW);
}

/** The plan of a proposed workflow, in its directory under the config directory of the server that proposed it. */
function proposedPlan(arena: Arena, tier: 'write' | 'destructive', id: string): string {
  return join(arena.configs.get(tier)!, 'approvals', id, 'change.json');
}

/** A teammate's edit in the app, while the change waits: Win-back's revision moves, or November's name. */
function teammateEdits(arena: Arena, what: 'workflow' | 'campaign'): void {
  arena.sandbox.server.update((state) => {
    if (what === 'workflow') workflows.of(state).find((workflow) => workflow.id === WIN_BACK)!.workflowRevisionId = seedId('workflow/edited by a teammate');
    else campaigns.of(state).find((campaign) => campaign.id === NOVEMBER)!.name = 'Renamed by a teammate';
  });
}

/** The words of each refusal. */
const REFUSED = {
  digest: /its digest does not match/,
  spelling: /is not sent as written/,
  account: /the plan is for .* and this key reaches/,
  conflict: /changed in the account since the plan was made/,
  unbound: /not_approved_call/,
  liveSince: /live_since_approved[\s\S]*which it was not when the person said yes/,
  yesNeeded: /needs a person's yes|approval_needed/,
};

/** What the yes of each road binds: a case for each way a call can change, or why that change cannot arise there. */
export const BINDING: Record<YesRoad, Record<Change, BindingCase | string>> = {
  terminal: {
    exact: async (arena) => {
      arena.set(LIVE_WORKFLOW);
      const { file, call } = await nodeEditPlan(arena);
      arena.set(LIVE_WORKFLOW, true);
      expectExactly(await arena.cli(['apply', file, '--live']), [call], 'apply --live');
    },
    body: async (arena) => {
      arena.set(LIVE_WORKFLOW);
      const { file } = await nodeEditPlan(arena);
      writeFileSync(file, readFileSync(file, 'utf8').replace('"samplingRate": 30', '"samplingRate": 90'));
      arena.set(LIVE_WORKFLOW, true);
      await expectRefusal(arena, () => arena.cli(['apply', file, '--live']), 2, REFUSED.digest, 'a plan whose body was edited after its review');
    },
    spelling: async (arena) => {
      arena.set(LIVE_WORKFLOW);
      const { file } = await nodeEditPlan(arena);
      rewritePlan(file, (plan) => {
        const call = plan.units[0]!.calls[0]!;
        call.path = call.path.replace('/nodes/', '/nodes/./');
      });
      arena.set(LIVE_WORKFLOW, true);
      await expectRefusal(arena, () => arena.cli(['apply', file, '--live']), 2, REFUSED.spelling, 'a plan whose path is spelled otherwise');
    },
    account: async (arena) => {
      arena.set(LIVE_WORKFLOW);
      const { file } = await nodeEditPlan(arena);
      const other = await recordingSandbox();
      try {
        other.server.update((state) => Object.assign(state, structuredClone(arena.sandbox.server.state())));
        const ran = await other.loopsctl(['apply', file, '--live'], { env: { XDG_CACHE_HOME: join(arena.config, 'cache') } });
        expect(other.requests.filter((request) => request.method !== 'GET')).toEqual([]);
        expect(ran.stderr).toMatch(REFUSED.account);
        expect(ran.code, ran.stderr).toBe(11);
      } finally {
        await other.close();
      }
    },
    revision: async (arena) => {
      arena.set();
      const file = join(arena.root, 'binding-schedule.json');
      const made = await arena.sandbox.loopsctl(['campaigns', 'update', NOVEMBER, '--schedule', SCHEDULE, '--plan', '--out', file]);
      expect(made.code, made.stderr).toBe(0);
      teammateEdits(arena, 'campaign');
      arena.set(undefined, true);
      await expectRefusal(arena, () => arena.cli(['apply', file, '--live']), 5, REFUSED.conflict, 'a schedule whose campaign changed since its review');
    },
    // The yes at a terminal is --live, given with the very run: a plan reviewed while its workflow was a draft carries none.
    live: async (arena) => {
      arena.set(DRAFT_WORKFLOW);
      const { file } = await nodeEditPlan(arena);
      started(arena);
      await expectRefusal(arena, () => arena.cli(['apply', file]), 11, REFUSED.yesNeeded, 'a plan reviewed as a draft, applied once live');
    },
  },

  approve: {
    exact: async (arena) => {
      // The calls of a command that cannot plan, as the transport sends them.
      arena.set();
      const contact = await waiting(arena, 'contacts_create', { email: 'alan@example.com', 'first-name': 'Alan' });
      const [bound] = (proposalOf(arena, contact).bound as { calls: ReturnType<typeof boundCall>[] }).calls;
      await arena.approve(contact);
      const made = await arena.tool('pending', 'approved_apply', { plan: contact });
      expect(made.code, made.message).toBe(0);
      expect(made.sent.map((request) => boundCall(request.method, { path: request.path, search: '' }, request.body))).toEqual([bound]);
      // The plan of a command that can, as it was kept with the change.
      arena.set();
      const schedule = await waiting(arena, 'campaigns_update', { id: NOVEMBER, schedule: SCHEDULE });
      const calls = boundPlanCalls(arena, schedule);
      await arena.approve(schedule);
      expectExactly(await arena.tool('pending', 'approved_apply', { plan: schedule }), calls, 'a schedule approved');
    },
    body: async (arena) => {
      arena.set();
      const id = await waiting(arena, 'contacts_import', { file: 'contacts.csv' });
      await arena.approve(id);
      const csv = join(arena.root, 'contacts.csv');
      const kept = readFileSync(csv, 'utf8');
      writeFileSync(csv, kept.replace('Alan', 'Alana'));
      try {
        await expectRefusal(
          arena,
          () => arena.tool('pending', 'approved_apply', { plan: id }),
          5,
          REFUSED.unbound,
          'an import whose file changed after the yes',
        );
      } finally {
        writeFileSync(csv, kept);
      }
    },
    spelling: async (arena) => {
      arena.set();
      const id = await waiting(arena, 'contacts_create', { email: 'alan@example.com', 'first-name': 'Alan' });
      // The person's yes given to the call spelled otherwise than the command sends it.
      reproposed(arena, id, (proposal) => {
        const [call] = (proposal.bound as { calls: { target: string }[] }).calls;
        call!.target = '/v1/contacts/./create';
      });
      await arena.approve(id);
      await expectRefusal(arena, () => arena.tool('pending', 'approved_apply', { plan: id }), 5, REFUSED.unbound, 'a call spelled otherwise than approved');
    },
    account: async (arena) => {
      arena.set();
      const id = await waiting(arena, 'contacts_create', { email: 'alan@example.com', 'first-name': 'Alan' });
      await arena.approve(id);
      // A server on another account that shares the config directory, where the approval is kept.
      const other = await recordingSandbox();
      const { startMcp } = await import('../support/mcp.js');
      const server = await startMcp(['--allow-destructive', '--root', arena.root], {
        env: { ...other.env, LOOPSCTL_CONFIG_DIR: arena.approvals, XDG_CACHE_HOME: join(arena.approvals, 'cache') },
        person: false,
      });
      try {
        const answer = (await server.client.callTool({ name: 'approved_apply', arguments: { plan: id } })) as {
          structuredContent?: { error?: { code?: string; exitCode?: number } };
        };
        expect(answer.structuredContent?.error).toMatchObject({
          code: 'wrong_account',
          exitCode: 11,
          message: `the change ${id} was proposed for team "Acme Sandbox", not the account this server changes; nothing was sent`,
        });
        expect(other.requests.filter((request) => request.method !== 'GET')).toEqual([]);
      } finally {
        await server.close();
        await other.close();
      }
    },
    revision: async (arena) => {
      arena.set();
      const id = await waiting(arena, 'campaigns_update', { id: NOVEMBER, schedule: SCHEDULE });
      await arena.approve(id);
      teammateEdits(arena, 'campaign');
      arena.set(undefined, true);
      await expectRefusal(arena, () => arena.tool('pending', 'approved_apply', { plan: id }), 5, REFUSED.conflict, 'a schedule whose campaign moved since');
    },
    live: async (arena) => {
      // Calls held for the question, of a workflow that was a draft when the person approved them.
      arena.set(DRAFT_WORKFLOW);
      const { call } = await nodeEditPlan(arena);
      const api = await waiting(arena, 'api', { path: call.path, method: call.method, body: JSON.stringify(call.body) });
      await arena.approve(api);
      started(arena);
      await expectRefusal(arena, () => arena.tool('pending', 'approved_apply', { plan: api }), 5, REFUSED.liveSince, 'calls approved for a draft, gone live');
      // A plan approved when its workflow was a draft.
      arena.set(DRAFT_WORKFLOW);
      const { file } = await nodeEditPlan(arena);
      const apply = await waiting(arena, 'apply', { plan: relative(arena.root, file), live: true });
      await arena.approve(apply);
      started(arena);
      await expectRefusal(
        arena,
        () => arena.tool('pending', 'approved_apply', { plan: apply }),
        5,
        REFUSED.liveSince,
        'a plan approved for a draft, gone live',
      );
    },
  },

  elicitation: {
    exact: async (arena) => {
      arena.answer = 'accept';
      arena.set();
      const contact = await arena.tool('destructive', 'contacts_create', { email: 'alan@example.com', 'first-name': 'Alan' });
      expect(arena.asked.join('\n')).toContain('It sends POST /v1/contacts/create.');
      expectExactly(contact, [{ method: 'POST', path: '/v1/contacts/create', body: { email: 'alan@example.com', firstName: 'Alan' } }], 'a contact approved');
      // An import's rows, each held for the question and each sent once, whatever order they go out in.
      arena.set();
      const emails = Array.from({ length: 9 }, (_, index) => `row${index + 1}@example.com`);
      writeFileSync(join(arena.root, 'rows.csv'), `email\n${emails.join('\n')}\n`);
      const rows = await arena.tool('destructive', 'contacts_import', { file: 'rows.csv' });
      expect(arena.asked.join('\n')).toContain('It sends POST /v1/contacts/create, 9 times.');
      expect(rows.code, rows.message).toBe(0);
      expect(rows.sent.map((request) => request.body.email as string).sort()).toEqual(emails);
      arena.set();
      const schedule = await arena.tool('destructive', 'campaigns_update', { id: NOVEMBER, schedule: SCHEDULE });
      expect(schedule.sent.map((request) => `${request.method} ${request.path}`)).toEqual([`POST /v1/campaigns/${NOVEMBER}`]);
      expect(schedule.sent[0]!.body).toEqual({ scheduling: { method: 'schedule', timestamp: '2031-01-06T09:00:00.000Z' } });
    },
    body: async (arena) => {
      arena.answer = 'accept';
      arena.set();
      const csv = join(arena.root, 'contacts.csv');
      const kept = readFileSync(csv, 'utf8');
      arena.whileAsked.push(() => writeFileSync(csv, kept.replace('Alan', 'Alana')));
      try {
        await expectRefusal(
          arena,
          () => arena.tool('destructive', 'contacts_import', { file: 'contacts.csv' }),
          5,
          REFUSED.unbound,
          'an import whose file changed while asked',
        );
      } finally {
        writeFileSync(csv, kept);
      }
    },
    // The calls a person is shown are the transport's: a spelling it would send otherwise is refused before anyone is asked.
    spelling: async (arena) => {
      arena.answer = 'accept';
      arena.set(LIVE_WORKFLOW);
      const { call } = await nodeEditPlan(arena);
      arena.set(LIVE_WORKFLOW, true);
      const respelled = call.path.replace('/nodes/', '/nodes/x\\..\\');
      const input = { path: respelled, method: call.method, body: JSON.stringify(call.body) };
      await expectRefusal(arena, () => arena.tool('destructive', 'api', input), 2, REFUSED.spelling, 'a call spelled otherwise');
      expect(arena.asked).toEqual([]);
    },
    account: 'the server that asks is the one that makes the change, with its one key for its life: the yes cannot be taken to another account',
    revision: async (arena) => {
      arena.answer = 'accept';
      arena.set();
      arena.whileAsked.push(() => teammateEdits(arena, 'campaign'));
      const attempt = await arena.tool('destructive', 'campaigns_update', { id: NOVEMBER, schedule: SCHEDULE });
      expect(attempt.sent).toEqual([]);
      expect(attempt.message).toMatch(REFUSED.conflict);
      expect(attempt.code, attempt.message).toBe(5);
    },
    live: async (arena) => {
      // A plan approved while its workflow was a draft, started as the person reads: asked again, and declined.
      arena.set(DRAFT_WORKFLOW);
      const { file } = await nodeEditPlan(arena);
      const input = { plan: relative(arena.root, file), live: true };
      arena.set(LIVE_WORKFLOW);
      const live = arena.state();
      arena.set(DRAFT_WORKFLOW);
      arena.answer = 'accept';
      arena.whileAsked.push(
        () => started(arena),
        () => {
          arena.answer = 'decline';
        },
      );
      const declined = await arena.tool('destructive', 'apply', input);
      expect(arena.asked).toHaveLength(2);
      expect(arena.asked[1]).toMatch(/which it was not when the person said yes/);
      expectBoundRefusal(arena, declined, live, 11, /not_approved/, 'a plan approved for a draft, started while asked, declined when asked again');
      // Asked again and approved: the change is made, as it is now.
      arena.set(DRAFT_WORKFLOW);
      arena.answer = 'accept';
      arena.whileAsked.push(() => started(arena));
      const made = await arena.tool('destructive', 'apply', input);
      expect(arena.asked).toHaveLength(2);
      expect(made.sent.map((request) => request.path)).toEqual([`/v1/workflows/${WIN_BACK}/nodes/${arena.ids().experiment}`]);
    },
  },

  workflow_apply: {
    exact: async (arena) => {
      arena.answer = 'accept';
      arena.set(DRAFT_WORKFLOW);
      const id = await proposed(arena, 'destructive');
      // The edit script kept with the proposal: each node's edit, by the node's key.
      const plan = JSON.parse(readFileSync(proposedPlan(arena, 'destructive', id), 'utf8')) as {
        units: { nodes: Record<string, string>; calls: { op: string; key: string; payload: unknown }[] }[];
      };
      const [unit] = plan.units;
      started(arena);
      arena.set(LIVE_WORKFLOW, true);
      const made = await arena.tool('destructive', 'workflow_apply', { plan: id });
      expect(arena.asked).toHaveLength(1);
      expect(made.code, made.message).toBe(0);
      expect(made.sent.map((request) => [request.path, request.body?.payload])).toEqual(
        unit!.calls.map((call) => [`/v1/workflows/${WIN_BACK}/nodes/${unit!.nodes[call.key]}`, call.payload]),
      );
    },
    body: async (arena) => {
      arena.set(DRAFT_WORKFLOW);
      const id = await proposed(arena, 'write');
      const file = proposedPlan(arena, 'write', id);
      writeFileSync(file, readFileSync(file, 'utf8').replace('"samplingRate": 30', '"samplingRate": 90'));
      await expectRefusal(arena, () => arena.tool('write', 'workflow_apply', { plan: id }), 2, REFUSED.digest, 'a proposal whose plan was edited');
    },
    spelling:
      'its calls are made by the push planner from the proposed nodes, and kept in the plan under its digest: a call spelled otherwise is an edit of the plan (body)',
    account: "its proposal is bound to the account of the server that made it, as approved_apply's are (approve: account)",
    revision: async (arena) => {
      arena.set(DRAFT_WORKFLOW);
      const id = await proposed(arena, 'write');
      teammateEdits(arena, 'workflow');
      const before = arena.state();
      const refused = await arena.tool('write', 'workflow_apply', { plan: id });
      // The revision is the platform's own guard: the first call reached it and was refused (409), and none after it was sent.
      expect(refused.sent.map((request) => request.status)).toEqual([409]);
      expect(arena.state() === before, 'the sandbox changed').toBe(true);
      expect(refused.message).toMatch(REFUSED.conflict);
      expect(refused.code, refused.message).toBe(5);
    },
    live: async (arena) => {
      for (const tier of ['write', 'destructive'] as const) {
        arena.answer = 'decline';
        arena.set(DRAFT_WORKFLOW);
        const id = await proposed(arena, tier);
        started(arena);
        arena.set(LIVE_WORKFLOW, true);
        const what = `a proposal of a draft, live now, on the ${tier} tier`;
        await expectRefusal(arena, () => arena.tool(tier, 'workflow_apply', { plan: id }), 11, REFUSED.yesNeeded, what);
        if (tier === 'write') continue;
        // Asked about as it is now, and approved: the change is made.
        arena.answer = 'accept';
        arena.set(LIVE_WORKFLOW, true);
        const made = await arena.tool(tier, 'workflow_apply', { plan: id });
        expect(made.sent.map((request) => request.path)).toEqual([`/v1/workflows/${WIN_BACK}/nodes/${arena.ids().experiment}`]);
      }
    },
  },
};

/** A proposed edit of Win-back's experiment (sampling rate 30) on a server of the tier: its id. */
async function proposed(arena: Arena, tier: 'write' | 'destructive'): Promise<string> {
  const server = await arena.mcp(tier);
  const proposal = (await server.client.callTool({
    name: 'workflow_propose',
    arguments: { workflow: WIN_BACK, edits: [{ node: arena.ids().experiment, set: { samplingRate: 30 } }] },
  })) as { structuredContent?: { plan?: string } };
  const id = proposal.structuredContent?.plan;
  expect(id, JSON.stringify(proposal)).toBeDefined();
  return id!;
}
