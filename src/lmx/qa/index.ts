/**
 * Pre-send QA of one email, offline: accessibility (contrast, heading order, link text, text size,
 * alt text) and spam risk (a scored rule set and its total), each finding with what is wrong, the
 * fix and, where it is about one place, its line and column in the LMX. `check`, `content check` and
 * any command that shows an email read the same findings from here.
 */
import { type LmxDocument, parseLmx } from '../parse.js';
import { renderLmx } from '../render/index.js';
import { elementsOf } from '../tree.js';
import { accessibilityFindings } from './accessibility.js';
import { embedComponents } from './embed.js';
import { finding, QA_RULES, type QaFinding } from './finding.js';
import { DEFAULT_SPAM_THRESHOLD, spamFindings } from './spam.js';

export { contrastRatio, minimumContrast, over, parseHex } from './contrast.js';
export { type Embedded, embedComponents } from './embed.js';
export { finding, QA_IMPACTS, QA_RULES, type QaFinding, type QaImpact, type QaRuleName, type QaSeverity, reaches } from './finding.js';
export { DEFAULT_SPAM_THRESHOLD, TRIGGER_PHRASES, textOfDocument, URL_SHORTENERS } from './spam.js';

export interface QaInput {
  document: LmxDocument;
  subject: string;
  /** The Theme record's styles the email is drawn with; the platform's default theme without. */
  theme?: Readonly<Record<string, unknown>>;
  /** The size of the HTML it renders to, in bytes. */
  htmlBytes: number;
  /** The rules file's spamScore: a total at or over it is an error. Without one, a total at or over 5 is a warning. */
  spamThreshold?: number;
  /** The components its `<Component>` tags may name, parsed, by id: their text, links and images are the email's. */
  components?: ReadonlyMap<string, LmxDocument>;
}

/**
 * Every offline QA finding of an email, its components' content judged as part of it (a finding
 * there is at the `<Component>` tag, and names the component), the spam total last when it reaches
 * the threshold.
 */
export function qaFindings(input: QaInput): QaFinding[] {
  const { document, embeddedIn } = embedComponents(input.document, input.components);
  const elements = [...elementsOf(document)];
  const spam = spamFindings({ subject: input.subject, document, elements, htmlBytes: input.htmlBytes });
  const found = [...accessibilityFindings(document, input.theme, elements), ...spam.findings].map((each) => {
    const component = each.position === undefined ? undefined : embeddedIn.get(each.position);
    return component === undefined ? each : { ...each, message: `${each.message} (in the component ${component})` };
  });
  const threshold = input.spamThreshold ?? DEFAULT_SPAM_THRESHOLD;
  if (spam.total >= threshold) {
    const parts = spam.findings.map((each) => `${each.rule} ${each.score}`).join(', ');
    const total = finding(
      'spam-score',
      `spam score ${spam.total} (${parts}), at or over ${threshold}`,
      `fix the spam rules' findings above until the score is under ${threshold}`,
    );
    found.push(input.spamThreshold === undefined ? total : { ...total, severity: 'error' });
  }
  return found;
}

export interface EmailForQa {
  lmx: string;
  subject: string;
  previewText?: string;
  theme?: Readonly<Record<string, unknown>>;
  /** The components its `<Component>` tags may name, parsed, by id. */
  components?: ReadonlyMap<string, LmxDocument>;
  spamThreshold?: number;
}

/** An email's LMX parsed and rendered as `content render` does, then checked: what `content review` and `content preview` may show. */
export function checkEmailQa(email: EmailForQa): QaFinding[] {
  const { document } = parseLmx(email.lmx);
  const { html } = renderLmx(document, { theme: email.theme, components: email.components, subject: email.subject, previewText: email.previewText });
  const { subject, theme, components, spamThreshold } = email;
  return qaFindings({ document, subject, theme, htmlBytes: Buffer.byteLength(html), spamThreshold, components });
}

/** The QA rules' names, for a rules file and --only. */
export const QA_RULE_NAMES = Object.keys(QA_RULES) as (keyof typeof QA_RULES)[];
