/** What the `email-messages` commands do. */

import type { ApiClient } from '../../api/client.js';
import { checkId } from '../../api/ids.js';
import { LocalFileError, MismatchError, RejectedError, UsageError } from '../../base/errors.js';
import { jsonFault } from '../../base/parse-faults.js';
import { sanitize } from '../../base/sanitize.js';
import { type Handler, handler, type Uses } from '../../core/capabilities.js';
import { checkLmxOfDryRun } from '../../core/dry-run-lmx.js';
import { type Explanation, explainError, explained } from '../../core/explain.js';
import { readInput } from '../../core/input.js';
import { PREVIEWS_PER_DAY } from '../../platform/email-messages/previews.js';
import {
  type EMAIL_FORMATS,
  type EmailMessageUpdate,
  FALLBACK_FIELDS,
  type FallbackKind,
  MAX_LMX_BYTES,
  type PreviewVariables,
  previewVariables,
} from '../../platform/email-messages/schemas.js';
import { countOf } from '../../render/numbers.js';
import { getEmailMessage, guardianReport, previewEmailMessage, updateEmailMessage } from './client.js';
import { renderEmailMessage, renderGuardian, renderLmxWarnings } from './render.js';

const ID_NOUN = 'email message id';

const NOT_FOUND_HINT =
  'email message ids are the draftEmailMessageId and publishedEmailMessageId of `loopsctl transactional get <id>`, and the emailMessageId of send-email nodes in `loopsctl workflow show <id>`';

const MJML_HINT = 'loopsctl reads and writes LMX content only: an email built with MJML, or one whose content cannot be parsed, is edited in the Loops editor';

const READ_HINTS: Explanation = { contentApi: true, statuses: { 404: NOT_FOUND_HINT, 409: MJML_HINT } };

export const get: Handler<[string], { lmx?: boolean }> = handler(['out', 'client'], async (context, [id], options) => {
  checkId(id, ID_NOUN);
  const { out } = context;
  const message = await explained(getEmailMessage(await context.client(), id), READ_HINTS);
  if (options.lmx) return out.write(lmxSource(out.tty, message.lmx));
  await out.present(message, renderEmailMessage);
});

/**
 * The source with a final line break. Into a file or a pipe it is exact; on a terminal, control
 * characters other than line breaks and tabs are made visible, so the API's text cannot drive it.
 */
function lmxSource(tty: boolean, lmx: string): string {
  const ended = lmx.endsWith('\n') || lmx === '' ? lmx : `${lmx}\n`;
  if (!tty) return ended;
  return ended
    .split('\n')
    .map((line) => line.split('\t').map(sanitize).join('\t'))
    .join('\n');
}

interface UpdateOptions {
  subject?: string;
  previewText?: string;
  fromName?: string;
  fromEmail?: string;
  replyTo?: string;
  cc?: string;
  bcc?: string;
  language?: string;
  format?: (typeof EMAIL_FORMATS)[number];
  lmxFile?: string;
  fallback?: string[];
  expectedRevisionId?: string;
  force?: boolean;
}

export const update: Handler<[string], UpdateOptions> = handler(['out', 'client', 'files', 'globals'], async (context, [id], options) => {
  checkId(id, ID_NOUN);
  if (options.expectedRevisionId !== undefined) checkId(options.expectedRevisionId, '--expected-revision-id');
  const fields = await updateFields(context, options);
  const client = await context.client();
  const expectedRevisionId = options.expectedRevisionId ?? (await currentRevision(client, id));
  const body: EmailMessageUpdate = expectedRevisionId === null ? fields : { expectedRevisionId, ...fields };
  let updated;
  try {
    updated = await updateEmailMessage(client, id, body);
  } catch (error) {
    throw await explainUpdateFailure(error, client, id, expectedRevisionId);
  }
  const { out } = context;
  if (out.json) return out.writeJson(updated);
  await out.write(`${sanitize(updated.contentRevisionId ?? '-')}\n`);
  out.note(`Updated email message ${id}.`);
  if (updated.contentRevisionId !== null) out.note(`Next update: --expected-revision-id ${updated.contentRevisionId}`);
  // One note per line: a note is sanitized, which would show a line break as \n.
  if (updated.warnings !== undefined && updated.warnings.length > 0)
    renderLmxWarnings(updated.warnings)
      .split('\n')
      .forEach((line) => out.note(line));
});

