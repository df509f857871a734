/**
 * What a person reads of a workflow: the tree on a narrow terminal (labels wrap under their node,
 * ids never cut), conditions of branches and audience filters in words in every drawing, a node's
 * filter in words, emoji only with colour, and hints that name the command to run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxServer } from '../../../../src/emulator/server.js';
import { run, sandboxEnv, startTestSandbox } from '../../../support/main.js';
import { SEED_IDS } from '../../../support/sandbox.js';

const TRIAL = SEED_IDS.trialWorkflow;
const ACTIVATED = 'co85hlls9n60qzmbmdtdh561h';
const BRANCH = 'cvxrxvoz3umcxj5nj73mfj9vi';

let sandbox: SandboxServer;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

const loopsctl = (args: string[], options: Parameters<typeof run>[1] = {}) => run(args, { ...options, env: { ...sandboxEnv(sandbox), ...options.env } });

/** The workflow's node ids and its send-email nodes' email message ids, from its JSON. */
async function idsOf(id: string): Promise<{ nodes: string[]; emails: string[] }> {
  const workflow = (await loopsctl(['workflow', 'show', id, '--json'])).json();
  const nodes = Object.keys(workflow.nodes);
  const emails = Object.values(workflow.nodes as Record<string, { emailMessageId?: string }>).flatMap((node) =>
    node.emailMessageId ? [node.emailMessageId] : [],
  );
  return { nodes, emails };
}

describe('workflow show on a terminal', () => {
  it.each([60, 80])('fits %i columns without cutting an id or dropping an email message id', async (columns) => {
    const { nodes, emails } = await idsOf(TRIAL);
    const result = await loopsctl(['workflow', 'show', TRIAL, '--no-color'], { tty: { columns } });
    expect(result.code).toBe(0);
    for (const line of result.stdout.trimEnd().split('\n')) expect([...line].length, line).toBeLessThanOrEqual(columns);
    const words = new Set(result.stdout.split(/[\s"[\],]+/));
    for (const id of [...nodes, ...emails]) expect(words.has(id), id).toBe(true);
  });

  it('keeps the tree lines beside a label that goes on under its node', async () => {
    const result = await loopsctl(['workflow', 'show', TRIAL, '--no-color'], { tty: { columns: 60 } });
    // The branch's first path continues under its label, and the line down to its child runs beside it.
    expect(result.stdout).toMatch(new RegExp(`├─ AudienceFilter  ${ACTIVATED}  where\\n      │  │  projectsCreated greater than 0, applies\\n`));
  });
});

describe('conditions in words', () => {
  it('in the tree, Mermaid and DOT: a branch says how it chooses, a filter its condition', async () => {
    const tree = await loopsctl(['workflow', 'show', TRIAL]);
    expect(tree.stdout).toContain(`BranchNode  ${BRANCH}  takes the first path whose filter matches`);
    expect(tree.stdout).toContain(`AudienceFilter  ${ACTIVATED}  where projectsCreated greater than 0, applies downstream`);
    const mermaid = await loopsctl(['workflow', 'show', TRIAL, '--format', 'mermaid']);
    expect(mermaid.stdout).toContain('["AudienceFilter<br/>where projectsCreated equal 0, applies downstream"]');
    expect(mermaid.stdout).toContain('{{"BranchNode<br/>takes the first path whose filter matches"}}');
    const dot = await loopsctl(['workflow', 'show', TRIAL, '--format', 'dot']);
    expect(dot.stdout).toContain('label="AudienceFilter\\nwhere projectsCreated greater than 0, applies downstream"');
  });

  it('in a node shown in full', async () => {
    // On a terminal, in words.
    const node = await loopsctl(['workflow', 'nodes', 'get', TRIAL, ACTIVATED], { env: { NO_COLOR: '1' }, tty: { columns: 100 } });
    expect(node.stdout).toMatch(/\naudienceFilter +projectsCreated greater than 0\n/);
    expect(node.stdout).not.toContain('"conditions"');
    const asJson = await loopsctl(['workflow', 'nodes', 'get', TRIAL, ACTIVATED, '--json']);
    expect(asJson.json().audienceFilter.conditions).toHaveLength(1);
    // Piped, as every piped record: the filter as the API sent it, JSON in one cell.
    const piped = await loopsctl(['workflow', 'nodes', 'get', TRIAL, ACTIVATED]);
    expect(piped.stdout).toContain(`\naudienceFilter\t${JSON.stringify(asJson.json().audienceFilter)}\n`);
  });
});

describe('the header', () => {
  it('has the emoji only where there is colour or a terminal', async () => {
    const piped = await loopsctl(['workflow', 'show', TRIAL]);
    expect(piped.stdout.split('\n')[0]).toBe('Trial conversion');
    const coloured = await loopsctl(['workflow', 'show', TRIAL], { env: { FORCE_COLOR: '1' } });
    expect(coloured.stdout).toContain('🚀');
    const terminal = await loopsctl(['workflow', 'show', TRIAL, '--no-color'], { tty: { columns: 80 } });
    expect(terminal.stdout.split('\n')[0]).toBe('🚀 Trial conversion');
  });
});

describe('an unknown node', () => {
  it('points to the workflow tree that names its nodes', async () => {
    for (const args of [
      ['workflow', 'show', TRIAL, '--node', 'cnosuchnode00000000000000'],
      ['workflow', 'nodes', 'get', TRIAL, 'cnosuchnode00000000000000'],
    ]) {
      const result = await loopsctl(args);
      expect(result.code, args.join(' ')).toBe(4);
      expect(result.stderr).toContain(`Hint: see the workflow's nodes with \`loopsctl workflow show ${TRIAL}\``);
    }
  });
});
