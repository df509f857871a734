import { describe, expect, it } from 'vitest';
import { withArticle } from '../../../src/platform/words.js';

describe('withArticle', () => {
  it('takes "an" before a vowel, whatever its case, and "a" before anything else', () => {
    expect(withArticle('ExitAction')).toBe('an ExitAction');
    expect(withArticle('AudienceFilter')).toBe('an AudienceFilter');
    expect(withArticle('ExperimentBranchNode')).toBe('an ExperimentBranchNode');
    expect(withArticle('SendEmailAction')).toBe('a SendEmailAction');
    expect(withArticle('TimerAction')).toBe('a TimerAction');
  });
});
