/** Renderers: rates, tables for terminals and pipes, records, and the workflow tree. */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { renderWorkflowTree } from '../../../src/areas/workflows/tree.js';
import { describeFilter } from '../../../src/platform/audience-filter-words.js';
import { describeNode } from '../../../src/platform/workflows/node-types.js';
import { formatRate } from '../../../src/render/numbers.js';
import { formatJson, JsonArrayWriter, Output } from '../../../src/render/output.js';
import { renderRecord, renderTable } from '../../../src/render/table.js';

function fakeOutput(options: { tty: boolean; json?: boolean; color?: boolean; env?: NodeJS.ProcessEnv }) {
  const stdout = Object.assign(new PassThrough(), { isTTY: options.tty });
  let text = '';
  stdout.on('data', (chunk) => (text += chunk));
  const out = new Output({ json: options.json ?? false, color: options.color ?? true, stdout, stderr: new PassThrough(), env: options.env ?? {} });
  return { out, text: () => text };
}

describe('formatRate', () => {
  it('is a percentage of sends with two decimals, and "-" without sends', () => {
    expect(formatRate(983, 1000)).toBe('98.30%');
    expect(formatRate(1, 3)).toBe('33.33%');
    expect(formatRate(0, 0)).toBe('-');
    expect(formatRate(5, 0)).toBe('-');
  });
});

describe('Output', () => {
  it('decides colour from the flag, NO_COLOR, FORCE_COLOR and the terminal', () => {
    expect(fakeOutput({ tty: true }).out.color).toBe(true);
    expect(fakeOutput({ tty: false }).out.color).toBe(false);
    expect(fakeOutput({ tty: true, color: false }).out.color).toBe(false);
    expect(fakeOutput({ tty: true, env: { NO_COLOR: '1' } }).out.color).toBe(false);
    expect(fakeOutput({ tty: false, env: { FORCE_COLOR: '1' } }).out.color).toBe(true);
    expect(fakeOutput({ tty: true, env: { FORCE_COLOR: '0' } }).out.color).toBe(false);
    // A dumb terminal shows escape codes as text; FORCE_COLOR still wins.
    expect(fakeOutput({ tty: true, env: { TERM: 'dumb' } }).out.color).toBe(false);
    expect(fakeOutput({ tty: true, env: { TERM: 'xterm-256color' } }).out.color).toBe(true);
    expect(fakeOutput({ tty: true, env: { TERM: 'dumb', FORCE_COLOR: '1' } }).out.color).toBe(true);
  });

  it('streams a JSON array that reads the same as the whole array', async () => {
    for (const items of [[], [{ a: 1 }], [{ a: [1, { b: 'x\ny' }] }, 'two', null]]) {
      const { out, text } = fakeOutput({ tty: false, json: true });
      const writer = new JsonArrayWriter(out);
      for (const item of items) await writer.add([item]);
      await writer.end();
      expect(text()).toBe(`${formatJson(items)}\n`);
    }
  });
});

describe('renderTable', () => {
  const columns = [{ header: 'ID' }, { header: 'NAME' }];

  it('writes tab-separated rows with a header when not on a terminal, escaping tabs and newlines', () => {
    const { out } = fakeOutput({ tty: false });
    expect(renderTable(out, columns, [['a', 'x\ty\nz']])).toBe('ID\tNAME\na\tx\\ty\\nz\n');
  });

  it('aligns columns on a terminal, and escapes control characters from the API', () => {
    const { out } = fakeOutput({ tty: true, color: false });
    const table = renderTable(out, columns, [['a', 'evil\u001b[2Jname']]);
    expect(table).toBe('ID  NAME\na   evil\\x1b[2Jname\n');
    expect(table).toContain('evil\\x1b[2Jname');
    expect(table).not.toContain('\u001b[2J');
  });

  it('renders a record on a pipe as field and value rows in the API order: text as it is, anything else as JSON', () => {
    const { out } = fakeOutput({ tty: false });
    expect(renderRecord(out, { id: 'x', draft: null, vars: ['a', 'b'], nested: { k: 1 }, count: 3, on: true, note: 'two\tparts' })).toBe(
      'FIELD\tVALUE\nid\tx\ndraft\tnull\nvars\t["a","b"]\nnested\t{"k":1}\ncount\t3\non\ttrue\nnote\ttwo\\tparts\n',
    );
  });
});

