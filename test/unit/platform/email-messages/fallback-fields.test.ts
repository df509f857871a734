/**
 * The fallback fields, declared once (platform/email-messages/fallbacks.ts): the message, a tree's
 * fields file and the parser's hint all name them alike, and every reader of a message's fallbacks
 * by the namespace of their variables takes them through fallbacksOf.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { messageFields } from '../../../../src/areas/content/shared/message-fields.js';
import { parseLmx, validateLmx } from '../../../../src/lmx/index.js';
import { fallbacksOf } from '../../../../src/platform/email-messages/fallbacks.js';
import { emailMessage, FALLBACK_FIELD_NAMES, FALLBACK_FIELDS } from '../../../../src/platform/email-messages/schemas.js';

const root = join(import.meta.dirname, '../../../..');
/** Every source file, by its path in the repository. */
const sourceFiles = () =>
  readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|mts|mjs)$/.test(file))
    .map((file) => join(root, 'src', file));

describe('the fallback fields', () => {
  it('are the three the description names, one per kind of variable', () => {
    expect(FALLBACK_FIELDS).toEqual({ contact: 'contactPropertiesFallbacks', event: 'eventPropertiesFallbacks', data: 'dataVariablesFallbacks' });
  });

  it('are what a message and a fields file hold', () => {
    for (const field of FALLBACK_FIELD_NAMES) {
      expect(Object.keys(emailMessage.shape)).toContain(field);
      expect(messageFields.safeParse({ [field]: { firstName: 'there' } }).success).toBe(true);
    }
    expect(messageFields.safeParse({ contactPropertyFallbacks: { firstName: 'there' } }).success).toBe(false);
  });

  it('are what the parser names when an inline fallback is written', () => {
    for (const [namespace, field] of Object.entries(FALLBACK_FIELDS)) {
      const problems = parseLmx(`<Paragraph>Hi {${namespace}.firstName|there}</Paragraph>`).problems;
      expect(problems.map((problem) => problem.fix).join('\n')).toContain(field);
    }
  });

  it('are what the validator names when a fallback attribute is written', () => {
    const problems = validateLmx(parseLmx('<Paragraph fallback="there">Hi {contact.firstName}</Paragraph>').document);
    expect(problems.map((problem) => problem.fix)).toContain(
      `LMX has no fallbacks: set them on the email message (${FALLBACK_FIELDS.contact}, ${FALLBACK_FIELDS.event})`,
    );
  });

  it('are read by namespace through fallbacksOf, which leaves out a field the message does not hold', () => {
    expect(fallbacksOf({ contactPropertiesFallbacks: { firstName: 'there' }, dataVariablesFallbacks: {}, subject: 'Hi' })).toEqual({
      contact: { firstName: 'there' },
      data: {},
    });
  });

  it('are mapped to their namespaces in fallbacks.ts alone', () => {
    // A namespace given a fallback field by hand (`contact: message.contactPropertiesFallbacks`) is the mapping written again.
    const again = new RegExp(`\\b(${Object.keys(FALLBACK_FIELDS).join('|')})\\s*:\\s*[\\w.?']*\\b(${FALLBACK_FIELD_NAMES.join('|')})\\b`);
    const mapped = sourceFiles()
      .filter((file) => again.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    expect(mapped).toEqual(['src/platform/email-messages/fallbacks.ts']);
  });
});
