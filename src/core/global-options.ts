/** The options every command takes, as the command line (or a tool call) gives them. */
export interface GlobalOptions {
  json?: boolean;
  /** -o json: --json as the Loops CLI writes it. */
  output?: 'json' | 'text';
  /** --jq: a jq expression for JSON output. */
  jq?: string;
  profile?: string;
  baseUrl?: string;
  debug?: boolean;
  color: boolean;
  /** Defaults set where the option is declared, so always present. */
  timeout: number;
  retries: number;
  sandbox?: boolean;
  /** false under --no-pager. */
  pager?: boolean;
  /** --rate: at most this many requests per second, below what the API allows. */
  rate?: number;
  /** --proxy: the proxy for every request, instead of HTTPS_PROXY and HTTP_PROXY. */
  proxy?: string;
  /** --expect-team: the team the key must belong to before anything is written. */
  expectTeam?: string;
}
