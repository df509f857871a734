/** What the pre-send QA rules find in one email, and the rules they are found by. */
import type { LmxPosition } from '../problems.js';

export type QaSeverity = 'error' | 'warning' | 'info';

/**
 * How much an accessibility defect costs a recipient, in the levels Parcel's accessibility checker
 * and the Email Markup Consortium's reports use, worst first: critical (content some cannot reach
 * at all), serious, moderate, mild. The field's usual line for failing an email is serious.
 */
export const QA_IMPACTS = ['critical', 'serious', 'moderate', 'mild'] as const;
export type QaImpact = (typeof QA_IMPACTS)[number];

/** Whether an impact is at `line` or worse. */
export const reaches = (impact: QaImpact, line: QaImpact): boolean => QA_IMPACTS.indexOf(impact) <= QA_IMPACTS.indexOf(line);

/** A finding's severity, and an accessibility finding's impact beside it: `warning (serious)`. */
export const graded = ({ severity, impact }: { severity: string; impact?: QaImpact }): string => `${severity}${impact === undefined ? '' : ` (${impact})`}`;

/** Findings counted by impact, worst first: `0 critical, 1 serious, 2 moderate, 0 mild`. */
export const impactCounts = (found: readonly { impact?: QaImpact }[]): string =>
  QA_IMPACTS.map((impact) => `${found.filter((each) => each.impact === impact).length} ${impact}`).join(', ');

/**
 * The offline QA rules, by name, each declared once: its severity in a report, what it catches,
 * for an accessibility rule its impact, and, for spam rules, the points it adds to the email's spam
 * score (a trigger phrase for each phrase, at most three). The rules marked `html` are judged on an
 * email's HTML only (`content check --html`): the LMX renderer writes what they ask for itself. The
 * rules file names any of them to raise, lower or turn it off, LMX's and HTML's alike.
 */
export const QA_RULES = {
  'image-without-alt': { severity: 'warning', impact: 'critical', summary: 'an image without alt text (decorative images are marked alt="")' },
  'image-linked-empty-alt': { severity: 'warning', impact: 'critical', summary: 'a linked image with alt="" and no other text: the link says nothing' },
  'lang-missing': { severity: 'warning', impact: 'serious', html: true, summary: "no lang on the document, or on one of the body's first children" },
  'dir-missing': { severity: 'warning', impact: 'serious', html: true, summary: "no dir on the document, or on one of the body's first children" },
  'layout-table-role': { severity: 'warning', impact: 'serious', html: true, summary: 'a layout table (no <th>, no <caption>) without role="presentation"' },
  'link-without-text': { severity: 'warning', impact: 'serious', summary: 'a link or button with no text a screen reader can say' },
  'title-missing': { severity: 'warning', impact: 'serious', html: true, summary: "no <title> of the email's own" },
  'no-html-part': { severity: 'warning', html: true, summary: 'a saved message (.eml) with no HTML part: nothing to judge' },
  'low-contrast': {
    severity: 'warning',
    impact: 'serious',
    summary: 'text or a button label under WCAG 2.1 contrast (4.5:1, 3:1 for large text) against its background',
  },
  'language-code-missing': {
    severity: 'warning',
    impact: 'serious',
    summary: 'the message has no languageCode (or the HTML no lang) to tell clients and screen readers its language',
  },
  'language-mismatch': { severity: 'warning', impact: 'moderate', summary: 'the languageCode (or lang) is not the language the text is written in' },
  'vague-link-text': { severity: 'warning', impact: 'moderate', summary: 'link or button text that says nothing alone ("click here", "read more")' },
  'image-alt-unhelpful': { severity: 'warning', impact: 'moderate', summary: 'an image whose alt text is a file name or a word such as "image"' },
  'small-text': { severity: 'warning', impact: 'mild', summary: 'text under 12 px' },
  'heading-order': { severity: 'warning', impact: 'mild', summary: 'a heading that skips a level (an H1 followed by an H3)' },
  'heading-one-h1': { severity: 'warning', impact: 'mild', summary: 'headings without one H1 to lead them: none, or several' },
  'spam-subject-capitals': { severity: 'info', score: 1.5, summary: 'spam risk: half or more of the subject in capitals' },
  'spam-punctuation': { severity: 'info', score: 1.5, summary: 'spam risk: runs such as "!!!" or "$$$" in the subject or the text' },
  'spam-url-shortener': { severity: 'info', score: 2, summary: 'spam risk: a link through a URL shortener (bit.ly, tinyurl.com…)' },
  'spam-image-only': { severity: 'info', score: 2.5, summary: 'spam risk: an email that is one image, or images and under 50 characters of text' },
  'spam-mostly-images': { severity: 'info', score: 1, summary: 'spam risk: an email that is mostly images (two or more, under 100 characters of text each)' },
  'spam-text-part-short': { severity: 'info', score: 1, summary: 'spam risk: a text part much shorter than the HTML (under 1% of HTML over 10 KB)' },
  'spam-trigger-phrase': { severity: 'info', score: 1, summary: 'spam risk: phrases spam filters score ("act now", "100% free")' },
  'spam-score': { severity: 'warning', summary: "the spam rules' total for an email at or over the threshold (5 unless the rules file sets spamScore)" },
} as const satisfies Record<string, { severity: QaSeverity; summary: string; score?: number; impact?: QaImpact; html?: true }>;

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
  /** An accessibility rule's impact. */
  impact?: QaImpact;
}

/** A finding of a rule; a spam rule's carries the rule's points unless `score` says otherwise. */
export function finding(rule: QaRuleName, message: string, fix: string, position?: LmxPosition, score?: number): QaFinding {
  const spec: { severity: QaSeverity; score?: number; impact?: QaImpact } = QA_RULES[rule];
  const points = score ?? spec.score;
  return {
    rule,
    severity: spec.severity,
    message,
    fix,
    ...(position === undefined ? {} : { position }),
    ...(points === undefined ? {} : { score: points }),
    ...(spec.impact === undefined ? {} : { impact: spec.impact }),
  };
}
