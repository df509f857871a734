/**
 * A contact-property trigger's query, as the sandbox takes it: the description says the API
 * refuses a key the team lacks or a hidden one, and an operator the property's type does not take
 * on that side, with 400; nothing refused is stored.
 */
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../../../src/base/exit-codes.js';
import { run, tempDir } from '../../../support/main.js';

const any = { value: '', operator: 'any' };

describe('the sandbox checks a contact-property trigger query as the API does', () => {
  const env = { LOOPSCTL_CONFIG_DIR: tempDir() };
  const loopsctl = (...args: string[]) => run(['--sandbox', ...args], { env });

  /** The seed's "Upgrade thank-you" workflow and its ContactPropertyTrigger. */
  async function upgradeTrigger(): Promise<{ workflow: string; trigger: string }> {
    const listed = (await loopsctl('workflows', 'list', '--json')).json() as { id: string; name: string }[];
    const workflow = listed.find((candidate) => candidate.name === 'Upgrade thank-you')!.id;
    const graph = (await loopsctl('workflows', 'get', workflow, '--json')).json();
    return { workflow, trigger: graph.rootNodeId };
  }

  it.each([
    ['is: empty on a number property', { key: 'seats', was: any, is: { value: '', operator: 'empty' } }, 'cannot be used with the number property "seats"'],
    [
      'is: equal on a boolean property',
      { key: 'betaOptIn', was: any, is: { value: true, operator: 'equal' } },
      'is not valid for the boolean property "betaOptIn"',
    ],
    ['the key createdAt', { key: 'createdAt', was: any, is: any }, '"createdAt" is not available for Contact Updated triggers'],
    ['a key the team does not have', { key: 'favouriteColour', was: any, is: any }, '"favouriteColour" is not a contact property of the team'],
  ])('refuses %s with 400, storing nothing', async (_what, query, message) => {
    const { workflow, trigger } = await upgradeTrigger();
    const before = (await loopsctl('workflows', 'get', workflow, '--json')).json();
    const refused = await loopsctl('workflow', 'nodes', 'update', workflow, trigger, '--set', `contactPropertyQuery:=${JSON.stringify(query)}`, '--live');
    // The 400 of a request the API refuses as sent.
    expect(refused.code, refused.stdout).toBe(ExitCode.rejected);
    expect(refused.stderr).toContain(message);
    expect((await loopsctl('workflows', 'get', workflow, '--json')).json()).toEqual(before);
  });

  it('takes empty on the was side of a number property, and a string operator on a string property', async () => {
    const { workflow, trigger } = await upgradeTrigger();
    for (const query of [
      { key: 'seats', was: { value: '', operator: 'empty' }, is: { value: 3, operator: 'greater_than' } },
      { key: 'plan', was: { value: 'free', operator: 'equal' }, is: { value: 'pro', operator: 'contains' } },
    ]) {
      const taken = await loopsctl('workflow', 'nodes', 'update', workflow, trigger, '--set', `contactPropertyQuery:=${JSON.stringify(query)}`, '--live');
      expect(taken.code, taken.stderr).toBe(0);
    }
  });
});
