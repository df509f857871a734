/** What `webhooks verify` and `webhooks sign` do. */
import { MismatchError, UsageError } from '../../base/errors.js';
import { type Handler, handler, type Uses } from '../../core/capabilities.js';
import { readInputBytes, stdinIsTerminal } from '../../core/input.js';
import { newMessageId, signHeaders, verdictText, verify as verifySignature } from '../../platform/webhooks/signature.js';
import { keyFrom } from '../webhooks-shared/secret.js';

export interface SecretOptions {
  secret?: string;
  bodyFile?: string;
}

/** The body exactly as received: no decoding, no trimming, since one byte changes the signature. */
async function readBody(context: Uses<'files'>, options: SecretOptions): Promise<Buffer> {
  if (options.bodyFile === undefined && stdinIsTerminal(context.runtime)) throw new UsageError('no body: pipe it on stdin or pass --body-file <path>');
  return (await readInputBytes(context.runtime, options.bodyFile ?? '-', 'body')).bytes;
}

export const nowSeconds = (context: Uses<'clock'>) => Math.floor(context.runtime.now().getTime() / 1000);

export const verify: Handler<[], SecretOptions & { id: string; timestamp: string; signature: string; tolerance: number }> = handler(
  ['out', 'files', 'clock', 'env'],
  async (context, _args, options) => {
    const key = keyFrom(context, options);
    const body = await readBody(context, options);
    const verdict = verifySignature(
      key,
      { id: options.id, timestamp: options.timestamp, body },
      { signature: options.signature, toleranceSeconds: options.tolerance, nowSeconds: nowSeconds(context) },
    );
    const { out } = context;
    if (out.json) await out.writeJson(verdict);
    else if (verdict.valid) await out.write('valid signature\n');
    if (!verdict.valid) {
      const hint = verdict.problem === 'timestamp' ? 'a delayed or replayed delivery, or a clock that is off; --tolerance 0 turns the check off' : undefined;
      throw new MismatchError(verdictText(verdict), { hint });
    }
  },
);

export const sign: Handler<[], SecretOptions & { id?: string; timestamp?: string }> = handler(
  ['out', 'files', 'clock', 'env'],
  async (context, _args, options) => {
    const key = keyFrom(context, options);
    const body = await readBody(context, options);
    const headers = signHeaders(key, { id: options.id ?? newMessageId(), timestamp: options.timestamp ?? String(nowSeconds(context)), body });
    const { out } = context;
    if (out.json) return out.writeJson(headers);
    return out.write(
      Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\n`)
        .join(''),
    );
  },
);
