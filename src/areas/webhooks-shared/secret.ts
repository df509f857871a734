/** The signing secret every `webhooks` command and `deliveries replay` signs or verifies with. */
import { UsageError } from '../../base/errors.js';
import type { Uses } from '../../core/capabilities.js';
import { secretKey, WebhookSecretError } from '../../platform/webhooks/signature.js';

/** The key from --secret or LOOPS_WEBHOOK_SECRET; the secret itself never appears in a message. */
export function keyFrom(context: Uses<'env'>, options: { secret?: string }): Buffer {
  const secret = options.secret ?? context.env.LOOPS_WEBHOOK_SECRET;
  if (secret === undefined || secret === '') {
    throw new UsageError('no webhook secret', { hint: 'set LOOPS_WEBHOOK_SECRET (or pass --secret)' });
  }
  try {
    return secretKey(secret);
  } catch (error) {
    if (error instanceof WebhookSecretError) throw new UsageError(error.message, { hint: 'copy the secret from the webhook settings; it starts with whsec_' });
    throw error;
  }
}
