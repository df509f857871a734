import { describe, expect, it } from 'vitest';
import { MAX_WORKFLOW_NODES } from '../../../../src/platform/workflows/creation.js';
import type { WorkflowFile } from '../../../../src/platform/workflows/file.js';
import { type PropertyTypes, workflowProblems } from '../../../../src/platform/workflows/rules.js';

const rules = (file: WorkflowFile, types?: PropertyTypes) =>
  workflowProblems(file, types).map((problem) => `${problem.severity} ${problem.key ?? '-'} ${problem.rule}`);

const email = (key: string, next: string[] = []) => ({ type: 'SendEmailAction', next, email: `emails/${key}/email.json` });

/** A workflow of every documented shape the platform takes: an "Immediately" timer, an email last, an experiment without control, a branch's default path. */
const DOCUMENTED: WorkflowFile = {
  name: 'Documented shapes',
  root: 'signup',
  nodes: {
    signup: { type: 'SignupTrigger', next: ['now'] },
    now: { type: 'TimerAction', next: ['split'], amount: 0, unit: 'm' },
    split: { type: 'ExperimentBranchNode', next: ['variant-a', 'variant-b'], samplingRate: 100 },
    'variant-a': { type: 'VariantNode', next: ['hello-a'], isControl: false },
    'hello-a': email('hello-a'),
    'variant-b': { type: 'VariantNode', next: ['hello-b'], isControl: false },
    'hello-b': email('hello-b', ['branch']),
    branch: { type: 'BranchNode', next: ['pro', 'everyone'] },
    pro: {
      type: 'AudienceFilter',
      next: [],
      audienceFilter: { match: 'all', conditions: [{ type: 'property', key: 'plan', operator: 'equals', value: 'pro' }] },
    },
    everyone: { type: 'AudienceFilter', next: [], audienceFilter: null, appliesDownstream: false },
  },
};

describe('workflowProblems', () => {
  it('takes the shapes the platform documents: a timer of 0, an email last, an experiment without control, a rate of 0, audienceFilter null', () => {
    expect(rules(DOCUMENTED)).toEqual([]);
    expect(rules({ ...DOCUMENTED, nodes: { ...DOCUMENTED.nodes, split: { ...DOCUMENTED.nodes.split!, samplingRate: 0 } } })).toEqual([]);
  });

  it('takes an audience filter with both a segment and conditions: "the filter is applied on top of the segment\'s filter"', () => {
    const both = { ...DOCUMENTED.nodes.pro!, segment: 'Paying customers' };
    expect(rules({ ...DOCUMENTED, nodes: { ...DOCUMENTED.nodes, pro: both } })).toEqual([]);
  });

  it('refuses more than one control, and a sampling rate out of 0 to 100', () => {
    const nodes = {
      ...DOCUMENTED.nodes,
      split: { ...DOCUMENTED.nodes.split!, samplingRate: 120 },
      'variant-a': { ...DOCUMENTED.nodes['variant-a']!, isControl: true },
      'variant-b': { ...DOCUMENTED.nodes['variant-b']!, isControl: true },
    };
    expect(rules({ ...DOCUMENTED, nodes })).toEqual(['error split experiment-control', 'error split sampling-rate']);
  });

  it('warns, as a start rule, of an experiment path with no email of its own, and of a branch path that is no filter', () => {
    const nodes = {
      ...DOCUMENTED.nodes,
      // The control leads straight to where variant b goes on: its path holds no email of its own.
      'variant-a': { type: 'VariantNode', next: ['hello-b'], isControl: true },
      'hello-a': undefined,
      branch: { type: 'BranchNode', next: ['pro', 'later'] },
      later: { type: 'TimerAction', next: [], amount: 1, unit: 'd' },
      everyone: undefined,
    };
    const file = { ...DOCUMENTED, nodes: Object.fromEntries(Object.entries(nodes).filter(([, node]) => node !== undefined)) } as WorkflowFile;
    const problems = workflowProblems(file);
    expect(problems.map((problem) => `${problem.severity} ${problem.key} ${problem.rule}`)).toEqual([
      'warning split experiment-email',
      'warning split experiment-email',
      'warning branch branch-children',
    ]);
    expect(problems[0]!.message).toContain('the control path "variant-a" holds no email of its own');
    for (const problem of problems) expect(problem.message).toContain('the platform refuses to start the workflow so (a draft may hold it)');
  });

  it('refuses a negative wait, and a node that is no branch leading to two nodes', () => {
    const nodes = { ...DOCUMENTED.nodes, now: { type: 'TimerAction', next: ['split', 'hello-a'], amount: -1, unit: 'm' } };
    expect(rules({ ...DOCUMENTED, nodes })).toEqual(['error now one-next', 'error now timer-amount']);
  });

  it(`refuses more than ${MAX_WORKFLOW_NODES} nodes, and a second trigger`, () => {
    const nodes: WorkflowFile['nodes'] = { start: { type: 'SignupTrigger', next: ['w0'] } };
    for (let index = 0; index < MAX_WORKFLOW_NODES; index++)
      nodes[`w${index}`] = { type: 'TimerAction', next: [index + 1 < MAX_WORKFLOW_NODES ? `w${index + 1}` : 'exit'], amount: 1, unit: 'h' };
    nodes.exit = { type: 'ExitAction', next: [] };
    nodes.again = { type: 'EventTrigger', next: ['exit'], eventName: 'x', reEligible: false };
    const found = rules({ name: 'Long', root: 'start', nodes });
    expect(found).toContain('error - node-count');
    expect(found).toContain('error again one-trigger');
    expect(found).toContain('error again reachable');
  });
});

