import { describe, expect, it } from 'vitest';
import { quoteDot, renderWorkflowDot } from '../../../../src/areas/workflows/dot.js';
import { escapeMermaidLabel, renderWorkflowMermaid } from '../../../../src/areas/workflows/mermaid.js';

// Hostile names on purpose: quotes, entity-like text, brackets, a newline, a backslash in an id,
// a node the trigger cannot reach, and an edge to an id that has no node.
const workflow = {
  id: 'wf1',
  name: 'Onboarding "A" <b>',
  rootNodeId: 't1',
  nodes: {
    e1: { typeName: 'SendEmailAction', nextNodeIds: ['x1'], subject: 'Hi "there" #1 & <you>\n[now]', emailMessageId: 'em1' },
    t1: { typeName: 'SignupTrigger', nextNodeIds: ['w1'] },
    w1: { typeName: 'TimerAction', nextNodeIds: ['e1', 'gone'], amount: 2, unit: 'd' },
    x1: { typeName: 'ExitAction', nextNodeIds: [] },
    'we"ird\\id': { typeName: 'ExitAction', nextNodeIds: ['t1'] },
  },
};

describe('workflow diagrams', () => {
  it('draws a Mermaid flowchart with safe ids, quoted labels and the missing node marked', () => {
    expect(renderWorkflowMermaid(workflow)).toBe(`flowchart TD
  %% workflow wf1: Onboarding "A" <b>
  %% n0 = t1
  n0(["SignupTrigger"])
  %% n1 = e1
  n1["SendEmailAction<br/>#quot;Hi #quot;there#quot; #35;1 #38; #60;you#62;\\n#91;now#93;#quot;, email em1"]
  %% n2 = w1
  n2["TimerAction<br/>wait 2 days"]
  %% n3 = x1
  n3["ExitAction"]
  %% n4 = we"ird\\id
  n4["ExitAction"]
  m0["✗ gone<br/>missing node"]:::missing
  n0 --> n2
  n1 --> n3
  n2 --> n1
  n2 --> m0
  n4 --> n0
  classDef missing stroke:#c00,stroke-dasharray:4 3,color:#c00
`);
  });

  it('draws a DOT digraph with synthetic ids, the real ids as tooltips, and every label quoted and escaped', () => {
    expect(renderWorkflowDot(workflow)).toBe(`digraph "wf1" {
  label="Onboarding \\"A\\" <b>";
  labelloc=t;
  node [shape=box, style=rounded];
  n0 [label="SignupTrigger", tooltip="t1", shape=oval];
  n1 [label="SendEmailAction\\n\\"Hi \\"there\\" #1 & <you>\\\\n[now]\\", email em1", tooltip="e1"];
  n2 [label="TimerAction\\nwait 2 days", tooltip="w1"];
  n3 [label="ExitAction", tooltip="x1"];
  n4 [label="ExitAction", tooltip="we\\"ird\\\\id"];
  m0 [label="✗ gone\\nmissing node", tooltip="gone", style=dashed, color=red, fontcolor=red];
  n0 -> n2;
  n1 -> n3;
  n2 -> n1;
  n2 -> m0;
  n4 -> n0;
}
`);
  });

  it('draws one edge per nextNodeIds entry and no classDef when nothing is missing', () => {
    const graph = {
      id: 'w',
      rootNodeId: null,
      nodes: { a: { typeName: 'BranchNode', nextNodeIds: ['b', 'b'] }, b: { typeName: 'ExitAction', nextNodeIds: ['a'] } },
    };
    const mermaid = renderWorkflowMermaid(graph);
    expect(mermaid.match(/n0 --> n1/g)).toHaveLength(2);
    expect(mermaid).toContain('n1 --> n0');
    expect(mermaid).not.toContain('classDef');
    expect(renderWorkflowDot(graph).match(/n0 -> n1;/g)).toHaveLength(2);
  });

  it('leaves no character in a label that Mermaid or DOT would read as syntax', () => {
    const hostile = 'a"b#c&d<e>f`g|h[i]j{k}l(m)n;o\\p';
    expect(escapeMermaidLabel(hostile)).toBe('a#quot;b#35;c#38;d#60;e#62;f#96;g#124;h#91;i#93;j#123;k#125;l#40;m#41;n#59;o\\p');
    expect(quoteDot(hostile)).toBe('"a\\"b#c&d<e>f`g|h[i]j{k}l(m)n;o\\\\p"');
    expect(quoteDot('line\nbreak\u001b[31m')).toBe('"line\\\\nbreak\\\\x1b[31m"');
  });
});
