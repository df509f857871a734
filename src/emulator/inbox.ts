/**
 * The sandbox's inbox (`GET /_sandbox/inbox`): the emails of the outbox, newest first, as a
 * person would receive them: each transactional send and each email a workflow sent, drawn from
 * its email message with the values it was sent with, beside the webhook deliveries it caused and
 * (a workflow's) the journey that sent it. The page follows new mail through server-sent events. It shows what is
 * in the state and changes nothing.
 *
 * The browser loads no image from an email's own address, which could reach the person's router,
 * a cloud's metadata or a server on their machine: given a loader (`loopsctl sandbox` hands it
 * loopsctl's fetcher for outside addresses, which the emulator cannot import), each image is served
 * through the inbox's own `/_sandbox/inbox/image`, fetched by it; without one (`loopsctl/sandbox` in
 * an app's tests), each is a placeholder of its size naming its address.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { UsageError } from '../base/errors.js';
import { emailPolicy, openEventStream, pagePolicy, sendText } from '../base/local-page.js';
import { type ImageLoader, placeholderImages, RoutedImages } from '../base/page-images.js';
import { TOO_MUCH_COMPONENT_HTML } from '../lmx/expansion.js';
import { componentIdsOf, type LmxDocument, parseLmx, themeIdOf, variablesOf } from '../lmx/index.js';
import { escapeHtml, fillText, type LmxValues, type RenderOptions, renderLmx } from '../lmx/render/index.js';
import { deviceFrames, topBar, VIEWER_CSS, viewerScript } from '../lmx/viewer.js';
import { requestLine } from '../platform/operation-row.js';
import { OPERATIONS } from '../platform/operations.js';
import { themeDrawnWith } from '../platform/themes/drawn-with.js';
import { journeyById } from './journey-records.js';
import type { StateCore } from './module.js';
import { INBOX_PATH } from './own-paths.js';
import { components } from './routes/components.js';
import { fallbacksOf, findMessage } from './routes/email-message-records.js';
import { outbox } from './routes/sandbox.js';
import { themes } from './routes/themes.js';
import { type WebhookDelivery, webhookDeliveries } from './routes/webhook-records.js';

/** One email of the inbox. */
export interface InboxEmail {
  /** `3` for the outbox's fourth entry, `3.1` for the second email its event started. */
  key: string;
  at: string;
  to: string;
  /** The transactional email's name, or the workflow's. */
  source: string;
  kind: 'transactional' | 'workflow';
  /** As its recipient reads it, its variables filled. */
  subject: string;
  emailMessageId?: string;
  emailId?: string;
  /** The journey of the workflow email, which the page shows beside it. */
  journeyId?: string;
  values: LmxValues;
}

/** The outbox's emails, newest first. */
export function inboxEmails(state: StateCore): InboxEmail[] {
  const emails: InboxEmail[] = [];
  outbox.of(state).forEach((entry, index) => {
    if (entry.kind === 'transactional') {
      const values = { data: entry.dataVariables };
      emails.push({
        key: String(index),
        at: entry.at,
        to: entry.to,
        source: entry.name,
        kind: 'transactional',
        subject: filledSubject(state, entry.emailMessageId, undefined, values, 'transactional'),
        emailMessageId: entry.emailMessageId,
        emailId: entry.emailId,
        values,
      });
    } else if (entry.kind === 'workflow') {
      const values = { contact: entry.contact, event: entry.eventProperties };
      emails.push({
        key: String(index),
        at: entry.at,
        to: entry.to,
        source: entry.loopName,
        kind: 'workflow',
        subject: filledSubject(state, entry.emailMessageId, entry.subject, values, 'workflow'),
        emailMessageId: entry.emailMessageId,
        emailId: entry.emailId,
        journeyId: entry.journeyId,
        values,
      });
    } else {
      // An event's emails of an older version; those a journey sent have entries of their own.
      (entry.emails ?? []).forEach((email, position) => {
        if (email.journeyId !== undefined) return;
        const values = { contact: email.contact, event: entry.eventProperties };
        emails.push({
          key: `${index}.${position}`,
          at: entry.at,
          to: entry.email,
          source: email.loopName,
          kind: 'workflow',
          subject: filledSubject(state, email.emailMessageId, email.subject, values, 'workflow'),
          emailMessageId: email.emailMessageId,
          emailId: email.emailId,
          values,
        });
      });
    }
  });
  return emails.reverse();
}

