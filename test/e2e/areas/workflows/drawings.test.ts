/**
 * The node type table and what derives from it, and the drawings under stress: long chains and
 * dense graphs stay linear in size and never recurse, hostile names and ids stay data.
 */
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { renderWorkflowDot } from '../../../../src/areas/workflows/dot.js';
import { escapeMermaidComment, renderWorkflowMermaid } from '../../../../src/areas/workflows/mermaid.js';
import { renderWorkflow, renderWorkflowNode } from '../../../../src/areas/workflows/render.js';
import { FOLD_DEPTH, renderWorkflowTree } from '../../../../src/areas/workflows/tree.js';
import { strictFormOf } from '../../../../src/emulator/strict.js';
import { describeNode, NODE_TYPES, updatePayloadProblems } from '../../../../src/platform/workflows/node-types.js';
import * as s from '../../../../src/platform/workflows/schemas.js';
import { Output } from '../../../../src/render/output.js';
import { run } from '../../../support/main.js';

type Nodes = Record<string, { typeName: string; nextNodeIds: string[] } & Record<string, unknown>>;

/** A trigger and then timers, each leading to the next. */
function chain(length: number): { id: string; rootNodeId: string; nodes: Nodes } {
  const nodes: Nodes = { n0: { typeName: 'SignupTrigger', nextNodeIds: length > 1 ? ['n1'] : [] } };
  for (let index = 1; index < length; index += 1)
    nodes[`n${index}`] = { typeName: 'TimerAction', nextNodeIds: index + 1 < length ? [`n${index + 1}`] : [], amount: 1, unit: 'd' };
  return { id: 'w', rootNodeId: 'n0', nodes };
}

/** Every node leads to every later one: as many edges as a graph of `size` nodes without loops can have. */
function complete(size: number): { id: string; rootNodeId: string; nodes: Nodes } {
  const nodes: Nodes = {};
  for (let index = 0; index < size; index += 1) {
    const next: string[] = [];
    for (let later = index + 1; later < size; later += 1) next.push(`d${later}`);
    nodes[`d${index}`] = { typeName: 'BranchNode', nextNodeIds: next };
  }
  return { id: 'w', rootNodeId: 'd0', nodes };
}

/**
 * Nodes in the long chain: three times as deep as a walk that recursed could go on Node's default
 * stack (some 10,000 calls of a function of one argument), which is what it is there to catch.
 */
const LONG_CHAIN = 30_000;

/** The long chain, built once for the file (the checks and drawings only read it) and let go after it. */
let built: ReturnType<typeof chain> | undefined;
const longChain = () => {
  built ??= chain(LONG_CHAIN);
  return built;
};
afterAll(() => {
  built = undefined;
});

/** Text output as a pipe gets it: no colour, tab-separated tables. */
const textOutput = () => new Output({ json: false, color: false, stdout: new PassThrough(), env: {} });

const lineCount = (text: string) => text.split('\n').length - 1;
const longestLine = (text: string) => text.split('\n').reduce((most, line) => Math.max(most, line.length), 0);

