import { describe, expect, it } from 'vitest';
import { behaviours } from '../../../src/areas/behaviours.js';
import { specs } from '../../../src/areas/registry.js';
import { pickedArgument, walkSpecs } from '../../../src/core/declare.js';
import { ID_LISTS, LIST_COMMANDS } from '../../../src/core/id-lists.js';

describe('what can be picked', () => {
  const commands = walkSpecs(specs);

  it('is listed by a list command whose behaviour carries its records and columns, at the list’s path', async () => {
    for (const [list, words] of Object.entries(LIST_COMMANDS)) {
      const found = commands.find(({ path }) => path.join(' ') === words.join(' '));
      expect(found, list).toBeDefined();
      const listing = (await found!.spec.load(async () => specs, behaviours)).listing;
      expect(listing?.resource.path, list).toBe(ID_LISTS[list as keyof typeof ID_LISTS]);
    }
  });

  it('is offered by every command that takes one record of a listable kind, with --pick, which no tool call can give', () => {
    const picking = commands.filter(({ spec }) => pickedArgument(spec) !== undefined).map(({ path }) => path.join(' '));
    for (const name of [
      'themes get',
      'themes update',
      'workflow show',
      'transactional metrics',
      'campaigns get',
      'components get',
      'segments get',
      'groups update',
    ]) {
      expect(picking).toContain(name);
    }
    // A workflow's node is named after it: the workflow cannot be left out alone.
    expect(picking).not.toContain('workflow node delete');
    for (const { spec } of commands.filter(({ spec }) => pickedArgument(spec) !== undefined)) {
      expect(spec.options?.find((option) => option.flags === '--pick')?.personOnly).toBe(true);
    }
  });
});
