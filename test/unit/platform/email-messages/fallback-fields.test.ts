/** The fallback fields, declared once: the message, a tree's fields file and the parser's hint all name them alike. */
import { describe, expect, it } from 'vitest';
import { messageFields } from '../../../../src/areas/content/message-fields.js';
import { parseLmx } from '../../../../src/lmx/index.js';
import { emailMessage, FALLBACK_FIELD_NAMES, FALLBACK_FIELDS } from '../../../../src/platform/email-messages/schemas.js';

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
});
