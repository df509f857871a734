/**
 * `loopsctl transactional send`: sends a transactional email once. The request always carries an
 * Idempotency-Key (the one given, else a new one) that every retry reuses, so a send that may have
 * reached the API is never made twice.
 */
import { basename, extname } from 'node:path';
import type { ApiClient } from '../../api/client.js';
import { type IdempotencyKey, idempotencyKey, sendOnce } from '../../api/idempotency.js';
import { checkId } from '../../api/ids.js';
import { RejectedError, UsageError, withDetails } from '../../base/errors.js';
import { type Handler, handler } from '../../core/capabilities.js';
import { explained } from '../../core/explain.js';
import { readInputBytes } from '../../core/input.js';
import type { InputSource } from '../../core/runtime.js';
import { typedValues } from '../../core/typed-values.js';
import { requiredIn } from '../../platform/transactional/data-variables.js';
import { TRANSACTIONAL_SEND } from '../../platform/transactional/resource.js';
import { transactionalSent } from '../../platform/transactional/schemas.js';
import { getTransactional } from './client.js';

export interface Attachment {
  filename: string;
  contentType: string;
  data: string;
}

export function sendTransactional(api: ApiClient, body: Record<string, unknown>, key: IdempotencyKey) {
  return sendOnce(api, { method: 'POST', path: TRANSACTIONAL_SEND.operations.sendTransactionalEmail.path, body }, transactionalSent, key);
}

const CONTENT_TYPES: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.csv': 'text/csv',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.ics': 'text/calendar',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.zip': 'application/zip',
  '.doc': 'application/msword',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xls': 'application/vnd.ms-excel',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.ppt': 'application/vnd.ms-powerpoint',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

/** The content type a file name suggests; application/octet-stream when it suggests none. */
export function contentTypeFor(filename: string): string {
  return CONTENT_TYPES[extname(filename).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * `--attach path`, with `;type=<mime>` and `;name=<file name>` after it if wanted: the file read and
 * base64-encoded. Stdin (`-`) has no name of its own, so it needs `;name=`.
 */
export async function readAttachment(runtime: InputSource, spec: string): Promise<Attachment> {
  const [path = '', ...settings] = spec.split(/;(?=(?:type|name)=)/);
  const given = Object.fromEntries(settings.map((setting) => [setting.slice(0, setting.indexOf('=')), setting.slice(setting.indexOf('=') + 1).trim()]));
  const filename = given.name ?? (path === '-' ? undefined : basename(path));
  if (filename === undefined || filename === '') {
    throw new UsageError(`--attach ${spec}: an attachment read from stdin needs a file name for the recipient`, {
      hint: 'name it: --attach "-;name=report.pdf"',
    });
  }
  const contentType = given.type ?? contentTypeFor(filename);
  if (!/^[\w.+-]+\/[\w.+-]+$/.test(contentType)) throw new UsageError(`--attach ${spec}: "${contentType}" is not a content type such as application/pdf`);
  const { bytes } = await readInputBytes(runtime, path, 'attachment');
  return { filename, contentType, data: bytes.toString('base64') };
}

interface SendOptions {
  to: string;
  var?: string[];
  varsFile?: string;
  attach?: string[];
  addToAudience?: boolean;
  idempotencyKey?: string;
}

/**
 * A send refused for a data variable it left out: the hint names the variables the email takes
 * and how to give them (--var), read from the email when it can be; any other failure as it was.
 */
async function missingVariables(error: unknown, client: ApiClient, transactionalId: string, given: string[]): Promise<unknown> {
  if (!(error instanceof RejectedError) || error.status !== 400) return error;
  const missing = requiredIn(error.message);
  if (missing === undefined) return error;
  const takes = await getTransactional(client, transactionalId).then(
    (email) => email.dataVariables,
    () => undefined,
  );
  const example = missing.map((name) => `--var ${name}=...`).join(' ');
  const known =
    takes === undefined || takes.length === 0
      ? ''
      : `the email takes ${takes.join(', ')}${given.length === 0 ? '' : ` (this send gave ${given.join(', ')})`}; `;
  return withDetails(error, { hint: `${known}give each with --var name=value (or all at once with --vars-file): ${example}` });
}

export const send: Handler<[string], SendOptions> = handler(['out', 'client', 'files'], async (context, [transactionalId], options) => {
  checkId(transactionalId, 'transactional email id');
  const key = idempotencyKey(options.idempotencyKey);
  const dataVariables = await typedValues(context.runtime, {
    flag: '--var',
    raws: options.var,
    fileFlag: '--vars-file',
    file: options.varsFile,
    allowed: 'json',
  });
  // Every file is read before anything is sent.
  const attachments = await Promise.all((options.attach ?? []).map((spec) => readAttachment(context.runtime, spec)));
  const body: Record<string, unknown> = { transactionalId, email: options.to };
  if (options.addToAudience) body.addToAudience = true;
  if (Object.keys(dataVariables).length > 0) body.dataVariables = dataVariables;
  if (attachments.length > 0) body.attachments = attachments;
  const client = await context.client();
  const outcome = await explained(sendTransactional(client, body, key), {
    statuses: {
      // Only a published version is sent: a new email has a draft alone.
      400: (apiMessage) =>
        /not (been |yet )?published|unpublished|no published/i.test(apiMessage)
          ? `publish the email first: \`loopsctl transactional publish ${transactionalId}\` (see its draft with \`loopsctl transactional get ${transactionalId}\`)`
          : undefined,
    },
  }).catch(async (error: unknown) => {
    throw await missingVariables(error, client, transactionalId, Object.keys(dataVariables));
  });
  const { out } = context;
  if (out.json) return out.writeJson(outcome.sent ? { ...outcome.answer, idempotencyKey: key.value } : { alreadySent: true, idempotencyKey: key.value });
  if (outcome.sent) await out.write(`Sent transactional email ${transactionalId} to ${options.to}\nIdempotency key: ${key.value}\n`);
  else {
    out.note('Already sent: an earlier attempt reached the API, so it was not sent again.');
    out.note(`Idempotency key: ${key.value}`);
  }
});