/**
 * The subject of a send with the values it was sent with, as the body is drawn: the one the send
 * kept (a workflow's), else its email message's.
 */
function filledSubject(state: StateCore, emailMessageId: string | undefined, kept: string | undefined, values: LmxValues, kind: InboxEmail['kind']): string {
  const stored = emailMessageId === undefined ? undefined : findMessage(state, emailMessageId);
  const subject = kept ?? stored?.message.subject ?? '';
  return fillText(subject, { values, fallbacks: stored === undefined ? undefined : fallbacksOf(stored), emptyWhenAbsent: emptyWhenAbsent(kind) });
}

/**
 * A transactional send is accepted only with every required data variable, so one it left out
 * was optional, and its recipient reads it as empty. A workflow's contact or event may lack a
 * property: that one shows as written, which Guardian's missing-fallback warning is about.
 */
function emptyWhenAbsent(kind: InboxEmail['kind']): RenderOptions['emptyWhenAbsent'] {
  return kind === 'transactional' ? ['data'] : undefined;
}

/** The email drawn as its recipient would see it, or a page that says why it cannot be. */
export function inboxEmailHtml(state: StateCore, email: InboxEmail): string {
  const stored = email.emailMessageId === undefined ? undefined : findMessage(state, email.emailMessageId);
  if (stored === undefined) {
    return notShownPage('The email message of this send is no longer in the sandbox (it was sent by an older version, or the sandbox was reset).');
  }
  const { message } = stored;
  const { document } = parseLmx(message.lmx);
  const theme = themeDrawnWith(themeIdOf(document), themes.of(state));
  try {
    return renderLmx(document, {
      theme: theme?.styles,
      values: email.values,
      fallbacks: fallbacksOf(stored),
      components: componentDocuments(state),
      subject: message.subject,
      previewText: message.previewText,
      emptyWhenAbsent: emptyWhenAbsent(email.kind),
    }).html;
  } catch (error) {
    if (!(error instanceof UsageError && error.code === TOO_MUCH_COMPONENT_HTML)) throw error;
    return notShownPage(`This email is not shown: ${error.message}.`);
  }
}