describe('contact-property trigger queries', () => {
  const trigger = (query: Record<string, unknown>): WorkflowFile => ({
    name: 'Property',
    root: 'changed',
    nodes: {
      changed: { type: 'ContactPropertyTrigger', next: ['exit'], contactPropertyQuery: query, reEligible: false },
      exit: { type: 'ExitAction', next: [] },
    },
  });
  const TYPES: PropertyTypes = (key) => ({ seats: 'number', betaOptIn: 'boolean', plan: 'string', trialEndsAt: 'date' })[key] as never;
  const any = { value: '', operator: 'any' };
  const messages = (file: WorkflowFile, types?: PropertyTypes) =>
    workflowProblems(file, types).map((problem) => `${problem.rule}: ${problem.message} (${problem.fix})`);

  it.each([
    [
      'is: empty on a number property',
      { key: 'seats', was: any, is: { value: '', operator: 'empty' } },
      'trigger-query: contactPropertyQuery.is.operator "empty" cannot be used with the number property "seats": number and boolean properties allow empty on was, but not on is (write one of any, greater_than, less_than, numeric_equal, numeric_not_equal, not_empty)',
    ],
    [
      'is: equal on a boolean property',
      { key: 'betaOptIn', was: any, is: { value: true, operator: 'equal' } },
      'trigger-query: contactPropertyQuery.is.operator "equal" is not valid for the boolean property "betaOptIn" (write one of any, true, false, not_empty)',
    ],
    [
      'the key createdAt',
      { key: 'createdAt', was: any, is: any },
      'trigger-query: contactPropertyQuery.key "createdAt" is not available for Contact Updated triggers: hidden or unsupported fields, such as createdAt, notes, and computed contact properties, are rejected (watch a property the team sets on its contacts (loopsctl contact-properties list), or trigger on an event instead)',
    ],
    [
      'a date operator on a string property',
      { key: 'plan', was: { value: '2024-01-01', operator: 'after' }, is: any },
      'trigger-query: contactPropertyQuery.was.operator "after" is not valid for the string property "plan" (write one of any, equal, not_equal, contains, not_contains, empty, not_empty)',
    ],
  ])('refuses %s, saying what to write instead', (_what, query, message) => {
    expect(messages(trigger(query), TYPES)).toEqual([message]);
  });

  it('takes empty on the was side of a number property, and every documented operator of a date', () => {
    expect(messages(trigger({ key: 'seats', was: { value: '', operator: 'empty' }, is: { value: 3, operator: 'greater_than' } }), TYPES)).toEqual([]);
    expect(messages(trigger({ key: 'trialEndsAt', was: any, is: { value: '2025-01-01', operator: 'before' } }), TYPES)).toEqual([]);
  });

  it('offline, with no types known, still refuses a hidden key and an operator no property type takes', () => {
    expect(messages(trigger({ key: 'notes', was: any, is: any }))).toEqual([expect.stringContaining('"notes" is not available for Contact Updated triggers')]);
    expect(messages(trigger({ key: 'plan', was: any, is: { value: 'x', operator: 'date_empty' } }))).toEqual([
      expect.stringContaining('contactPropertyQuery.is.operator "date_empty" is not an operator of a Contact Updated trigger'),
    ]);
    expect(messages(trigger({ key: 'seats', was: any, is: { value: '', operator: 'empty' } }))).toEqual([]);
  });
});
