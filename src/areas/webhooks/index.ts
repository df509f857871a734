/**
 * `loopsctl webhooks`: receive deliveries and pass them on to an app (listen), send realistic signed
 * events (trigger), verify a delivery's signature the way the platform signs it, and sign a
 * body to test one's own endpoint. Nothing here calls the API, so no key is needed.
 */
import { InvalidArgumentError } from 'commander';
import { command, emailAddress, group, integerIn, type OptionSpec, type Spec, slackWebhook } from '../../core/declare.js';
import { ALERT_OPTION, MIN_SENDS_OPTION } from '../webhooks-shared/alert-options.js';
import { STORE_OPTION } from '../webhooks-shared/store-option.js';
import { DEFAULT_TOLERANCE_SECONDS } from './tolerance.js';

function timestampArgument(value: string): string {
  if (!/^\d{1,12}$/.test(value)) throw new InvalidArgumentError('expected seconds since the Unix epoch.');
  return value;
}

const SECRET: OptionSpec = {
  flags: '--secret <secret>',
  description: "the endpoint's signing secret, whsec_...; prefer LOOPS_WEBHOOK_SECRET, which stays out of shell history",
};

const TOLERANCE: OptionSpec = {
  flags: '--tolerance <seconds>',
  description: 'largest allowed age (or lead) of the timestamp; 0 turns the check off',
  default: DEFAULT_TOLERANCE_SECONDS,
  parse: integerIn(0, Number.MAX_SAFE_INTEGER),
};

const SECRET_AND_BODY: OptionSpec[] = [SECRET, { flags: '--body-file <path>', description: 'read the body from this file, byte for byte (default: stdin)' }];

const LISTEN_HELP = `Each delivery is checked as \`webhooks verify\` checks one, answered 200 once accepted
(400 when refused), and passed on to your app with its headers and body unchanged. One line
a delivery: the time, the event type, the contact (and the list or subject), and whether it
was verified and what the app answered. The first line of output is the listening URL.
Ctrl-C stops, with a summary; the exit code is 1 when a delivery was refused or the app did
not answer 2xx to one, else 0. The app's answer is waited for at most --timeout seconds.

With --store, every verified delivery is kept in the delivery store (once: a redelivery is not
kept again), for \`loopsctl deliveries\`; a delivery the store cannot keep is answered 503, so
that the sender retries it. With --store and --forward-to, each target gets each delivery from
the store, retried with a growing wait until it takes it, after a restart too, each target on its
own. --alert judges rules over the events' times as they come, and prints each transition
(fired or resolved); --notify posts them to a Slack incoming webhook.`;

export const spec: Spec = group({
  name: 'webhooks',
  summary: 'Receive, send, verify and sign webhook deliveries',
  examples: [
    'loopsctl webhooks listen --port 4242 --forward-to http://localhost:3000/webhooks',
    'loopsctl webhooks trigger contact.created --to http://localhost:3000/webhooks',
  ],
  commands: () => [
    command({
      name: 'verify',
      summary: 'Check the signature of a webhook delivery; exit 1 with the reason when it is not valid',
      mismatch: 'the signature is not valid, or the timestamp is outside the tolerance',
      options: [
        { flags: '--id <id>', description: 'the webhook-id header', required: true },
        { flags: '--timestamp <seconds>', description: 'the webhook-timestamp header', required: true, parse: timestampArgument },
        { flags: '--signature <signature>', description: 'the webhook-signature header (space-separated v1,<base64> entries)', required: true },
        TOLERANCE,
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
    command({
      name: 'listen',
      summary: 'Receive webhook deliveries locally, verify them, and pass them on to your app',
      help: LISTEN_HELP,
      options: [
        { flags: '--port <n>', description: 'port to listen on (0 picks a free one)', default: 0, parse: integerIn(0, 65_535) },
        { flags: '--host <address>', description: 'address to listen on', default: '127.0.0.1' },
        {
          flags: '--forward-to <url>',
          description:
            'pass deliveries on to this URL; <event>=<url> for one event type or family (contact.*=...); repeatable: each target gets every event it names, a plain URL every event',
          repeatable: true,
        },
        { flags: '--events <types>', description: 'pass on only these event types, comma-separated (contact.*,email.opened)' },
        SECRET,
        TOLERANCE,
        STORE_OPTION,
        ALERT_OPTION,
        MIN_SENDS_OPTION,
        {
          flags: '--notify <webhook>',
          description: "post each alert's transitions (fired, resolved) to this Slack incoming webhook",
          parse: slackWebhook,
          personOnly: true,
        },
        { flags: '--jsonl', description: 'one JSON object per line: the URL, each delivery, the summary' },
      ],
      examples: [
        'loopsctl webhooks listen --port 4242 --forward-to http://localhost:3000/webhooks',
        'loopsctl webhooks listen --forward-to contact.*=http://localhost:3000/contacts --forward-to http://localhost:3000/webhooks',
        'loopsctl webhooks listen --events email.delivered,email.opened --jsonl',
        'loopsctl webhooks listen --store deliveries.db --forward-to http://localhost:3000/webhooks --forward-to http://localhost:4000/hooks',
        "loopsctl webhooks listen --store deliveries.db --alert 'email.hardBounced>5%/1h' --notify https://hooks.slack.com/services/T000/B000/XXXX",
      ],
      interactive: true,
      remote: false,
      load: async () => (await import('./listen.js')).listen,
    }),
    command({
      name: 'trigger',
      summary: 'Send a realistic, signed event of a type to your webhook handler now',
      help: "The payload is the event type's, with fresh ids and the current time; --set changes a field\n(dotted paths: contactIdentity.email=..., contact.plan=..., mailingLists.0.name=...). A payload\nthat would not fit the type's schema is refused, and nothing is sent.",
      args: [{ name: 'event-type', description: 'the event type, such as contact.created (see --list)', required: false }],
      options: [
        { flags: '--to <url>', description: "your webhook handler's URL" },
        {
          flags: '--email <address>',
          description: "the contact the event is about: the sandbox's contact of this email when it has one (its id, userId and properties), else one made up",
          parse: emailAddress(),
        },
        { flags: '--set <field=value>', description: 'set a field: name=string, or name:=<json> (a number, true, false, null); repeatable', repeatable: true },
        SECRET,
        { flags: '--list', description: 'list the event types' },
        { flags: '--dry-run', description: 'print the headers and payload instead of sending them' },
      ],
      examples: [
        'loopsctl webhooks trigger --list',
        'loopsctl webhooks trigger contact.created --to http://localhost:3000/webhooks --set contactIdentity.email=ada@example.com',
        'loopsctl webhooks trigger email.hardBounced --email ada@example.com --dry-run',
        'loopsctl webhooks trigger email.opened --set sourceType=loop --dry-run',
      ],
      remote: false,
      load: async () => (await import('./trigger.js')).trigger,
    }),
  ],
});
