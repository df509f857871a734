import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../../src/base/errors.js';
import { columnTargets, emailColumn, listNames, parseMaps, PRESETS, TypeGuess } from '../../../../src/areas/contacts/mapping.js';

const guess = (...values: string[]) => {
  const types = new TypeGuess();
  for (const value of values) types.add(value);
  return types.type;
};

describe('--map', () => {
  it('reads column=property, an empty property leaving the column out, and a column whose name holds "="', () => {
    expect(parseMaps(['Email Address=email', 'MEMBER_RATING=', 'a=b=plan'])).toEqual(
      new Map([
        ['Email Address', { name: 'email' }],
        ['MEMBER_RATING', { name: undefined }],
        ['a=b', { name: 'plan' }],
      ]),
    );
  });

  it('refuses a column mapped twice, two columns mapped to one property, and a flag without a column, naming them', () => {
    expect(() => parseMaps(['Company=company', 'Company=employer'])).toThrow('--map: the column "Company" is mapped twice');
    expect(() => parseMaps(['Company=company', 'Employer=company'])).toThrow('--map: the columns "Company" and "Employer" are both mapped to company');
    expect(() => parseMaps(['company'])).toThrow(UsageError);
    // Leaving two columns out is no conflict.
    expect(parseMaps(['a=', 'b=']).size).toBe(2);
  });
});

describe('--preset', () => {
  it('maps each provider’s email column to email', () => {
    for (const preset of Object.values(PRESETS)) expect(preset.columns[preset.email]).toBe('email');
  });

  it('maps a preset’s columns, reads its unsubscribed column the other way round, leaves its bookkeeping out, and lets --map win', () => {
    const header = ['id', 'email', 'first_name', 'unsubscribed', 'cio_id', 'plan'];
    expect(columnTargets(header, parseMaps(['first_name=nickname']), 'customerio', 'people.csv')).toEqual([
      { name: 'userId' },
      { name: 'email' },
      { name: 'nickname' },
      { name: 'subscribed', inverted: true },
      { name: undefined },
      undefined,
    ]);
  });

  it('names the email column a preset reads when the file lacks it, and says when none of its columns is there', () => {
    expect(() => columnTargets(['email', 'name'], new Map(), 'mailchimp', 'members.csv')).toThrow(
      /members\.csv: the mailchimp preset reads the email from the column "Email Address", which the file does not have/,
    );
    const hint = (header: string[]) => {
      try {
        columnTargets(header, new Map(), 'sendgrid', 'x.csv');
      } catch (error) {
        return (error as UsageError).hint;
      }
    };
    expect(hint(['foo'])).toBe(
      "none of the preset's columns (EMAIL, FIRST_NAME, LAST_NAME, EXTERNAL_ID) is in the file: is it a sendgrid export?; or map the email column: --map <column>=email",
    );
    expect(hint(['FIRST_NAME', 'mail'])).toBe('it has FIRST_NAME, but no email; or map the email column: --map <column>=email');
    // Mapped by hand instead, the file is taken.
    expect(columnTargets(['mail'], parseMaps(['mail=email']), 'mailchimp', 'x.csv')).toEqual([{ name: 'email' }]);
  });

  it('refuses a --map of a column the header does not have', () => {
    expect(() => columnTargets(['email'], parseMaps(['Company=company']), undefined, 'x.csv')).toThrow(/--map names the column "Company"/);
  });
});

describe('types from the values seen', () => {
  it('takes the narrowest type every non-empty value fits', () => {
    expect(guess('true', 'FALSE', '')).toBe('boolean');
    expect(guess('3', '4.5', '-1e3')).toBe('number');
    expect(guess('2024-01-05', '2024-02-01T10:00:00Z')).toBe('date');
    expect(guess('2024-01-05', 'soon')).toBe('string');
    expect(guess('1', 'true')).toBe('string');
    expect(guess('2024-13-45')).toBe('string');
    expect(guess('', ' ')).toBe('string');
  });
});

describe('lists and suppression files', () => {
  it('splits a lists cell on ; and ,', () => {
    expect(listNames('Product updates; Beta testers,, abc ')).toEqual(['Product updates', 'Beta testers', 'abc']);
  });

  it('finds a suppression file’s email column by its common names', () => {
    expect(emailColumn(['reason', 'Email Address'])).toBe(1);
    expect(emailColumn(['EmailAddress', 'SuppressionReason'])).toBe(0);
    expect(emailColumn(['created', 'email'])).toBe(1);
    expect(emailColumn(['address', 'code'])).toBe(0);
    expect(emailColumn(['who', 'when'])).toBe(-1);
  });
});
