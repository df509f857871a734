/**
 * The attack suite on the options that are a person's yes and no command attack gives (roads.ts,
 * YES_OPTIONS): a campaign's schedule at its update, and the publish of a content push. Given at a
 * terminal, the option is the yes, and the call goes; given by a tool of `loopsctl mcp`, it is
 * refused on the write tier and asked of the person on the destructive one, where a refusal
 * leaves the account as it was and an approval lets the call through (a push that publishes is
 * refused there outright: the person approves its drafts, then each publish).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Arena, arenaForFile, expectRefused, expectThrough } from './arena.js';
import { inputOf, writeCommands } from './roads.js';

const arena = arenaForFile();
const SCHEDULE = '2031-01-06T09:00:00Z';
let trees = 0;

/**
 * Each road of the option: refused on the write tier, and on the destructive tier when the person
 * declines (or, `refusedThere`, always, with those words); through when they approve, and at a
 * terminal.
 */
async function walk(
  ground: Arena,
  option: string,
  cli: () => Promise<string[]>,
  tool: { name: string; input: () => Promise<Record<string, unknown>>; refusedThere?: RegExp },
  operation: string,
  record: string,
): Promise<void> {
  for (const [tier, answer] of [
    ['write', 'decline'],
    ['destructive', 'decline'],
  ] as const) {
    ground.answer = answer;
    ground.set();
    const input = await tool.input();
    const before = ground.state();
    const words = tier === 'destructive' ? tool.refusedThere : undefined;
    expectRefused(ground, await ground.tool(tier, tool.name, input), before, `${option}: ${tool.name} on the ${tier} tier, ${answer}d`, words);
  }
  if (tool.refusedThere === undefined) {
    ground.answer = 'accept';
    ground.set();
    expectThrough(await ground.tool('destructive', tool.name, await tool.input()), operation, record, `${option}: ${tool.name}, approved`);
    ground.answer = 'decline';
  }
  ground.set();
  expectThrough(await ground.cli(await cli()), operation, record, `${option}: at a terminal`);
  ground.set();
}

/** A pulled tree of the transactional emails whose Password reset draft has a paragraph more. */
async function editedTree(ground: Arena): Promise<string> {
  const tree = join(ground.root, `tree-${++trees}`);
  const pull = await ground.cli(['content', 'pull', tree, '--only', 'transactional']);
  expect(pull.code, pull.message).toBe(0);
  const draft = join(tree, 'transactional', `password-reset--${ground.ids().transactional}`, 'draft.lmx');
  writeFileSync(draft, readFileSync(draft, 'utf8').replace('</Paragraph>', ' Thanks.</Paragraph>'));
  return tree;
}

describe("the options that are a person's yes", () => {
  it('campaigns update --schedule', async () => {
    const ground = arena();
    const { campaign } = ground.ids();
    await walk(
      ground,
      'campaigns update --schedule',
      async () => ['campaigns', 'update', campaign, '--schedule', SCHEDULE],
      { name: 'campaigns_update', input: async () => inputOf(writeCommands().get('campaigns update')!, [campaign, '--schedule', SCHEDULE], ground.root) },
      'updateCampaign',
      campaign,
    );
  });

  it('content push --publish', async () => {
    const ground = arena();
    const { transactional } = ground.ids();
    // A tree pulled anew for each attempt: the account is set back to the seed's before each.
    await walk(
      ground,
      'content push --publish',
      async () => ['content', 'push', await editedTree(ground), '--publish'],
      {
        name: 'content_push',
        input: async () => ({ dir: relative(ground.root, await editedTree(ground)), publish: true }),
        // Two changes, the drafts and then each publish, which a person approves one by one: never one tool call.
        refusedThere: /a push that publishes is two changes for a person to approve/,
      },
      'publishTransactionalEmail',
      transactional,
    );
  });
});