/** With --force: the revision the message is at now, so the update replaces exactly that. */
async function currentRevision(client: ApiClient, id: string): Promise<string | null> {
  return (await explained(getEmailMessage(client, id), READ_HINTS)).contentRevisionId;
}

/**
 * A 409 is a stale revision when the message has moved on since the one the update named: then
 * say so, and what its revision is now. Otherwise it is one of the other conflicts the API has.
 */
async function explainUpdateFailure(error: unknown, client: ApiClient, id: string, expected: string | null): Promise<unknown> {
  if (error instanceof RejectedError && error.status === 409) {
    const now = await getEmailMessage(client, id).then(
      (message) => message.contentRevisionId,
      () => undefined,
    );
    if (now !== undefined && now !== expected) {
      return new RejectedError(`email message ${id} changed since revision ${expected ?? '(none)'}: it is now at revision ${now ?? '(none)'}`, {
        status: error.status,
        code: error.code,
        cause: error,
        hint: `see the current content with \`loopsctl email-messages get ${id}\` (or \`--lmx > email.lmx\`), merge your changes, then run the update again with --expected-revision-id ${now ?? '<revision>'}`,
      });
    }
  }
  return explainError(error, {
    contentApi: true,
    statuses: {
      404: NOT_FOUND_HINT,
      409: `an email message can be changed only while it is a draft and its content is LMX: for a transactional email, edit its draft (\`loopsctl transactional draft <transactionalId>\` shows its id); ${MJML_HINT}`,
      413: `the LMX body is larger than the API takes (${MAX_LMX_BYTES / 1024} KB); move large parts into components or images`,
      422: 'the LMX did not compile: fix the tag or attribute the message names, then run the update again',
    },
  });
}

