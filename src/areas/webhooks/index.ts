/**
 * `loopsctl webhooks`: verify a delivery's signature the way the platform signs it, and sign a
 * body to test one's own endpoint. Nothing here calls the API, so no key is needed.
 */
import { InvalidArgumentError } from 'commander';
import { command, group, integerIn, type OptionSpec } from '../../core/declare.js';
import type { Area } from '../area.js';
import { DEFAULT_TOLERANCE_SECONDS } from './tolerance.js';

function timestampArgument(value: string): string {
  if (!/^\d{1,12}$/.test(value)) throw new InvalidArgumentError('expected seconds since the Unix epoch.');
  return value;
}

const SECRET_AND_BODY: OptionSpec[] = [
  { flags: '--secret <secret>', description: "the endpoint's signing secret, whsec_...; prefer LOOPS_WEBHOOK_SECRET, which stays out of shell history" },
  { flags: '--body-file <path>', description: 'read the body from this file, byte for byte (default: stdin)' },
];

export const area: Area = {
  spec: group({
    name: 'webhooks',
    summary: 'Verify and sign webhook deliveries',
    examples: ['loopsctl webhooks sign --secret whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw --body-file body.json'],
    commands: () => [
      command({
        name: 'verify',
        summary: 'Check the signature of a webhook delivery; exit 1 with the reason when it is not valid',
        mismatch: 'the signature is not valid, or the timestamp is outside the tolerance',
        options: [
          { flags: '--id <id>', description: 'the webhook-id header', required: true },
          { flags: '--timestamp <seconds>', description: 'the webhook-timestamp header', required: true, parse: timestampArgument },
          { flags: '--signature <signature>', description: 'the webhook-signature header (space-separated v1,<base64> entries)', required: true },
          {
            flags: '--tolerance <seconds>',
            description: 'largest allowed age (or lead) of the timestamp; 0 turns the check off',
            default: DEFAULT_TOLERANCE_SECONDS,
            parse: integerIn(0, Number.MAX_SAFE_INTEGER),
          },
          ...SECRET_AND_BODY,
        ],
        examples: [
          'export LOOPS_WEBHOOK_SECRET=whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
          'loopsctl webhooks sign --id msg_1 --timestamp 1714000000 --body-file body.json',
          'loopsctl webhooks verify --id msg_1 --timestamp 1714000000 --tolerance 0 --signature "v1,<from sign>" --body-file body.json',
        ],
        remote: false,
        load: async () => (await import('./commands.js')).verify,
      }),
      command({
        name: 'sign',
        summary: 'Print the signature headers of a delivery of a body, to test your own endpoint',
        options: [
          { flags: '--id <id>', description: 'the webhook-id (default: a new msg_... id)' },
          { flags: '--timestamp <seconds>', description: 'the webhook-timestamp (default: now)', parse: timestampArgument },
          ...SECRET_AND_BODY,
        ],
        examples: ['loopsctl webhooks sign --body-file body.json', 'echo -n \'{"type":"test"}\' | loopsctl webhooks sign --json'],
        remote: false,
        load: async () => (await import('./commands.js')).sign,
      }),
    ],
  }),
};
