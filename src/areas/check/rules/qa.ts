/**
 * The qa family: what a recipient meets in each email that can be sent. Offline, accessibility and
 * spam risk, from the email's LMX drawn with its theme (src/lmx/qa/); with --links (or --only qa),
 * its links and images fetched (../links/), whose findings the run hands in on the account.
 */
import { QA_RULES, qaFindings, textOfDocument } from '../../../lmx/qa/index.js';
import { languageFindings } from '../../../lmx/qa/language.js';
import { renderedEmails, whichEmail } from '../emails.js';
import { LINK_RULES } from '../links/rules.js';
import { type Problem, problem } from '../records.js';
import { declareRules, type RuleFamily } from './rule.js';

/**
 * Every qa rule, in the one rule book the rules file rules: those of HTML alone (`lang`, layout
 * tables' role…) are judged by `content check --html` only, the renderer answering for them in an
 * account's LMX, and are named here so that the rules file raises, lowers or turns them off too.
 */
const { rules } = declareRules('qa', {
  ...(Object.fromEntries(Object.entries(QA_RULES).map(([name, { severity, summary }]) => [name, { severity, summary }])) as Record<
    keyof typeof QA_RULES,
    { severity: 'error' | 'warning' | 'info'; summary: string }
  >),
  ...LINK_RULES,
});

export const qa: RuleFamily = {
  family: 'qa',
  rules,
  check(account, expected) {
    const offline = renderedEmails(account).flatMap(({ checked, document, theme, html, components }) =>
      [
        ...qaFindings({ document, subject: checked.message.subject, theme, htmlBytes: Buffer.byteLength(html), spamThreshold: expected.spamScore, components }),
        // The message's languageCode, against the language its text is written in.
        ...languageFindings(checked.message.languageCode, textOfDocument(document), 'languageCode'),
      ].map((found): Problem => {
        const where = found.position === undefined ? '' : `, line ${found.position.line}, column ${found.position.column}`;
        const points = found.score === undefined || found.rule === 'spam-score' ? '' : ` (+${found.score} spam points)`;
        const said = problem(checked.record, found.rule, found.severity, `${whichEmail(checked)}${where}: ${found.message}${points}`, found.fix);
        return found.impact === undefined ? said : { ...said, impact: found.impact };
      }),
    );
    return [...offline, ...(account.network ?? [])];
  },
};
