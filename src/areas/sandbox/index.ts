/**
 * `loopsctl sandbox`: a local emulator of the Loops API, to try loopsctl without an account, its
 * outbox, and the webhooks it delivers. `loopsctl sandbox` alone serves, as `loopsctl sandbox serve` does.
 */
import { allowPrivateLinksOption, command, group, InvalidValue, integerIn, type Spec } from '../../core/declare.js';

const KEYS_HELP = `Keys the sandbox accepts:
  sandbox-key            everything enabled
  sandbox-no-content     content API off: 401 on transactional emails (list,
                         create, draft), groups, campaigns, components, and on
                         themes and segments by id or when creating them
  sandbox-no-workflows   workflow API off: 401 on workflow operations
  sandbox-no-domain      no sending domain: 400 on transactional create and
                         draft, and on campaign create
  sandbox-no-metrics     metrics API off: 401 on campaign, workflow email and
                         transactional email metrics
  sandbox-rate-limited   every request over the rate limit: 429 with
                         Retry-After, for testing a client's back-off
Any other key gets 401.`;

const STATE_OPTION = {
  flags: '--state <file>',
  description: 'file that keeps the sandbox data between runs (default: in the config dir)',
  parse: (value: string) => {
    if (value.trim() === '') throw new InvalidValue('the path of a file');
    return value;
  },
};

/** Kept here as words, so declaring the commands loads none of the sandbox. */
const SEED_OPTION = {
  flags: '--seed <data>',
  description: "start over from the demo team's data, or from a new team's (nothing but a default theme and groups)",
  choices: ['demo', 'empty'],
};

// Each paragraph one line: help wraps it to the terminal.
const INBOX_HELP =
  "Its inbox, <url>/_sandbox/inbox in a browser, shows the emails it was asked to send (transactional sends, and the emails workflows send, at once or when the clock releases a wait), newest first, each drawn with the values it was sent with and beside the webhooks it caused (and each workflow email beside its journey); the page follows new mail as it arrives. The emails' images are fetched by loopsctl and served by the inbox, never loaded by the browser from their own addresses: one at a loopback, private or reserved address (by name, by what the name resolves to, or where a redirect leads) is said on stderr and not loaded, unless --allow-private-links.";

const RESET_HELP =
  'A server resets without a restart: `loopsctl sandbox reset` rewrites the state file it reads on every request, and POST /_sandbox/reset (with the key; body {"seed": "empty"} or {"seed": "demo"}, or none for the seed it started from) does the same over HTTP, and brings back the fixtures a server started from (--fixtures).';

const CLOCK_HELP =
  'The sandbox keeps its own time: the system\'s (plus however far it was moved forward), or, started with --clock frozen, the seed\'s date until moved. It only moves forward, at most 400 days at once; moving it releases every contact whose wait (a workflow\'s timer) ends on the way, each at the time its wait ends. Everything the sandbox dates (contacts, sends, journeys, webhook deliveries) reads it. Over HTTP: GET /_sandbox/clock, and POST /_sandbox/clock with {"advance": "3d"} or {"to": "<ISO time>"} (with the key).';

const ENGAGEMENT_HELP =
  'Each send of the email from now on (a transactional email\'s, a campaign\'s, or a workflow send-email node\'s, named by its node id) counts toward its counters as the rates say, exactly rather than by chance: the n-th send counts for a rate once floor(n × rate) grows, so 20 sends at a hard bounce rate of 0.2 have 4 hard bounces, and a state file gives the same outcomes every time. Each counter follows its own rate. A transactional email counts deliveries, bounces and spam reports (the API reports no opens, clicks nor unsubscribes for it); a campaign or workflow email counts opens, clicks, bounces, spam reports and unsubscribes (no deliveries). With --simulate-engagement, each send\'s webhooks follow what it met (email.delivered, email.opened, email.clicked, email.hardBounced, email.softBounced, email.spamReported; an unsubscribe is counted only), and a workflow\'s audience filters on opens and clicks read the same. A hard bounce unsubscribes the contact it went to, as the platform does (with contact.unsubscribed). Setting the rates again starts the sequence over; rates left out are 0 (the delivery rate: what the bounces leave). Without rates, a transactional send is delivered, and a campaign or workflow send is delivered, opened and clicked with --simulate-engagement, its counters gaining only the send. Over HTTP: POST /_sandbox/engagement with {"emailId", "deliveryRate", "openRate", "clickRate", "hardBounceRate", "softBounceRate", "spamRate", "unsubscribeRate"} (with the key).';

const SEND_CAMPAIGN_HELP =
  'The campaign goes to every subscribed, unsuppressed contact of its audience: its mailing list, its segment and its filter (each as a workflow\'s audience filter reads it; a condition on what a contact did with a campaign matches no one). Each send meets the campaign\'s rates (`loopsctl sandbox engagement --email <campaign id>`): its counters (`loopsctl campaigns metrics`) and, with --webhook-url, its webhooks (campaign.email.sent, and with --simulate-engagement what it met) follow. The campaign is Sent after, once: sending it again is refused (exit 5). Its emails are not in the outbox. Over HTTP: POST /_sandbox/campaigns/send with {"campaignId"} (with the key).';

