import { describe, expect, it } from 'vitest';
import { targetName } from '../../../../src/areas/contacts/import-plan.js';
import { columnTargets, emailColumn, listNames, PRESETS, parseMaps, presetEmailColumns, TypeGuess } from '../../../../src/areas/contacts/mapping.js';
import { UsageError } from '../../../../src/base/errors.js';

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
    for (const preset of Object.values(PRESETS)) expect(presetEmailColumns(preset).length).toBeGreaterThan(0);
  });

  it('reads a preset’s columns whatever their case and separators: an export’s and an import template’s alike', () => {
    const targets = (header: string[], preset: 'sendgrid' | 'mailchimp' | 'brevo') => columnTargets(header, new Map(), preset, 'x.csv');
    // SendGrid's export writes EMAIL, FIRST_NAME; its import template email, first_name.
    expect(targets(['EMAIL', 'FIRST_NAME', 'CONTACT_ID'], 'sendgrid')).toEqual([{ name: 'email' }, { name: 'firstName' }, { name: undefined }]);
    expect(targets(['email', 'first_name', 'external_id', 'city'], 'sendgrid')).toEqual([
      { name: 'email' },
      { name: 'firstName' },
      { name: 'userId' },
      undefined,
    ]);
    expect(targets(['email_address', 'first-name', 'LAST NAME'], 'mailchimp')).toEqual([{ name: 'email' }, { name: 'firstName' }, { name: 'lastName' }]);
    expect(targets(['email', 'firstname', 'ADDED_TIME'], 'brevo')).toEqual([{ name: 'email' }, { name: 'firstName' }, { name: undefined }]);
  });

  it('reads a column no preset names by its own name, made camelCase where it has separators', () => {
    expect(['loyalty_tier', 'loyalty-tier', 'Loyalty Tier', 'LOYALTY_TIER', 'loyaltyTier', 'plan'].map((column) => targetName(column, undefined))).toEqual([
      'loyaltyTier',
      'loyaltyTier',
      'loyaltyTier',
      'loyaltyTier',
      'loyaltyTier',
      'plan',
    ]);
    // One word keeps its case: a property's name counts case, and the refusal names the property meant.
    expect(['Plan', 'PLAN', '_plan'].map((column) => targetName(column, undefined))).toEqual(['Plan', 'PLAN', '_plan']);
    // In a provider's export, one word is its spelling of a name: SendGrid's CITY, Brevo's SMS.
    expect(['CITY', 'SMS', 'Birthday'].map((column) => targetName(column, undefined, true))).toEqual(['city', 'sms', 'birthday']);
    // A standard field in another spelling is that field.
    expect(['first_name', 'EMAIL', 'user-id'].map((column) => targetName(column, undefined))).toEqual(['firstName', 'email', 'userId']);
    expect(targetName('company', { name: 'employer' })).toBe('employer');
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
      /members\.csv: the mailchimp preset reads the email from the column "Email Address" \(in any case\), which the file does not have/,
    );
    const hint = (header: string[]) => {
      try {
        columnTargets(header, new Map(), 'sendgrid', 'x.csv');
      } catch (error) {
        return (error as UsageError).hint;
      }
    };
    expect(hint(['foo'])).toBe(
      "none of the preset's columns (email, first_name, last_name, external_id) is in the file: is it a sendgrid export?; or map the email column: --map <column>=email",
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
    // A phone number or a code with a leading zero is text, which a number would lose.
    expect(guess('+15551234567', '02139')).toBe('string');
  });

  it('says where a column’s values are of two kinds, with the first line and value of each', () => {
    const types = new TypeGuess();
    for (const [value, line] of [
      ['3', 2],
      ['', 3],
      ['4', 4],
      ['gold', 5],
      ['silver', 6],
    ] as const)
      types.add(value, line);
    expect(types.mixed).toEqual([
      { kind: 'numbers', line: 2, value: '3' },
      { kind: 'text', line: 5, value: 'gold' },
    ]);
    const one = new TypeGuess();
    one.add('gold', 2);
    one.add('silver', 3);
    expect(one.mixed).toBeUndefined();
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
