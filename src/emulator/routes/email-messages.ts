/**
 * The sandbox's email messages: the content of transactional emails' drafts and published
 * versions and of workflow emails; updates guarded by the content revision; previews (recorded,
 * 100 a day); and Guardian's checks of the LMX.
 */
import { EMAIL_ADDRESS } from '../../base/email.js';
import { z } from '../../base/shapes.js';
import { guardianReportOf, type LmxNamespace } from '../../lmx/index.js';
import { PREVIEWS_PER_DAY } from '../../platform/email-messages/previews.js';
import * as s from '../../platform/email-messages/schemas.js';
import { campaignSent } from '../../platform/liveness.js';
import { compileLmx, LmxCompileError, type ParentKind } from '../guardian.js';
import {
  ApiFailure,
  answer,
  badRequest,
  conflict,
  noSendingDomain,
  notFound,
  objectBody,
  quotaRetryAfter,
  type RouteContext,
  type SandboxModule,
  slice,
  stringField,
} from '../module.js';
import { campaigns } from './campaign-records.js';
import { components } from './components.js';
import { emailMessages, findMessage, type Parent, type StoredMessage } from './email-message-records.js';
import { shareSubject } from './workflow-messages.js';

const DAY = 24 * 3_600_000;

const storedPreview = z.object({ emailMessageId: z.string(), emails: z.array(z.string()), sentAt: z.string() });

/** The previews sent in the last day: what the daily limit counts, so never more than PREVIEWS_PER_DAY. */
export const previews = slice('previews', z.array(storedPreview), () => []);

function stored(context: RouteContext): StoredMessage {
  const id = context.params.emailMessageId!;
  const found = findMessage(context.state, id);
  if (found === undefined) throw notFound(`Email message ${id} not found`);
  return found;
}

export function guardianOf({ message, parent }: StoredMessage): s.GuardianReport {
  const fallbacks = Object.fromEntries(Object.entries(s.FALLBACK_FIELDS).map(([kind, field]) => [kind, message[field] ?? {}])) as Record<
    LmxNamespace,
    Record<string, string>
  >;
  return guardianReportOf(message.lmx, parent.kind as ParentKind, fallbacks);
}

const STRING_FIELDS = ['subject', 'previewText', 'fromName', 'fromEmail', 'replyToEmail', 'ccEmail', 'bccEmail', 'languageCode', 'emailFormat', 'lmx'] as const;

function update(context: RouteContext) {
  const target = stored(context);
  const fields = objectBody(context.body, ['expectedRevisionId', ...STRING_FIELDS, ...Object.values(s.FALLBACK_FIELDS)], []);
  for (const key of ['expectedRevisionId', ...STRING_FIELDS]) if (fields[key] !== undefined) stringField(fields, key);
  const { message } = target;
  if (typeof fields.lmx === 'string' && Buffer.byteLength(fields.lmx) > s.MAX_LMX_BYTES)
    throw new ApiFailure(413, `LMX payload exceeds the ${s.MAX_LMX_BYTES / 1024}KB limit`);
  if (fields.emailFormat !== undefined && !s.EMAIL_FORMATS.includes(fields.emailFormat as 'styled'))
    throw badRequest(`emailFormat must be one of ${s.EMAIL_FORMATS.join(', ')}`);
  if (typeof fields.fromEmail === 'string' && fields.fromEmail.includes('@'))
    throw badRequest("fromEmail must not include a domain: the team's sending domain is used");
  for (const key of ['replyToEmail', 'ccEmail', 'bccEmail']) {
    const value = fields[key];
    if (typeof value === 'string' && value !== '' && !EMAIL_ADDRESS.test(value)) throw badRequest(`${key} must be empty or a valid email address`);
  }
  if (typeof fields.languageCode === 'string' && !/^[a-z]{2}$/.test(fields.languageCode))
    throw badRequest('languageCode must be an ISO 639-1 code such as en or fr');
  const merges = Object.values(s.FALLBACK_FIELDS).filter((key) => fields[key] !== undefined);
  for (const key of merges) {
    const map = fields[key];
    if (typeof map !== 'object' || map === null || Array.isArray(map) || Object.values(map).some((value) => value !== null && typeof value !== 'string')) {
      throw badRequest(`${key} must be an object of strings (or null to remove one)`);
    }
  }
  // "The campaign or transactional email that owns this email message must be in `Draft` status" (a scheduled campaign's too).
  const campaignStatus = target.parent.kind === 'campaign' ? campaigns.of(context.state).find((each) => each.id === target.parent.id)?.status : undefined;
  if (target.parent.published || (campaignStatus !== undefined && campaignStatus !== 'Draft')) {
    throw conflict(
      target.parent.kind !== 'campaign'
        ? 'Transactional email is not in draft status: edit its draft email message'
        : target.parent.published || campaignSent(campaignStatus)
          ? 'Campaign has been sent: its email message can no longer be edited'
          : `Campaign is not in draft status (${String(campaignStatus)}): its email message cannot be edited until it is a draft again`,
    );
  }
  if (fields.expectedRevisionId !== undefined && fields.expectedRevisionId !== message.contentRevisionId) {
    throw conflict(`contentRevisionId is stale: the email message is at revision ${message.contentRevisionId}, not ${String(fields.expectedRevisionId)}`);
  }
  let warnings: s.LmxWarning[] = [];
  if (typeof fields.lmx === 'string') {
    try {
      warnings = compileLmx(fields.lmx, target.parent.kind, new Set(components.of(context.state).map((component) => component.id)));
    } catch (error) {
      if (error instanceof LmxCompileError) throw new ApiFailure(422, `LMX failed to compile: ${error.message}`);
      throw error;
    }
  }
  for (const key of STRING_FIELDS) if (typeof fields[key] === 'string') Object.assign(message, { [key]: fields[key] });
  for (const key of merges) {
    const merged: Record<string, string> = { ...message[key] };
    for (const [name, value] of Object.entries(fields[key] as Record<string, string | null>)) {
      if (value === null) delete merged[name];
      else merged[name] = value;
    }
    if (Object.keys(merged).length === 0) delete message[key];
    else message[key] = merged;
  }
  message.contentRevisionId = context.newId();
  message.updatedAt = context.now().toISOString();
  shareSubject(context.state, target);
  context.changed();
  return answer(s.emailMessage, warnings.length === 0 ? message : { ...message, warnings });
}