async function updateFields(context: Uses<'files' | 'globals'>, options: UpdateOptions): Promise<Omit<EmailMessageUpdate, 'expectedRevisionId'>> {
  if (options.fromEmail?.includes('@')) {
    throw new UsageError(`--from-email takes the part before the @ only (the team's sending domain is added): "${options.fromEmail}"`, {
      hint: `pass --from-email ${options.fromEmail.split('@')[0] || 'hello'}`,
    });
  }
  if (options.language !== undefined && !/^[a-z]{2}$/.test(options.language)) {
    throw new UsageError(`--language takes a two-letter ISO 639-1 code such as en or fr, not "${options.language}"`);
  }
  const fields: Omit<EmailMessageUpdate, 'expectedRevisionId'> = {
    subject: options.subject,
    previewText: options.previewText,
    fromName: options.fromName,
    fromEmail: options.fromEmail,
    replyToEmail: options.replyTo,
    ccEmail: options.cc,
    bccEmail: options.bcc,
    languageCode: options.language,
    emailFormat: options.format,
    lmx: options.lmxFile === undefined ? undefined : await readLmx(context, options.lmxFile),
    ...fallbacks(options.fallback ?? []),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** --fallback <kind>.<name>=<value> sets a fallback; <kind>.<name> alone removes it. */
function fallbacks(specs: string[]): Partial<Record<(typeof FALLBACK_FIELDS)[FallbackKind], Record<string, string | null>>> {
  const merged: Partial<Record<(typeof FALLBACK_FIELDS)[FallbackKind], Record<string, string | null>>> = {};
  for (const spec of specs) {
    // A name as an LMX variable writes it: letters, digits, _ and -.
    const match = /^([a-z]+)\.([A-Za-z0-9_-]+)(?:=([\s\S]*))?$/.exec(spec);
    const kind = match?.[1] as FallbackKind | undefined;
    if (match === null || kind === undefined || !Object.hasOwn(FALLBACK_FIELDS, kind)) {
      throw new UsageError(`--fallback "${spec}" is not <kind>.<name>=<value>`, {
        hint: 'kind is contact, event or data, and name has letters, digits, _ and - only, e.g. --fallback contact.firstName=there; --fallback contact.firstName (no =) removes a fallback',
      });
    }
    const field = FALLBACK_FIELDS[kind];
    merged[field] = { ...merged[field], [match[2]!]: match[3] ?? null };
  }
  return merged;
}

async function readLmx(context: Uses<'files' | 'globals'>, file: string): Promise<string> {
  const name = file === '-' ? 'the LMX on stdin' : `the LMX file "${file}"`;
  const { text: lmx, source } = await readInput(context.runtime, file, 'LMX');
  const bytes = Buffer.byteLength(lmx);
  if (bytes > MAX_LMX_BYTES) throw new LocalFileError(`${name} is ${bytes} bytes; the API takes at most ${MAX_LMX_BYTES} (${MAX_LMX_BYTES / 1024} KB)`);
  if (lmx.trim() === '')
    throw new LocalFileError(`${name} is empty`, {
      hint: 'export the current content with `loopsctl email-messages get <id> --lmx > email.lmx` and edit that',
    });
  await checkLmxOfDryRun(context, source, lmx);
  return lmx;
}

export const preview: Handler<[string], { to: string[]; varsFile?: string }> = handler(['out', 'client', 'files'], async (context, [id], options) => {
  checkId(id, ID_NOUN);
  const variables = options.varsFile === undefined ? {} : await readVariables(context, options.varsFile);
  const answer = await explained(previewEmailMessage(await context.client(), id, { emails: options.to, ...variables }), {
    contentApi: true,
    statuses: {
      404: NOT_FOUND_HINT,
      400: 'in --vars-file, transactional emails take dataVariables, workflow emails contactProperties and eventProperties, campaigns contactProperties',
      429: {
        message: (apiMessage) => `the daily preview limit is reached: ${apiMessage}`,
        hint: `each team can send ${PREVIEWS_PER_DAY} previews a day; loopsctl does not retry this, since waiting minutes will not help: try again tomorrow`,
      },
    },
  });
  const { out } = context;
  if (out.json) return out.writeJson(answer);
  await out.write(`Preview of email message ${sanitize(answer.id)} sent to ${options.to.join(', ')}\n`);
});

/** The --vars-file: {"dataVariables": {...}} and/or contactProperties, eventProperties; string values. */
async function readVariables(context: Uses<'files'>, file: string): Promise<PreviewVariables> {
  const name = file === '-' ? 'the variables on stdin' : `the variables file "${file}"`;
  const { text } = await readInput(context.runtime, file, 'variables');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new LocalFileError(`${name} is ${jsonFault(text)}`);
  }
  const result = previewVariables.safeParse(parsed);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const at = issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`;
  const unknownKeys = issue.code === 'unrecognized_keys' ? `: unknown ${issue.keys.join(', ')}` : '';
  throw new LocalFileError(`${name}${at}: ${issue.message}${unknownKeys}`, {
    hint: 'the file is a JSON object such as {"dataVariables": {"firstName": "Alex"}}; its keys are dataVariables, contactProperties and eventProperties, and every value is a string',
  });
}

export const check: Handler<[string], { strict?: boolean }> = handler(['out', 'client'], async (context, [id], options) => {
  checkId(id, ID_NOUN);
  const report = await explained(guardianReport(await context.client(), id), READ_HINTS);
  await context.out.present(report, renderGuardian);
  const failing = report.errors.length + (options.strict ? report.warnings.length : 0);
  if (failing === 0) return;
  const what = options.strict
    ? `${countOf(report.errors.length, 'error')} and ${countOf(report.warnings.length, 'warning')} (--strict)`
    : countOf(report.errors.length, 'error');
  throw new MismatchError(`Guardian found ${what} in email message ${id}`, {
    hint: `errors block publishing; fix the content (\`loopsctl email-messages get ${id} --lmx > email.lmx\`, edit, then \`loopsctl email-messages update ${id} --lmx-file email.lmx --expected-revision-id <revision>\`) and check again`,
  });
});
