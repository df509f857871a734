/** A sandbox's fixtures (src/emulator/fixtures.ts), checked before any record is made: every problem named by its field. */
import { describe, expect, it } from 'vitest';
import { checkFixtures, FixtureError } from '../../../src/emulator/fixtures.js';
import { seedState } from '../../support/sandbox.js';

function problemsOf(fixtures: unknown): string[] {
  try {
    checkFixtures(fixtures, 'fixtures.json', seedState());
  } catch (error) {
    expect(error).toBeInstanceOf(FixtureError);
    return (error as FixtureError).problems;
  }
  return [];
}

describe('the fixtures', () => {
  // An id is a segment of the routes' paths (/v1/lists/<id>): one with a slash, a space or nothing
  // in it could never be asked for.
  it('refuse an id the API would never issue, in every kind of record that can be given one', () => {
    const bad = { id: 'lists/../beta testers', name: 'Beta' };
    expect(
      problemsOf({
        contacts: [{ id: '', email: 'ada@example.com' }],
        mailingLists: [bad],
        transactionalEmails: [{ ...bad, lmx: '<Paragraph>Hi</Paragraph>' }],
        workflows: [{ id: 'x'.repeat(129), name: 'Welcome', eventName: 'signup' }],
      }),
    ).toEqual([
      'contacts[0].id: an id is 1 to 128 letters, digits, _ and -',
      'mailingLists[0].id: an id is 1 to 128 letters, digits, _ and -',
      'transactionalEmails[0].id: an id is 1 to 128 letters, digits, _ and -',
      'workflows[0].id: an id is 1 to 128 letters, digits, _ and -',
    ]);
  });

  it('refuse an empty userId and an empty name, as they refuse an empty id', () => {
    expect(
      problemsOf({
        contacts: [{ email: 'ada@example.com', userId: '' }],
        mailingLists: [{ id: 'list_beta', name: '' }],
      }),
    ).toEqual([expect.stringMatching(/^contacts\[0\]\.userId: /), 'mailingLists[0].name: must not be empty']);
  });

  it('take ids of letters, digits, _ and -', () => {
    expect(problemsOf({ mailingLists: [{ id: 'list_beta-2', name: 'Beta' }] })).toEqual([]);
  });
});
