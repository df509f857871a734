/**
 * The rendered family: each email checked as email engineers check one before a send. Links and
 * images are judged from the LMX source (the renderer writes `alt=""` for an image without one,
 * so only the source says it had none); the size from the email rendered locally with the
 * account's components and theme, as `content render` renders it.
 */
import { elementsOf, type LmxAttribute, type LmxDocument, type LmxElement } from '../../../lmx/index.js';
import { editHint, renderedEmails, whichEmail } from '../emails.js';
import type { Account, CheckedMessage } from '../gather.js';
import { type Problem, problem } from '../records.js';
import { declareRules, type RuleFamily } from './rule.js';

const { rules, severityOf } = declareRules('rendered', {
  'empty-link': { severity: 'error', summary: 'a link, button or image address that is empty' },
  'insecure-link': { severity: 'warning', summary: 'a link that is not https (http://, or a scheme mail clients do not open)' },
  'insecure-image': { severity: 'warning', summary: 'an image whose address is not https: clients block it or warn' },
  'button-without-link': { severity: 'error', summary: 'a button with no link: it leads nowhere' },
  'email-too-large': { severity: 'warning', summary: 'an email over 102 KB rendered: Gmail clips it' },
  'preview-text-missing': { severity: 'warning', summary: 'no preview text: clients show the first words of the body instead' },
  'preview-text-too-long': { severity: 'warning', summary: 'a preview text over 150 characters, which clients cut' },
  'subject-too-long': { severity: 'warning', summary: 'a subject over 78 characters, which most inboxes cut' },
});

/** Gmail clips a message whose HTML is over 102 KB. */
export const CLIP_BYTES = 102 * 1024;
export const MAX_PREVIEW_TEXT = 150;
export const MAX_SUBJECT = 78;

/** Schemes a link may use besides https: they open the mail, phone or messages app, not a page. */
const APP_SCHEMES = new Set(['mailto', 'tel', 'sms']);

/** The address as far as its literal start tells: undefined when a variable makes it (decided at send time). */
function literalAddress(attribute: LmxAttribute): string | undefined {
  const first = attribute.parts[0];
  if (first === undefined) return '';
  return first.kind === 'variable' ? undefined : attribute.value.trim();
}

const schemeOf = (address: string) => /^([a-z][a-z0-9+.-]*):/i.exec(address)?.[1]?.toLowerCase();

function addressProblems(checked: CheckedMessage, element: LmxElement, attribute: LmxAttribute): Problem[] {
  const address = literalAddress(attribute);
  if (address === undefined) return [];
  const where = `${whichEmail(checked)}, line ${attribute.position.line}, column ${attribute.position.column}`;
  const what = `the ${element.name}'s ${attribute.name}`;
  const image = attribute.name !== 'href';
  if (address === '') return [problem(checked.record, 'empty-link', severityOf('empty-link'), `${where}: ${what} is empty`, editHint(checked))];
  const scheme = schemeOf(address);
  if (scheme === 'https' || (!image && scheme !== undefined && APP_SCHEMES.has(scheme))) return [];
  const rule = image ? 'insecure-image' : 'insecure-link';
  return [
    problem(
      checked.record,
      rule,
      severityOf(rule),
      `${where}: ${what} ${JSON.stringify(address)} is not https`,
      `use the https:// address; ${editHint(checked)}`,
    ),
  ];
}

function elementProblems(checked: CheckedMessage, document: LmxDocument): Problem[] {
  const problems: Problem[] = [];
  for (const element of elementsOf(document)) {
    const attribute = (name: string) => element.attributes.find((candidate) => candidate.name === name);
    const at = `${whichEmail(checked)}, line ${element.position.line}, column ${element.position.column}`;
    for (const name of ['href', 'src', 'dynamicSrc']) {
      const found = attribute(name);
      if (found !== undefined) problems.push(...addressProblems(checked, element, found));
    }
    if (element.name === 'Button' && attribute('href') === undefined) {
      problems.push(problem(checked.record, 'button-without-link', severityOf('button-without-link'), `${at}: a button with no href`, editHint(checked)));
    }
  }
  return problems;
}

/** Subject and preview text, as the inbox shows them before the email is opened. */
function inboxProblems(checked: CheckedMessage): Problem[] {
  const { subject, previewText } = checked.message;
  const which = whichEmail(checked);
  const problems: Problem[] = [];
  const fix = 'change it in the app, or with `loopsctl email-messages update`';
  if ([...subject].length > MAX_SUBJECT)
    problems.push(
      problem(
        checked.record,
        'subject-too-long',
        severityOf('subject-too-long'),
        `${which}: the subject is ${[...subject].length} characters (over ${MAX_SUBJECT})`,
        fix,
      ),
    );
  if (previewText.trim() === '')
    problems.push(problem(checked.record, 'preview-text-missing', severityOf('preview-text-missing'), `${which}: no preview text`, fix));
  else if ([...previewText].length > MAX_PREVIEW_TEXT)
    problems.push(
      problem(
        checked.record,
        'preview-text-too-long',
        severityOf('preview-text-too-long'),
        `${which}: the preview text is ${[...previewText].length} characters (over ${MAX_PREVIEW_TEXT})`,
        fix,
      ),
    );
  return problems;
}

export const rendered: RuleFamily = {
  family: 'rendered',
  rules,
  check(account: Account) {
    return renderedEmails(account).flatMap(({ checked, document, html }) => {
      const bytes = Buffer.byteLength(html);
      const size =
        bytes > CLIP_BYTES
          ? [
              problem(
                checked.record,
                'email-too-large',
                severityOf('email-too-large'),
                `${whichEmail(checked)}: ${Math.ceil(bytes / 1024)} KB rendered, over the ${CLIP_BYTES / 1024} KB at which Gmail clips an email`,
                'shorten it, or move long content to a page the email links to',
              ),
            ]
          : [];
      return [...elementProblems(checked, document), ...inboxProblems(checked), ...size];
    });
  },
};
