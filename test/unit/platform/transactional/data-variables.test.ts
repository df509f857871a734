import { describe, expect, it } from 'vitest';
import { dataVariableVerdict, leftOut, missingRequiredMessage, requiredIn, unstatedNote } from '../../../../src/platform/transactional/data-variables.js';

const USED = ['firstName', 'resetUrl', 'expiresInMinutes'];

describe('the verdict on a transactional email’s data variables', () => {
  it('calls a variable with a fallback optional, and the rest unstated where the editor’s marks are not known (the API)', () => {
    expect(dataVariableVerdict(USED, { fallbacks: { firstName: 'there', resetUrl: null } })).toEqual({
      required: [],
      optional: ['firstName'],
      unstated: ['resetUrl', 'expiresInMinutes'],
    });
  });

  it('calls the unmarked ones required where the marks are known (the sandbox): nothing is unstated', () => {
    expect(dataVariableVerdict(USED, { fallbacks: { firstName: 'there' }, markedOptional: ['expiresInMinutes'] })).toEqual({
      required: ['resetUrl'],
      optional: ['firstName', 'expiresInMinutes'],
      unstated: [],
    });
  });

  it('takes no fallback from a name the object inherits', () => {
    expect(dataVariableVerdict(['toString'], { fallbacks: {} }).unstated).toEqual(['toString']);
  });

  it('finds what a send leaves out that may matter, null counting as left out and an optional one never', () => {
    const verdict = dataVariableVerdict(USED, { fallbacks: { firstName: 'there' }, markedOptional: [] });
    expect(leftOut(verdict, { resetUrl: null })).toEqual({ required: ['resetUrl', 'expiresInMinutes'], unstated: [] });
    expect(leftOut(verdict, { resetUrl: 'u', expiresInMinutes: 0 })).toEqual({ required: [], unstated: [] });
    const unknown = dataVariableVerdict(USED, {});
    expect(leftOut(unknown, { firstName: '' })).toEqual({ required: [], unstated: ['resetUrl', 'expiresInMinutes'] });
  });

  it('says in one way that the API does not tell', () => {
    expect(unstatedNote(['loginUrl'])).toBe('the API does not say whether loginUrl is optional: a send without it fails unless the email marks it optional');
    expect(unstatedNote(['a', 'b'])).toBe('the API does not say whether a, b are optional: a send without them fails unless the email marks them optional');
  });

  it('reads the variables back from the refusal it words, and from none other', () => {
    expect(missingRequiredMessage(['resetUrl', 'name'])).toBe('Missing required data variable(s): resetUrl, name');
    expect(requiredIn(missingRequiredMessage(['resetUrl', 'name']))).toEqual(['resetUrl', 'name']);
    expect(requiredIn('Transactional email is not published.')).toBeUndefined();
  });
});
