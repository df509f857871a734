/**
 * `loopsctl webhooks`: verify a delivery's signature the way the platform signs it, and sign a
 * body to test one's own endpoint. Nothing here calls the API, so no key is needed.
 */
import { readFile } from 'node:fs/promises';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { MismatchError, UsageError } from '../api/errors.js';
import { DEFAULT_TOLERANCE_SECONDS, newMessageId, secretKey, signHeaders, verify, WebhookSecretError } from '../webhooks/signature.js';
import { outputFor } from './context.js';
import { examples, integerIn } from './options.js';

interface SecretOptions {
  secret?: string;
  bodyFile?: string;
}

function addSecretAndBodyOptions(command: Command): Command {
  return command
    .option('--secret <secret>', 'the endpoint\'s signing secret, whsec_...; prefer LOOPS_WEBHOOK_SECRET, which stays out of shell history')
    .option('--body-file <path>', 'read the body from this file, byte for byte (default: stdin)');
}

/** The key from --secret or LOOPS_WEBHOOK_SECRET; the secret itself never appears in a message. */
function keyFrom(options: SecretOptions): Buffer {
  const secret = options.secret ?? process.env.LOOPS_WEBHOOK_SECRET;
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

/** The body exactly as received: no decoding, no trimming, since one byte changes the signature. */
async function readBody(options: SecretOptions): Promise<Buffer> {
  if (options.bodyFile !== undefined) {
    try {
      return await readFile(options.bodyFile);
    } catch (error) {
      throw new UsageError(`cannot read the body file "${options.bodyFile}": ${(error as Error).message}`);
    }
  }
  if (process.stdin.isTTY) throw new UsageError('no body: pipe it on stdin or pass --body-file <path>');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function timestampArgument(value: string): string {
  if (!/^\d{1,12}$/.test(value)) throw new InvalidArgumentError('expected seconds since the Unix epoch.');
  return value;
}

export function register(group: Command): void {
  examples(
    addSecretAndBodyOptions(
      group
        .command('verify')
        .description('Check the signature of a webhook delivery; exit 1 with the reason when it is not valid')
        .requiredOption('--id <id>', 'the webhook-id header')
        .requiredOption('--timestamp <seconds>', 'the webhook-timestamp header', timestampArgument)
        .requiredOption('--signature <signature>', 'the webhook-signature header (space-separated v1,<base64> entries)')
        .addOption(
          new Option('--tolerance <seconds>', 'largest allowed age (or lead) of the timestamp; 0 turns the check off')
            .default(DEFAULT_TOLERANCE_SECONDS)
            .argParser(integerIn(0, Number.MAX_SAFE_INTEGER)),
        ),
    ),
    [
      'export LOOPS_WEBHOOK_SECRET=whsec_...',
      'loopsctl webhooks verify --id msg_2x... --timestamp 1714000000 --signature "v1,K5o..." < body.json',
      'loopsctl webhooks verify --id msg_2x... --timestamp 1714000000 --signature "v1,K5o..." --body-file body.json --json',
    ],
  ).action(async (options: SecretOptions & { id: string; timestamp: string; signature: string; tolerance: number }, self: Command) => {
    const key = keyFrom(options);
    const body = await readBody(options);
    const verdict = verify(
      key,
      { id: options.id, timestamp: options.timestamp, body },
      { signature: options.signature, toleranceSeconds: options.tolerance, nowSeconds: Math.floor(Date.now() / 1000) },
    );
    const out = outputFor(self);
    if (out.json) await out.writeJson(verdict);
    else if (verdict.valid) await out.write('valid signature\n');
    if (!verdict.valid) throw new MismatchError(`invalid signature: ${verdict.reason}`);
  });

  examples(
    addSecretAndBodyOptions(
      group
        .command('sign')
        .description('Print the signature headers of a delivery of a body, to test your own endpoint')
        .option('--id <id>', 'the webhook-id (default: a new msg_... id)')
        .option('--timestamp <seconds>', 'the webhook-timestamp (default: now)', timestampArgument),
    ),
    [
      'loopsctl webhooks sign --body-file body.json',
      'echo -n \'{"type":"test"}\' | loopsctl webhooks sign --json',
    ],
  ).action(async (options: SecretOptions & { id?: string; timestamp?: string }, self: Command) => {
    const key = keyFrom(options);
    const body = await readBody(options);
    const headers = signHeaders(key, {
      id: options.id ?? newMessageId(),
      timestamp: options.timestamp ?? String(Math.floor(Date.now() / 1000)),
      body,
    });
    const out = outputFor(self);
    if (out.json) return out.writeJson(headers);
    return out.write(Object.entries(headers).map(([name, value]) => `${name}: ${value}\n`).join(''));
  });
}