/** A rate from 0 to 1 of an email's sends. */
function rateOption(flags: string, what: string) {
  return {
    flags: `${flags} <rate>`,
    description: `the share of sends, 0 to 1, that are ${what}`,
    parse: (value: string) => {
      const rate = Number(value);
      if (value.trim() === '' || !Number.isFinite(rate) || rate < 0 || rate > 1) throw new InvalidValue('a number from 0 to 1, such as 0.25');
      return rate;
    },
  };
}

const clock = group({
  name: 'clock',
  summary: "Show the sandbox's clock, or move it forward to run its workflows' waits",
  examples: ['loopsctl sandbox clock', 'loopsctl sandbox clock advance 3d', 'loopsctl sandbox clock set "$(date -u -d tomorrow +%FT%TZ)"'],
  commands: () => [
    command({
      name: 'show',
      summary: "Show the sandbox's time, and whether it stands still (the default: `loopsctl sandbox clock` does this)",
      help: CLOCK_HELP,
      isDefault: true,
      options: [STATE_OPTION],
      examples: ['loopsctl sandbox clock show', 'loopsctl sandbox clock --json'],
      remote: false,
      load: async () => (await import('./journeys.js')).clockShow,
    }),
    command({
      name: 'advance',
      summary: 'Move the clock forward by a duration, releasing the waits that end on the way',
      help: CLOCK_HELP,
      args: [{ name: 'duration', description: 'how far: 3d, 1h30m, 90s (units ms, s, m, h, d, w, y; at most 400 days)' }],
      options: [STATE_OPTION],
      examples: ['loopsctl sandbox clock advance 3d', 'loopsctl sandbox clock advance 1h30m --json'],
      remote: false,
      load: async () => (await import('./journeys.js')).clockAdvance,
    }),
    command({
      name: 'set',
      summary: 'Move the clock forward to a time, releasing the waits that end on the way',
      help: CLOCK_HELP,
      args: [{ name: 'time', description: "an ISO 8601 time, not before the sandbox's own" }],
      options: [STATE_OPTION],
      examples: ['loopsctl sandbox clock set "$(date -u -d tomorrow +%FT%TZ)"'],
      remote: false,
      load: async () => (await import('./journeys.js')).clockSet,
    }),
  ],
});

