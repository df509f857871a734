/**
 * The emails `check` reads, shared by its rule families, the link check and spamd's score: which
 * email of a record a finding is in, where to fix it, and each email rendered once per account.
 */
import { type LmxDocument, parseLmx, themeIdOf } from '../../lmx/index.js';
import { renderLmx } from '../../lmx/render/index.js';
import { themeDrawnWith } from '../../platform/themes/drawn-with.js';
import type { Account, CheckedMessage } from './gather.js';

/** Which email of the record a problem is in: `the published email`, `the workflow email "Welcome"`. */
export function whichEmail(checked: CheckedMessage): string {
  return checked.role.startsWith('"') || checked.role.startsWith('node ') ? `the email ${checked.role}` : `the ${checked.role} email`;
}

/** Where to fix a message's content. */
export function editHint(checked: CheckedMessage): string {
  return `edit it in the app, or \`loopsctl email-messages get ${checked.message.id} --lmx > email.lmx\`, edit, and \`loopsctl email-messages update ${checked.message.id} --lmx-file email.lmx --expected-revision-id <revision>\``;
}

export interface RenderedEmail {
  checked: CheckedMessage;
  document: LmxDocument;
  /** The theme's styles it is drawn with: its own theme's, else the account's default theme's. */
  theme?: Record<string, unknown>;
  html: string;
  /** The account's components, parsed, by id: what its `<Component>` tags draw. */
  components: ReadonlyMap<string, LmxDocument>;
}

const renderedOf = new WeakMap<Account, RenderedEmail[]>();

/** Each checked email parsed and rendered with the account's components and theme, once per account for every family that reads it. */
export function renderedEmails(account: Account): RenderedEmail[] {
  const known = renderedOf.get(account);
  if (known !== undefined) return known;
  const components = new Map(account.components.map((component) => [component.id, parseLmx(component.lmx).document]));
  const emails = account.messages.map((checked) => {
    const { document } = parseLmx(checked.message.lmx);
    const theme = themeDrawnWith(themeIdOf(document), account.themes)?.styles as Record<string, unknown> | undefined;
    const { html } = renderLmx(document, { theme, components, subject: checked.message.subject, previewText: checked.message.previewText });
    return { checked, document, html, components, ...(theme === undefined ? {} : { theme }) };
  });
  renderedOf.set(account, emails);
  return emails;
}
