/** What the pre-send QA rules find in one email, and the rules they are found by. */
import type { LmxPosition } from '../problems.js';

export type QaSeverity = 'error' | 'warning' | 'info';

/**
 * The offline QA rules, by name: each with its severity, what it catches, and, for spam rules, the
 * points it adds to the email's spam score (a trigger phrase for each phrase, at most three).
 */
export const QA_RULES = {
  'low-contrast': { severity: 'warning', summary: 'text or a button label under WCAG 2.1 contrast (4.5:1, 3:1 for large text) against its background' },
  'heading-order': { severity: 'warning', summary: 'a heading that skips a level (an H1 followed by an H3)' },
  'vague-link-text': { severity: 'warning', summary: 'link or button text that says nothing alone ("click here", "read more")' },
  'small-text': { severity: 'warning', summary: 'text under 12 px' },
  'image-without-alt': { severity: 'warning', summary: 'an image without alt text (decorative images are marked alt="")' },
  'image-alt-unhelpful': { severity: 'warning', summary: 'an image whose alt text is a file name or a word such as "image"' },
  'spam-subject-capitals': { severity: 'info', score: 1.5, summary: 'spam risk: half or more of the subject in capitals' },
  'spam-punctuation': { severity: 'info', score: 1.5, summary: 'spam risk: runs such as "!!!" or "$$$" in the subject or the text' },
  'spam-url-shortener': { severity: 'info', score: 2, summary: 'spam risk: a link through a URL shortener (bit.ly, tinyurl.com…)' },
  'spam-image-only': { severity: 'info', score: 2.5, summary: 'spam risk: an email that is one image, or images and under 50 characters of text' },
  'spam-mostly-images': { severity: 'info', score: 1, summary: 'spam risk: an email that is mostly images (two or more, under 100 characters of text each)' },
  'spam-text-part-short': { severity: 'info', score: 1, summary: 'spam risk: a text part much shorter than the HTML (under 1% of HTML over 10 KB)' },
  'spam-trigger-phrase': { severity: 'info', score: 1, summary: 'spam risk: phrases spam filters score ("act now", "100% free")' },
  'spam-score': { severity: 'warning', summary: "the spam rules' total for an email at or over the threshold (5 unless the rules file sets spamScore)" },
} as const satisfies Record<string, { severity: QaSeverity; summary: string; score?: number }>;

export type QaRuleName = keyof typeof QA_RULES;

export interface QaFinding {
  rule: QaRuleName;
  severity: QaSeverity;
  /** What is wrong, without where (the caller names the email and file). */
  message: string;
  fix: string;
  /** Where in the LMX, when the finding is about one place of it (not the subject, not the email as a whole). */
  position?: LmxPosition;
  /** A spam rule's points. */
  score?: number;
}

/** A finding of a rule; a spam rule's carries the rule's points unless `score` says otherwise. */
export function finding(rule: QaRuleName, message: string, fix: string, position?: LmxPosition, score?: number): QaFinding {
  const spec: { severity: QaSeverity; score?: number } = QA_RULES[rule];
  const points = score ?? spec.score;
  return {
    rule,
    severity: QA_RULES[rule].severity,
    message,
    fix,
    ...(position === undefined ? {} : { position }),
    ...(points === undefined ? {} : { score: points }),
  };
}