export const spec: Spec = group({
  name: 'sandbox',
  summary: 'Run a local emulator of the Loops API, with seed data; see what it would have sent',
  examples: ['eval "$(loopsctl sandbox --detach)"', 'loopsctl sandbox outbox', 'loopsctl sandbox deliveries', 'loopsctl sandbox reset --seed empty'],
  // The declarations are data, a list read as a whole (help, completion, the reference): one piece.
  commands: () => [
    command({
      name: 'serve',
      summary: 'Run the sandbox until interrupted (the default: `loopsctl sandbox` does this)',
      help: `Prints the URL it listens on as the one line of its output; logs go to stderr, one line a request with its time and latency.\n\n${INBOX_HELP}\n\n${KEYS_HELP}\n\n${RESET_HELP}`,
      isDefault: true,
      options: [
        { flags: '--port <n>', description: 'port to listen on (0 picks a free one)', default: 0, parse: integerIn(0, 65_535) },
        { flags: '--host <address>', description: 'address to listen on', default: '127.0.0.1' },
        STATE_OPTION,
        SEED_OPTION,
        { flags: '--reset', description: "start over from the seed data (the demo team's unless --seed says otherwise)" },
        { flags: '--detach', description: 'run in the background: print the exports once listening, and return' },
        {
          flags: '--webhook-url <url>',
          description: 'deliver the webhooks the platform would send (contact created, email sent, ...) to this URL; kept in the state',
        },
        {
          flags: '--webhook-secret <secret>',
          description: 'sign them with this whsec_ secret (default: LOOPS_WEBHOOK_SECRET, else the kept one, else a new one)',
        },
        { flags: '--simulate-engagement', description: 'follow each sent email with its simulated delivery (and open and click) a moment later' },
        { flags: '--no-webhooks', description: 'stop delivering webhooks, and forget the URL' },
        {
          flags: '--fixtures <file>',
          description:
            'start over from the records a JSON or YAML file declares (contacts, lists, transactional emails, ...), on the seed it names (default: empty)',
        },
        { flags: '--rate-limit <on|off>', description: 'refuse requests beyond 10 a second with 429, as the API does', default: 'on', choices: ['on', 'off'] },
        { flags: '--exit-with-parent', description: 'stop when stdin closes: a test runner that started it, and holds its stdin, is gone' },
        {
          flags: '--clock <mode>',
          description: "the sandbox's clock: with the system's, or stopped (at the seed's date when the data starts over) until moved with `sandbox clock`",
          default: 'system',
          choices: ['system', 'frozen'],
        },
        allowPrivateLinksOption(
          "let the inbox show emails' images at loopback, private and reserved addresses too, such as an app's own server on this machine (otherwise said on stderr, not loaded)",
        ),
      ],
      examples: [
        'eval "$(loopsctl sandbox --detach)"',
        'loopsctl sandbox --port 4010',
        'loopsctl sandbox --port 0 --seed empty --state ./test-sandbox.json',
        'loopsctl sandbox serve --state ./sandbox.json --reset',
        'loopsctl sandbox --webhook-url http://127.0.0.1:4242/ --simulate-engagement',
        'loopsctl sandbox --port 0 --fixtures test/loops.yaml --state ./test-sandbox.json --exit-with-parent',
        'loopsctl sandbox --reset --clock frozen',
        'loopsctl sandbox --allow-private-links',
      ],
      interactive: true,
      remote: false,
      load: async () => (await import('./commands.js')).serve,
    }),
    command({
      name: 'reset',
      summary: 'Start the sandbox data over from a seed, with no server (a running one sees it at once)',
      help: `Rewrites the state file, whatever it holds: a damaged file, or one a newer loopsctl wrote, is replaced too. A server that keeps its data in that file serves the new data from its next request.\n\n${RESET_HELP}`,
      options: [STATE_OPTION, { ...SEED_OPTION, description: 'the data to start from (default: the seed the state started from, else demo)' }],
      examples: ['loopsctl sandbox reset', 'loopsctl sandbox reset --seed empty', 'loopsctl sandbox reset --state ./sandbox.json'],
      remote: false,
      load: async () => (await import('./commands.js')).reset,
    }),
    command({
      name: 'outbox',
      summary: 'Show the emails and events the sandbox was asked to send (none is delivered)',
      options: [STATE_OPTION, { flags: '--clear', description: 'empty the outbox after showing it, and say how many entries it held' }],
      examples: ['loopsctl sandbox outbox', 'loopsctl sandbox outbox --json --clear'],
      remote: false,
      load: async () => (await import('./commands.js')).outbox,
    }),
    clock,
    command({
      name: 'journeys',
      summary: 'Show the journeys of contacts through the workflows: each step with its node, time and why',
      help: "A contact that a sending workflow's trigger lets in runs through it node by node (filters, branches, experiments, emails) until a timer makes it wait or it exits: that run is a journey. Each is drawn as a tree of its steps, each with its time on the sandbox's clock and since the journey started; --json prints them as GET /_sandbox/journeys answers.",
      options: [
        STATE_OPTION,
        { flags: '--contact <email>', description: "only this contact's journeys" },
        { flags: '--workflow <id>', description: "only this workflow's journeys" },
      ],
      examples: ['loopsctl sandbox journeys', 'loopsctl sandbox journeys --contact ada@example.com --json'],
      remote: false,
      load: async () => (await import('./journeys.js')).journeys,
    }),
    command({
      name: 'engagement',
      summary: "Set what an email's later sends meet: delivered, opened, clicked, bounced, reported as spam",
      help: ENGAGEMENT_HELP,
      options: [
        { flags: '--email <id>', description: "the transactional email's id, the campaign's, or the workflow send-email node's" },
        rateOption('--delivery-rate', 'delivered (default: what bounces leave, 1 without them)'),
        rateOption('--open-rate', 'opened: a workflow email (default 0)'),
        rateOption('--click-rate', 'clicked: a workflow email (default 0)'),
        rateOption('--hard-bounce-rate', 'bounce for good (default 0)'),
        rateOption('--soft-bounce-rate', 'bounce for now (default 0)'),
        rateOption('--spam-rate', 'reported as spam (default 0)'),
        rateOption('--unsubscribe-rate', 'followed by an unsubscribe: a workflow email (default 0)'),
        STATE_OPTION,
      ],
      examples: [
        'loopsctl sandbox engagement --email cc1hv1te56efs1g1ifrp90u0j --hard-bounce-rate 0.2',
        'loopsctl sandbox engagement --email cc1hv1te56efs1g1ifrp90u0j',
      ],
      remote: false,
      load: async () => (await import('./journeys.js')).engagement,
    }),
    command({
      name: 'send-campaign',
      summary: "Send a campaign to its audience, as the app's Send button does (the API sends none)",
      help: SEND_CAMPAIGN_HELP,
      args: [{ name: 'campaign-id', description: "the campaign's id (loopsctl campaigns list)" }],
      options: [STATE_OPTION],
      examples: ['loopsctl sandbox send-campaign c5hihv2wbzma9bzs8kg5hvd41'],
      remote: false,
      load: async () => (await import('./journeys.js')).sendCampaign,
    }),
    command({
      name: 'deliveries',
      summary: 'Show the webhooks the sandbox delivered, or is retrying, with each attempt and its answer',
      options: [STATE_OPTION, { flags: '--clear', description: 'forget the finished deliveries after showing them' }],
      examples: ['loopsctl sandbox deliveries', 'loopsctl sandbox deliveries --json --clear'],
      remote: false,
      load: async () => (await import('./commands.js')).deliveries,
    }),
  ],
});