/** A page in the email's frame that says why the email is not there. */
function notShownPage(why: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Not shown</title></head><body style="font-family:system-ui,sans-serif;color:#6b7280;padding:24px">${escapeHtml(why)}</body></html>`;
}

/** The deliveries of webhooks an email caused: its sent event, and its simulated engagement. */
export function deliveriesOf(state: StateCore, email: InboxEmail): WebhookDelivery[] {
  if (email.emailId === undefined) return [];
  return webhookDeliveries.of(state).filter((delivery) => (delivery.payload.email as { id?: unknown } | undefined)?.id === email.emailId);
}

/** What changes the page: new mail, and deliveries going out. */
export function inboxSignature(state: StateCore): string {
  const deliveries = webhookDeliveries.of(state);
  return `${outbox.of(state).length}:${outbox.of(state).at(-1)?.at ?? ''}:${deliveries.length}:${deliveries.map((delivery) => `${delivery.status}${delivery.attempts.length}`).join('')}`;
}

const when = (at: string) => at.replace('T', ' ').replace(/\.\d+Z$/, ' UTC');

function listPart(emails: InboxEmail[], current: InboxEmail | undefined): string {
  if (emails.length === 0) return '<p class="empty">No mail yet.</p>';
  return `<ol class="mail">${emails
    .map(
      (email) =>
        `<li><a href="${INBOX_PATH}?email=${encodeURIComponent(email.key)}"${email === current ? ' aria-current="page"' : ''}><span class="to">${escapeHtml(email.to)}</span><span class="subject">${escapeHtml(email.subject || '(no subject)')}</span><span class="meta"><span class="tag ${email.kind}">${email.kind === 'transactional' ? 'Transactional' : 'Workflow'}</span> ${escapeHtml(email.source)} · <time datetime="${escapeHtml(email.at)}">${escapeHtml(when(email.at))}</time></span></a></li>`,
    )
    .join('')}</ol>`;
}

function deliveriesPart(state: StateCore, email: InboxEmail): string {
  const deliveries = deliveriesOf(state, email);
  if (deliveries.length === 0) {
    return `<p class="muted">${email.emailId === undefined ? 'No webhooks for this email: start the sandbox with <code>--webhook-url &lt;url&gt;</code> to have them delivered.' : 'None yet.'}</p>`;
  }
  return `<ul class="deliveries">${deliveries
    .map((delivery) => {
      const last = delivery.attempts.at(-1);
      const answer = last === undefined ? 'not tried yet' : last.status === null ? `failed: ${last.error ?? 'no answer'}` : `HTTP ${last.status}`;
      return `<li class="${delivery.status}"><code>${escapeHtml(delivery.eventName)}</code><span class="status">${escapeHtml(delivery.status)}</span><span class="muted">${delivery.attempts.length} attempt${delivery.attempts.length === 1 ? '' : 's'} · ${escapeHtml(answer)}</span></li>`;
    })
    .join('')}</ul>`;
}

/** The variables the email uses (its components' too), each with the value it was drawn with. */
function valuesPart(state: StateCore, email: InboxEmail): string {
  const stored = email.emailMessageId === undefined ? undefined : findMessage(state, email.emailMessageId);
  if (stored === undefined) return '<p class="muted">The email message of this send is no longer in the sandbox.</p>';
  const { message } = stored;
  const { document } = parseLmx(message.lmx);
  const used = [document, ...componentIdsOf(document).flatMap((id) => componentDocuments(state).get(id) ?? [])].flatMap((part) => variablesOf(part));
  const fallbacks: LmxValues = fallbacksOf(stored);
  const rows = [...new Map(used.map((variable) => [variable.source, variable])).values()].map((variable) => {
    const value = email.values[variable.namespace]?.[variable.name];
    const fallback = fallbacks[variable.namespace]?.[variable.name];
    const shown =
      value !== undefined && value !== null && typeof value !== 'object'
        ? escapeHtml(String(value))
        : fallback !== undefined && fallback !== null
          ? `<span class="muted">none; fallback “${escapeHtml(String(fallback))}”</span>`
          : emptyWhenAbsent(email.kind)?.includes(variable.namespace)
            ? '<span class="muted">none (optional): read as empty</span>'
            : '<span class="muted">none: shown as written</span>';
    return `<tr><th><code>${escapeHtml(variable.source)}</code></th><td>${shown}</td></tr>`;
  });
  return rows.length === 0 ? '<p class="muted">This email uses no variables.</p>' : `<table class="values">${rows.join('')}</table>`;
}

function componentDocuments(state: StateCore): Map<string, LmxDocument> {
  return new Map(components.of(state).map((component) => [component.id, parseLmx(component.lmx).document]));
}

/** The journey that sent a workflow's email: its steps up to now, each with its time and why, the email's own marked. */
function journeyPart(state: StateCore, email: InboxEmail): string {
  if (email.journeyId === undefined) return '';
  const journey = journeyById(state, email.journeyId);
  if (journey === undefined) return '';
  const steps = journey.steps
    .map((step) => {
      const own = step.outcome === 'sent' && step.at === email.at && step.subject === email.subject;
      // A timer's why names the time its wait ends: written here as the page writes every time.
      const why = step.until === undefined ? step.why : step.why.replace(step.until, when(step.until));
      return `<li class="${escapeHtml(step.outcome)}"${own ? ' aria-current="step"' : ''}><time datetime="${escapeHtml(step.at)}">${escapeHtml(when(step.at))}</time> <code>${escapeHtml(step.typeName)}</code> <strong>${escapeHtml(step.outcome)}</strong> <span class="muted">${escapeHtml(why)}</span></li>`;
    })
    .join('');
  const where = journey.status === 'ended' ? 'ended' : `waiting until ${when(journey.waitUntil ?? '')}`;
  return `<section class="card" id="journey"><h3>Journey</h3><p class="muted">${escapeHtml(journey.email)} through “${escapeHtml(journey.workflowName)}”, ${escapeHtml(where)}</p><ol class="journey">${steps}</ol></section>`;
}

function detailPart(state: StateCore, email: InboxEmail | undefined): string {
  if (email === undefined) {
    return `<section class="intro"><h1>Nothing has been sent yet</h1><p>Emails your app sends to this sandbox appear here as they arrive, drawn as the recipient would see them: transactional sends (<code>${requestLine(OPERATIONS.sendTransactionalEmail)}</code>) and the emails workflows send for an event (<code>${requestLine(OPERATIONS.sendEvent)}</code>). Nothing leaves this machine.</p><p>Try: <code>loopsctl transactional send &lt;id&gt; --to ada@example.com --sandbox</code></p></section>`;
  }
  const src = `${INBOX_PATH}/email.html?email=${encodeURIComponent(email.key)}`;
  return `<section class="head"><h1>${escapeHtml(email.subject || '(no subject)')}</h1><p class="muted">To <strong>${escapeHtml(email.to)}</strong> · ${escapeHtml(email.kind === 'transactional' ? `transactional email “${email.source}”` : `workflow “${email.source}”`)} · <time datetime="${escapeHtml(email.at)}">${escapeHtml(when(email.at))}</time></p></section>
<div class="workspace"><div class="frames">${deviceFrames(src, email.subject)}</div>
<aside class="side"><section class="card"><h3>Sent with</h3>${valuesPart(state, email)}</section>${journeyPart(state, email)}<section class="card" id="deliveries" data-live><h3>Webhook deliveries</h3>${deliveriesPart(state, email)}</section></aside></div>`;
}

/** The page, with the email `key` names (the newest when none is named). */
export function inboxPage(state: StateCore, key: string | null): string {
  const emails = inboxEmails(state);
  const current = key === null ? emails[0] : emails.find((email) => email.key === key);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox inbox${emails.length === 0 ? '' : ` (${emails.length})`}</title>
<link rel="stylesheet" href="${INBOX_PATH}/inbox.css">
<script src="${INBOX_PATH}/inbox.js" defer></script>
</head>
<body>
${topBar('loopsctl sandbox <strong>inbox</strong>', 'Emails the sandbox was asked to send. None left this machine.', 'Live: new mail appears here')}
<div class="layout">
<nav id="list" data-live aria-label="Emails, newest first">${listPart(emails, current)}</nav>
<main id="detail" data-live data-keep="${escapeHtml(current?.key ?? '')}">${detailPart(state, current)}</main>
</div>
</body>
</html>
`;
}

