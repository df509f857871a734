/** Why `verifyWebhook` refused a delivery: its `reason` for code, its message for a person. */
export type WebhookVerificationReason = 'missing-header' | 'bad-signature' | 'stale' | 'bad-body';

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';

  constructor(
    readonly reason: WebhookVerificationReason,
    message: string,
  ) {
    super(message);
  }
}
