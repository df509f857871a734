/** `loopsctl api`: a request to any path of the API, the answer printed as received. */
import { choiceIgnoringCase, command, type Spec } from '../../core/declare.js';
import { JSON_OR_JSONL } from '../../core/list.js';
import { methodOf } from './request.js';

const METHODS = ['GET', 'POST', 'PUT', 'DELETE'];

export const spec: Spec = command({
  name: 'api',
  summary: 'Send a request to any API path and print the answer as received',
  args: [{ name: 'path', description: 'path below the base URL, such as /v1/themes (the leading / and v1/ may be left out)' }],
  options: [
    {
      flags: '-X, --method <method>',
      description: 'HTTP method (default GET, or POST when fields or --input are given without --paginate)',
      choices: METHODS,
      parse: choiceIgnoringCase(METHODS),
    },
    { flags: '-f, --raw-field <key=value>', description: 'a string field of the JSON body (a query parameter for GET)', repeatable: true },
    {
      flags: '-F, --field <key=value>',
      description:
        "a typed field: true, false, null and numbers as JSON, @file for a file's contents (@- stdin), key[]=v for arrays, a[b]=v for nested objects",
      repeatable: true,
    },
    {
      flags: '--input <file>',
      description: 'the request body as given in the file (- for stdin); it must be JSON',
      file: { inline: { name: 'body', encoding: 'text', description: 'the request body as it is sent; it must be JSON' } },
    },
    { flags: '-H, --header <header>', description: "an extra request header, 'Name: value'", repeatable: true },
    {
      flags: '--idempotency-key <key>',
      description:
        'sent as the Idempotency-Key header; on POST /v1/events/send and POST /v1/transactional, the only paths that honour it, it lets loopsctl retry a send that may have reached the API',
    },
    { flags: '--paginate', description: 'follow pagination.nextCursor through every page and print all the items as one JSON array' },
    { flags: '--jsonl', description: 'with --paginate: one compact item per line, as pages arrive' },
    { flags: '-i, --include', description: 'print the status line and headers of the answer on stderr' },
  ],
  help: `The answer's body is printed as received; on a terminal, JSON is indented and coloured. An
answer with an error status is printed too, and the exit code says what went wrong (see
\`loopsctl --help\`). GET requests are retried after a failure like any read; other methods only
when the API cannot have seen them. --idempotency-key makes a second attempt safe only where the
API honours the key, POST /v1/events/send and POST /v1/transactional: elsewhere it is ignored, and
a create sent twice makes two.`,
  examples: [
    'loopsctl --sandbox api /v1/dedicated-sending-ips',
    "loopsctl --sandbox api themes -X GET -f perPage=10 --jq '.data[].name'",
    'loopsctl --sandbox api /v1/audience-segments --paginate --jsonl',
    'loopsctl --sandbox api -X POST /v1/events/send -f eventName=signup -f email=ada@example.com --idempotency-key signup-ada-1',
    'loopsctl --sandbox api /v1/dedicated-sending-ips -i',
  ],
  remote: true,
  // Any request at all, at most; a GET only reads.
  tier: 'destructive',
  tierOf: (options) => (methodOf(options) === 'GET' ? 'read' : 'destructive'),
  constraints: { exclusive: [JSON_OR_JSONL] },
  load: async () => (await import('./commands.js')).api,
});