export const INBOX_CSS = `${VIEWER_CSS}
nav{flex:0 0 300px;overflow:hidden}
.mail{list-style:none;margin:0;padding:0}
.mail a{display:flex;flex-direction:column;gap:2px;padding:10px 16px;border-bottom:1px solid #f1f5f9;color:inherit;text-decoration:none}
.mail a:hover{background:#f8fafc}.mail a[aria-current=page]{background:#eef2ff;box-shadow:inset 3px 0 #4f46e5}
.mail .to{font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.mail .subject{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.mail .meta{font-size:12px;color:#64748b;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.tag{display:inline-block;padding:0 6px;border-radius:4px;font-size:11px;font-weight:600}
.tag.transactional{background:#e0f2fe;color:#075985}.tag.workflow{background:#f3e8ff;color:#6b21a8}
.values{border-collapse:collapse;width:100%}.values th,.values td{text-align:left;padding:4px 6px;border-top:1px solid #f1f5f9;vertical-align:top}
.values th{font-weight:normal;white-space:nowrap}.values code{color:#4338ca}
.deliveries{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:6px}
.deliveries li{display:flex;flex-wrap:wrap;gap:4px 10px;align-items:baseline;padding:6px 10px;border-radius:6px;background:#f8fafc;border-left:3px solid #94a3b8}
.deliveries li.delivered{border-color:#16a34a}.deliveries li.failed{border-color:#dc2626}.deliveries li.pending{border-color:#d97706}
.deliveries .status{font-weight:600;font-size:12px}
.empty{padding:16px}
.journey{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:4px;font-size:13px}
.journey li{padding:4px 8px;border-left:3px solid #cbd5e1}.journey li.sent{border-color:#16a34a}.journey li.filtered-out,.journey li.exited{border-color:#94a3b8}
.journey li[aria-current=step]{background:#eef2ff}
@media (max-width:900px){nav{flex:none;max-height:40vh;overflow:auto}}
`;