describe('the node type table', () => {
  it('shows in the simplified view only fields it declares, and describes every type', () => {
    for (const [typeName, declared] of Object.entries(NODE_TYPES)) {
      for (const field of declared.simplified) expect(Object.keys(declared.fields), `${typeName}.${field}`).toContain(field);
      expect(typeof describeNode({ typeName, nextNodeIds: [] })).toBe('string');
    }
    expect(describeNode({ typeName: 'TimerAction', nextNodeIds: [], amount: 1, unit: 'h' })).toBe('wait 1 hour');
    expect(describeNode({ typeName: 'VariantNode', nextNodeIds: [], isControl: true, variantId: 'v1' })).toBe('control, v1');
    expect(describeNode({ typeName: 'Warp', nextNodeIds: [], speed: 9, nested: { a: 1 }, id: 'x' })).toBe('speed=9');
  });

  it('checks a node of a known type against its fields and lets an unknown type through', () => {
    const graph = (node: object) => s.workflow.safeParse({ id: 'w', rootNodeId: 'a', nodes: { a: node } }).success;
    expect(graph({ typeName: 'TimerAction', nextNodeIds: [], amount: 2, unit: 'd' })).toBe(true);
    expect(graph({ typeName: 'TimerAction', nextNodeIds: [], amount: 2, unit: 'weeks' })).toBe(false);
    expect(graph({ typeName: 'Teleport', nextNodeIds: [], destination: { anything: true } })).toBe(true);
    // A type named like an Object.prototype member is unknown, not a crash.
    expect(graph({ typeName: 'constructor', nextNodeIds: [] })).toBe(true);
    expect(graph({ typeName: 'TimerAction', nextNodeIds: 'n1' })).toBe(false);
    const node = { id: 'n', workflowId: 'w', typeName: 'TimerAction', nextNodeIds: [], amount: 1, unit: 'd' };
    expect(strictFormOf(s.workflowNode).safeParse(node).success).toBe(true);
    expect(strictFormOf(s.workflowNode).safeParse({ ...node, subject: 'not a timer field' }).success).toBe(false);
  });

  it('checks a graph of 30,000 nodes in one pass', () => {
    expect(s.workflow.safeParse(longChain()).success).toBe(true);
  });

  it('checks an update against the fields of the node type', () => {
    expect(updatePayloadProblems('TimerAction', { amount: 3, unit: 'd' })).toEqual([]);
    expect(updatePayloadProblems('TimerAction', { amount: '3' })).toEqual([
      'amount must be a number, not the text "3" (write amount:=3 to give it as a number)',
    ]);
    expect(updatePayloadProblems('TimerAction', { amount: -1 })).toEqual(['amount must be 0 or more, not -1']);
    expect(updatePayloadProblems('TimerAction', { subject: 'x' })).toEqual(['subject: not a field a TimerAction update takes (it takes: amount, unit)']);
    expect(updatePayloadProblems('TimerAction', {})[0]).toMatch(/give at least one field/);
    expect(updatePayloadProblems('ExperimentBranchNode', { samplingRate: 101 })).toEqual(['samplingRate must be 100 or less, not 101']);
    // A type whose name starts with a vowel takes "an".
    expect(updatePayloadProblems('ExperimentBranchNode', {})[0]).toMatch(/\(an ExperimentBranchNode node takes: /);
    expect(updatePayloadProblems('ExperimentBranchNode', { colour: 1 })[0]).toMatch(/^colour: not a field an ExperimentBranchNode update takes/);
    expect(updatePayloadProblems('VariantNode', { isControl: 'yes' })).toEqual(['isControl must be a boolean (true or false), not the text "yes"']);
    // Triggers may become other triggers; nothing else may change type.
    expect(updatePayloadProblems('SignupTrigger', { typeName: 'EventTrigger', eventName: 'signup' })).toEqual([]);
    expect(updatePayloadProblems('TimerAction', { typeName: 'EventTrigger' })[0]).toMatch(/only turn a trigger/);
    expect(updatePayloadProblems('EventTrigger', { eventName: 'a', eventPatternId: 'b' })).toEqual(['give eventName or eventPatternId, not both']);
    // The API answers for types it takes no update for, and for types loopsctl does not know.
    expect(updatePayloadProblems('SendEmailAction', { subject: 'x' })).toEqual([]);
    expect(updatePayloadProblems('Teleport', { destination: 'Mars' })).toEqual([]);
  });
});

describe('the tree', () => {
  it('keeps a 5,000-node chain linear: indentation stops at the fold depth and the path continues below', () => {
    const tree = renderWorkflowTree(chain(5_000), { unicode: true });
    const folds = Math.floor((5_000 - 1) / (FOLD_DEPTH + 1));
    expect(lineCount(tree)).toBe(5_000 + folds);
    expect(longestLine(tree)).toBeLessThan(3 * (FOLD_DEPTH + 1) + 60);
    expect(tree.length).toBeLessThan(5_000 * 100);
    const lines = tree.split('\n');
    const fold = lines.findIndex((line) => line.includes('↳ continues below: TimerAction n17'));
    expect(fold).toBe(FOLD_DEPTH + 1);
    expect(lines[fold + 1]).toBe('TimerAction  n17  wait 1 day');
  });

  it('draws a 30,000-node chain without running out of stack', () => {
    const tree = renderWorkflowTree(longChain(), { unicode: false });
    expect(tree).toContain(`TimerAction  n${LONG_CHAIN - 1}  wait 1 day`);
    expect(longestLine(tree)).toBeLessThan(4 * (FOLD_DEPTH + 1) + 60);
    expect(renderWorkflowMermaid(longChain())).toContain(`n${LONG_CHAIN - 2} --> n${LONG_CHAIN - 1}`);
    expect(renderWorkflowDot(longChain())).toContain(`n${LONG_CHAIN - 2} -> n${LONG_CHAIN - 1};`);
  });

  it('draws a 300-node complete graph in one line per edge, plus one per node cut at the fold depth', () => {
    // More paths than any drawing could walk one by one (each subset of the nodes is one), and
    // 44,850 edges: a drawing that walked paths, or drew an edge twice, is caught as on more nodes.
    const nodes = 300;
    const graph = complete(nodes);
    const edges = (nodes * (nodes - 1)) / 2;
    const tree = renderWorkflowTree(graph, { unicode: true });
    // The root is one line; each edge draws its node or refers to it; a node cut at the fold depth is drawn again below.
    const folds = tree.match(/↳ continues below/g)?.length ?? 0;
    expect(folds).toBeLessThan(nodes);
    expect(lineCount(tree)).toBe(1 + edges + folds);
    expect(longestLine(tree)).toBeLessThan(3 * (FOLD_DEPTH + 1) + 60);
    expect(lineCount(renderWorkflowMermaid(graph))).toBe(1 + 1 + 2 * nodes + edges);
    expect(lineCount(renderWorkflowDot(graph))).toBe(4 + nodes + edges + 1);
  });

  it('folds a path deeper than the fold depth, and still marks a loop back and a merge', () => {
    const graph = chain(FOLD_DEPTH * 2 + 5);
    const last = `n${FOLD_DEPTH * 2 + 4}`;
    graph.nodes[last]!.nextNodeIds = ['n3', 'n1'];
    const tree = renderWorkflowTree(graph, { unicode: true });
    expect(tree.match(/↳ continues below/g)).toHaveLength(2);
    expect(tree).toContain('↪ TimerAction n3 (shown above)');
    expect(lineCount(tree)).toBe(FOLD_DEPTH * 2 + 5 + 2 + 2);
  });

  it('marks added, changed and removed nodes with a sign that reads without colour', () => {
    const graph = chain(3);
    const marks = new Map([
      ['n1', 'added' as const],
      ['n2', 'changed' as const],
    ]);
    expect(renderWorkflowTree(graph, { unicode: true, marks })).toBe(
      'SignupTrigger  n0\n└─ + TimerAction  n1  wait 1 day\n   └─ ~ TimerAction  n2  wait 1 day\n',
    );
  });
});

describe('hostile names and ids', () => {
  it('leave no Mermaid directive in the comments that carry the real names and ids', () => {
    const directive = '%%{init: {"theme": "dark", "securityLevel": "loose"}}%%';
    const workflow = {
      id: `w${directive}`,
      name: `Welcome ${directive}\n%%{init: {}}%%`,
      rootNodeId: `a${directive}`,
      nodes: { [`a${directive}`]: { typeName: 'SignupTrigger', nextNodeIds: [] } },
    };
    const mermaid = renderWorkflowMermaid(workflow);
    expect(mermaid).not.toMatch(/%%\s*\{/);
    for (const line of mermaid.split('\n')) {
      expect(line.replace(/^ *%%/, '')).not.toMatch(/[%{}]/);
    }
    expect(escapeMermaidComment('50% {x}')).toBe('50#37; #123;x#125;');
  });

  it('never merge two DOT nodes whose ids read alike once escaped', () => {
    const workflow = {
      id: 'w',
      rootNodeId: 'x\n',
      nodes: { 'x\n': { typeName: 'SignupTrigger', nextNodeIds: ['x\\n'] }, 'x\\n': { typeName: 'ExitAction', nextNodeIds: [] } },
    };
    const dot = renderWorkflowDot(workflow);
    expect(dot).toContain('n0 [label="SignupTrigger", tooltip="x\\\\n", shape=oval];');
    expect(dot).toContain('n1 [label="ExitAction", tooltip="x\\\\n"];');
    expect(dot).toContain('n0 -> n1;');
  });

  it('show every field of a node, even one named like an Object.prototype member', () => {
    const out = textOutput();
    const node = JSON.parse(
      '{"id":"n","workflowId":"w","typeName":"Teleport","nextNodeIds":[],"constructor":"c1","toString":"t1","valueOf":"v1","hasOwnProperty":"h1","__proto__":"p1"}',
    );
    const text = renderWorkflowNode(out, node);
    for (const [field, value] of [
      ['constructor', 'c1'],
      ['toString', 't1'],
      ['valueOf', 'v1'],
      ['hasOwnProperty', 'h1'],
      ['__proto__', 'p1'],
    ]) {
      expect(text).toMatch(new RegExp(`^${field}\\s+${value}$`, 'm'));
    }
  });

  it('draw a whole workflow with an unknown node type generically', () => {
    const out = textOutput();
    const text = renderWorkflow(out, { id: 'w', rootNodeId: 'a', nodes: { a: { typeName: 'Teleport', nextNodeIds: [], destination: 'Mars' } } } as s.Workflow);
    expect(text).toContain('Teleport  a  destination=Mars');
  });
});

describe('workflow list', () => {
  it('has no STATUS column, which the API never fills', async () => {
    const result = await run(['--sandbox', 'workflow', 'list']);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[0]).not.toContain('STATUS');
    expect(result.stdout.split('\n')[0]).toMatch(/ID\s+NAME\s+UPDATED/);
  });
});
