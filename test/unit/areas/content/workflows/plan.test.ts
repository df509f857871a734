import { describe, expect, it } from 'vitest';
import { describeStep, planWorkflow } from '../../../../../src/areas/content/workflows/plan.js';
import type { WorkflowFile } from '../../../../../src/platform/workflows/file.js';

const base: WorkflowFile = {
  name: 'Onboarding',
  root: 'signup',
  nodes: {
    signup: { type: 'SignupTrigger', next: ['wait-1h'] },
    'wait-1h': { type: 'TimerAction', next: ['hello'], amount: 1, unit: 'h' },
    hello: { type: 'SendEmailAction', next: ['exit'], email: 'emails/hello/email.json' },
    exit: { type: 'ExitAction', next: [] },
  },
};

const copy = (file: WorkflowFile): WorkflowFile => structuredClone(file);
const described = (account: WorkflowFile, wanted: WorkflowFile, emails: string[] = []) =>
  planWorkflow(account, wanted, new Set(emails)).steps.map((step) => describeStep(step, () => undefined));

describe('planWorkflow', () => {
  it('plans nothing for the same graph', () => {
    expect(planWorkflow(base, copy(base), new Set())).toEqual({ steps: [], impossible: [], leftInApp: [] });
  });

  it('configures a changed field with the field alone', () => {
    const wanted = copy(base);
    wanted.nodes['wait-1h']!.amount = 3;
    expect(described(base, wanted)).toEqual(['updateWorkflowNode wait-1h amount=3']);
  });

  it('inserts a new node between its parent and where the parent led, then configures it', () => {
    const wanted = copy(base);
    wanted.nodes['wait-1h']!.next = ['pro'];
    wanted.nodes.pro = { type: 'AudienceFilter', next: ['hello'], segment: 'Pro users' };
    expect(described(base, wanted)).toEqual(['createWorkflowNode AudienceFilter pro between wait-1h and hello', 'updateWorkflowNode pro segment="Pro users"']);
  });

  it('deletes a single node, its parent then leading to its child', () => {
    const wanted = copy(base);
    wanted.nodes.signup!.next = ['hello'];
    delete wanted.nodes['wait-1h'];
    expect(described(base, wanted)).toEqual(['deleteWorkflowNode wait-1h']);
  });

  it('builds a branch with its two default paths, named by the file, and a third with add-branch', () => {
    const wanted = copy(base);
    wanted.nodes['wait-1h']!.next = ['split'];
    wanted.nodes.split = { type: 'BranchNode', next: ['a', 'b', 'c'] };
    for (const key of ['a', 'b', 'c']) wanted.nodes[key] = { type: 'AudienceFilter', next: ['hello'], appliesDownstream: false };
    wanted.nodes.c!.next = ['exit'];
    const plan = planWorkflow(base, wanted, new Set());
    expect(plan.impossible).toEqual([]);
    expect(plan.steps.map((step) => describeStep(step, () => undefined))).toEqual([
      'createWorkflowNode BranchNode split between wait-1h and hello (with paths a, b)',
      'addWorkflowBranch split: path c',
    ]);
  });

  it('reroutes a connection when the node it left keeps another', () => {
    const account = copy(base);
    account.nodes.signup!.next = ['split'];
    account.nodes.split = { type: 'BranchNode', next: ['a', 'b'] };
    account.nodes.a = { type: 'AudienceFilter', next: ['wait-1h'] };
    account.nodes.b = { type: 'AudienceFilter', next: ['wait-1h'] };
    const wanted = copy(account);
    wanted.nodes.b!.next = ['exit'];
    expect(described(account, wanted)).toEqual(['rerouteNodeConnection b -> exit']);
  });

  it('says when no script gets there: an exit the API cannot create', () => {
    const wanted = copy(base);
    wanted.nodes.hello!.next = ['end'];
    wanted.nodes.end = { type: 'ExitAction', next: [] };
    expect(planWorkflow(base, wanted, new Set()).impossible).toEqual([
      'end is ExitAction, which the API cannot create',
      'hello cannot be made to lead to end by a reroute',
    ]);
  });

  it('updates the workflow, its list and the emails whose files changed; the emoji is left to the app', () => {
    const wanted = { ...copy(base), name: 'Onboarding v2', mailingList: 'Beta testers', emoji: '🌱' };
    const plan = planWorkflow(base, wanted, new Set(['hello']));
    expect(plan.steps.map((step) => describeStep(step, () => 'rev1'))).toEqual([
      'updateWorkflowProperties name "Onboarding v2"',
      'changeWorkflowMailingList "Beta testers"',
      'updateEmailMessage hello from emails/hello/email.json (expected content revision rev1)',
    ]);
    expect(plan.leftInApp).toEqual(['the emoji 🌱']);
  });

  it('builds an experiment without a control, deleting the default control the file does not have', () => {
    const wanted = copy(base);
    wanted.nodes['wait-1h']!.next = ['split'];
    wanted.nodes.split = { type: 'ExperimentBranchNode', next: ['a', 'b'], samplingRate: 50, experimentType: 'autosplit' };
    for (const key of ['a', 'b']) wanted.nodes[key] = { type: 'VariantNode', next: ['hello'], isControl: false };
    const plan = planWorkflow(base, wanted, new Set());
    expect(plan.impossible).toEqual([]);
    expect(plan.steps.map((step) => describeStep(step, () => undefined))).toEqual([
      'createWorkflowNode ExperimentBranchNode split between wait-1h and hello (with paths a, b, split-unused-2)',
      'deleteWorkflowNodeRecursively split-unused-2 (removes split-unused-2)',
    ]);
  });

  it("ends a path at an email, as the description's own example does: built before the exit, which goes last", () => {
    const wanted = copy(base);
    wanted.nodes.hello!.next = [];
    wanted.nodes['wait-1h']!.amount = 0;
    delete wanted.nodes.exit;
    const plan = planWorkflow(base, wanted, new Set());
    expect(plan.impossible).toEqual([]);
    expect(plan.steps.map((step) => describeStep(step, () => undefined))).toEqual(['updateWorkflowNode wait-1h amount=0', 'deleteWorkflowNode exit']);
  });

  it('reads audienceFilter null as no filter: nothing to plan against an account without one', () => {
    const account = copy(base);
    account.nodes['wait-1h']!.next = ['everyone'];
    account.nodes.everyone = { type: 'AudienceFilter', next: ['hello'], appliesDownstream: false };
    const wanted = copy(account);
    wanted.nodes.everyone!.audienceFilter = null;
    expect(described(account, wanted)).toEqual([]);
  });

  /** An account whose experiment lists its variants, then its control, as the API makes them. */
  function withExperiment(): WorkflowFile {
    const account = copy(base);
    account.nodes['wait-1h']!.next = ['split'];
    account.nodes.split = { type: 'ExperimentBranchNode', next: ['a', 'b', 'control'], samplingRate: 50, experimentType: 'autosplit' };
    for (const key of ['a', 'b', 'control']) account.nodes[key] = { type: 'VariantNode', next: ['hello'], isControl: key === 'control' };
    return account;
  }

  it("plans nothing for an experiment's paths in another order: the platform sends by each path's isControl, not its place", () => {
    const account = withExperiment();
    const wanted = copy(account);
    wanted.nodes.split!.next = ['control', 'a', 'b'];
    expect(planWorkflow(account, wanted, new Set())).toEqual({ steps: [], impossible: [], leftInApp: [] });
  });

  it("still plans which path is the control, and a branch's paths in another order are no script", () => {
    const account = withExperiment();
    const wanted = copy(account);
    wanted.nodes.split!.next = ['b', 'control', 'a'];
    wanted.nodes.a!.isControl = true;
    wanted.nodes.control!.isControl = false;
    expect(described(account, wanted)).toEqual(['updateWorkflowNode a isControl=true', 'updateWorkflowNode control isControl=false']);

    const branched = copy(base);
    branched.nodes['wait-1h']!.next = ['split'];
    branched.nodes.split = { type: 'BranchNode', next: ['a', 'b'] };
    for (const key of ['a', 'b']) branched.nodes[key] = { type: 'AudienceFilter', next: ['hello'] };
    const reordered = copy(branched);
    reordered.nodes.split!.next = ['b', 'a'];
    expect(planWorkflow(branched, reordered, new Set()).impossible).toEqual(['split cannot be made to lead to b, a by a reroute']);
  });
});