/** Which variable fields a preview may carry, by what the message belongs to. */
const PREVIEW_FIELDS: Record<Parent['kind'], string[]> = {
  transactional: ['dataVariables'],
  workflow: ['contactProperties', 'eventProperties'],
  campaign: ['contactProperties'],
};

function preview(context: RouteContext) {
  const target = stored(context);
  const fields = objectBody(context.body, ['emails', 'contactProperties', 'eventProperties', 'dataVariables'], ['emails']);
  const emails = fields.emails;
  if (!Array.isArray(emails) || emails.length === 0 || emails.some((email) => typeof email !== 'string' || !EMAIL_ADDRESS.test(email))) {
    throw badRequest('emails must be a non-empty array of email addresses');
  }
  for (const key of ['contactProperties', 'eventProperties', 'dataVariables']) {
    if (fields[key] === undefined) continue;
    if (!PREVIEW_FIELDS[target.parent.kind].includes(key)) throw badRequest(`${key} cannot be used in a ${target.parent.kind} email preview`);
    const values = fields[key];
    if (typeof values !== 'object' || values === null || Array.isArray(values) || Object.values(values).some((value) => typeof value !== 'string')) {
      throw badRequest(`${key} must be an object of strings`);
    }
  }
  const now = context.now();
  const log = previews.of(context.state);
  // Only the last day counts, and only that much is kept.
  log.splice(0, log.length, ...log.filter((entry) => now.getTime() - Date.parse(entry.sentAt) < DAY));
  if (log.length >= PREVIEWS_PER_DAY) {
    throw new ApiFailure(429, `Daily preview limit reached: ${PREVIEWS_PER_DAY} previews per team per day`, quotaRetryAfter(log[0]!.sentAt, DAY, now));
  }
  log.push({ emailMessageId: target.message.id, emails: emails as string[], sentAt: now.toISOString() });
  context.changed();
  return answer(s.previewAnswer, { id: target.message.id });
}

export const sandbox: SandboxModule = {
  slices: [emailMessages, previews],
  routes: [
    {
      operation: 'getEmailMessage',
      needs: 'content',
      run: (context) => {
        if (!context.features.sendingDomain) throw noSendingDomain();
        const { warnings: _none, ...message } = stored(context).message;
        return answer(s.emailMessage, message);
      },
    },
    { operation: 'updateEmailMessage', needs: 'content', run: update },
    { operation: 'previewEmailMessage', needs: 'content', run: preview },
    {
      operation: 'getEmailMessageGuardian',
      needs: 'content',
      run: (context) => answer(s.guardianReport, guardianOf(stored(context))),
    },
  ],
};