describe('workflow labels', () => {
  it('describes waits in words', () => {
    expect(describeNode({ typeName: 'TimerAction', nextNodeIds: [], amount: 2, unit: 'd' })).toBe('wait 2 days');
    expect(describeNode({ typeName: 'TimerAction', nextNodeIds: [], amount: 1, unit: 'h' })).toBe('wait 1 hour');
    expect(describeNode({ typeName: 'TimerAction', nextNodeIds: [], amount: 30, unit: 's' })).toBe('wait 30 seconds');
    expect(describeNode({ typeName: 'TimerAction', nextNodeIds: [], amount: 3, unit: 'w' })).toBe('wait 3 w');
  });

  it('describes known node types by their key fields and unknown ones generically', () => {
    expect(describeNode({ typeName: 'SendEmailAction', nextNodeIds: [], subject: 'Hi' })).toBe('"Hi"');
    expect(describeNode({ typeName: 'EventTrigger', nextNodeIds: [], eventName: 'signup', reEligible: true })).toBe('on event "signup", re-eligible');
    expect(
      describeNode({
        typeName: 'ContactPropertyTrigger',
        nextNodeIds: [],
        reEligible: false,
        contactPropertyQuery: { key: 'plan', was: { value: '', operator: 'any' }, is: { value: 'pro', operator: 'equal' } },
      }),
    ).toBe('when plan was any, is equal "pro"');
    expect(describeNode({ typeName: 'ExperimentBranchNode', nextNodeIds: [], samplingRate: 25, experimentType: 'autosplit' })).toBe(
      'autosplit experiment, 25% sampled',
    );
    // A filter's condition in words, as segments and campaigns write theirs.
    expect(
      describeNode({
        typeName: 'AudienceFilter',
        nextNodeIds: [],
        audienceSegmentId: 'seg_1',
        audienceFilter: {
          match: 'any',
          conditions: [
            { type: 'property', key: 'plan', operator: 'equals', value: 'pro' },
            { type: 'property', key: 'seats', operator: 'greaterThan', value: 5 },
          ],
        },
        appliesDownstream: true,
      }),
    ).toBe('in segment seg_1, where plan equal pro or seats greater than 5, applies downstream');
    expect(describeNode({ typeName: 'BranchNode', nextNodeIds: [], evalStrategy: 'first_match' })).toBe('takes the first path whose filter matches');
    expect(describeNode({ typeName: 'BranchNode', nextNodeIds: [], evalStrategy: 'constructor' })).toBe('evaluate constructor');
    expect(describeNode({ typeName: 'Warp', nextNodeIds: [], speed: 9, nested: { a: 1 } })).toBe('speed=9');
  });
});

describe('renderWorkflowTree', () => {
  it('draws branches with box characters on a terminal and references a loop back', () => {
    const tree = renderWorkflowTree(
      {
        rootNodeId: 'a',
        nodes: {
          a: { typeName: 'SignupTrigger', nextNodeIds: ['b', 'c'] },
          b: { typeName: 'ExitAction', nextNodeIds: [] },
          c: { typeName: 'TimerAction', nextNodeIds: ['a'], amount: 1, unit: 'd' },
        },
      },
      { unicode: true },
    );
    expect(tree).toBe(['SignupTrigger  a', '├─ ExitAction  b', '└─ TimerAction  c  wait 1 day', '   └─ ↻ SignupTrigger a (loops back)', ''].join('\n'));
  });

  it('copes with no trigger and a missing root', () => {
    expect(renderWorkflowTree({ rootNodeId: null, nodes: { x: { typeName: 'ExitAction', nextNodeIds: [] } } }, { unicode: false })).toBe(
      '(no trigger node)\n\nNot reachable from the trigger:\nExitAction  x\n',
    );
    expect(renderWorkflowTree({ rootNodeId: 'gone', nodes: {} }, { unicode: false })).toBe('! gone (missing node)\n');
  });
});

describe('describeFilter', () => {
  it('reads conditions in words, joined by their match', () => {
    expect(
      describeFilter({
        match: 'any',
        conditions: [
          { type: 'property', key: 'plan', operator: 'equal', value: 'pro' },
          { type: 'property', key: 'seats', operator: 'greaterThan', value: 5 },
        ],
      }),
    ).toBe('plan equal pro or seats greater than 5');
    expect(describeFilter(null)).toBe('everyone');
  });
});