/** The page's script: the viewer's, following the inbox's change events. */
export const INBOX_JS = viewerScript(`${INBOX_PATH}/events`);

export interface InboxServer {
  /** Answers a request whose path is under INBOX_PATH. */
  serve(req: IncomingMessage, res: ServerResponse): void;
  /** Tells the open pages when the mail or its deliveries changed. */
  changed(): void;
  close(): void;
}

const PAGE_POLICY = pagePolicy("'none'");

/** What an image is said to be without a loader, in its placeholder. */
const NOT_LOADED = 'image not loaded (this sandbox loads no remote image)';

/**
 * The inbox's routes on the sandbox's server, reading the state as it is at each request; the
 * emails' images fetched through `images` and served by the inbox, or placeholders without it.
 */
export function inboxServer(state: () => StateCore, images?: ImageLoader): InboxServer {
  const streams = new Set<ServerResponse>();
  const routed = images === undefined ? undefined : new RoutedImages(`${INBOX_PATH}/image`, images);
  // The email's frame loads its images from the inbox itself, or shows placeholders: never from the web.
  const framePolicy = emailPolicy(routed === undefined ? 'data:' : "'self'");
  const drawImages = (html: string) => (routed === undefined ? placeholderImages(html, NOT_LOADED) : routed.routed(html));
  let signature = '';
  return {
    serve(req, res) {
      if (req.method !== 'GET') return sendText(res, 405, 'text/plain; charset=utf-8', 'the inbox is read only\n', { allow: 'GET' });
      const url = new URL(req.url ?? '/', 'http://sandbox');
      switch (url.pathname) {
        case INBOX_PATH:
          return sendText(res, 200, 'text/html; charset=utf-8', inboxPage(state(), url.searchParams.get('email')), { 'content-security-policy': PAGE_POLICY });
        case `${INBOX_PATH}/email.html`: {
          const current = state();
          const email = inboxEmails(current).find((candidate) => candidate.key === url.searchParams.get('email'));
          if (email === undefined) return sendText(res, 404, 'text/plain; charset=utf-8', 'no such email in the outbox\n');
          return sendText(res, 200, 'text/html; charset=utf-8', drawImages(inboxEmailHtml(current, email)), { 'content-security-policy': framePolicy });
        }
        case `${INBOX_PATH}/image`:
          if (routed === undefined) return sendText(res, 404, 'text/plain; charset=utf-8', 'this sandbox loads no remote image\n');
          return void routed.serve(req, res, url).catch((error: unknown) => {
            if (!res.headersSent) sendText(res, 502, 'text/plain; charset=utf-8', `not loaded: ${error instanceof Error ? error.message : String(error)}\n`);
            else res.destroy();
          });
        case `${INBOX_PATH}/inbox.css`:
          return sendText(res, 200, 'text/css; charset=utf-8', INBOX_CSS);
        case `${INBOX_PATH}/inbox.js`:
          return sendText(res, 200, 'text/javascript; charset=utf-8', INBOX_JS);
        case `${INBOX_PATH}/events`:
          openEventStream(res, 0);
          signature = inboxSignature(state());
          streams.add(res);
          req.on('close', () => streams.delete(res));
          return;
        default:
          return sendText(res, 404, 'text/plain; charset=utf-8', 'not found\n');
      }
    },
    changed() {
      if (streams.size === 0) return;
      let now: string;
      try {
        now = inboxSignature(state());
      } catch {
        // A state file being replaced, or damaged: the next change tells.
        return;
      }
      if (now === signature) return;
      signature = now;
      for (const stream of streams) stream.write(`event: change\ndata: ${now.length}\n\n`);
    },
    close() {
      for (const stream of streams) stream.end();
      streams.clear();
    },
  };
}
