/**
 * The exit codes of loopsctl: the one table that the error classes, `--help` and the README all
 * come from (a test compares the README with it).
 */
export const EXIT_CODES = [
  { name: 'ok', code: 0, meaning: 'success' },
  { name: 'mismatch', code: 1, meaning: 'a check found a mismatch (`ips check`, `webhooks verify`, `email-messages check`)' },
  {
    name: 'usage',
    code: 2,
    meaning:
      'usage error (an unknown command or flag, a missing or invalid argument), or a local file that cannot be used (config, sandbox state, an input file); nothing was sent, but by an import, which sends its valid records and counts the invalid ones',
  },
  { name: 'auth', code: 3, meaning: 'no key, or the API answered 401 (a wrong key, or the content, workflow or metrics API not enabled for the team)' },
  { name: 'notFound', code: 4, meaning: 'not found (404)' },
  { name: 'rejected', code: 5, meaning: 'the API rejected the request (400, 405, 409, 422, other 4xx), or answered with a redirect (3xx, not followed)' },
  { name: 'rateLimited', code: 6, meaning: 'rate limited (429 after retries, or a wait longer than loopsctl waits)' },
  { name: 'network', code: 7, meaning: 'network: could not connect, or timed out' },
  { name: 'server', code: 8, meaning: 'server error (5xx after retries)' },
  {
    name: 'invalidResponse',
    code: 9,
    meaning:
      'invalid response: not JSON, or not the documented shape (the message names the field), too large, nested too deeply, compressed, a status HTTP does not define, or a listing that does not end',
  },
  { name: 'proxy', code: 10, meaning: 'the proxy refused (407: it wants credentials, or other ones; a CONNECT it would not open) or could not be reached' },
  {
    name: 'protected',
    code: 11,
    meaning:
      'a write refused before anything was sent: the profile is read-only, an MCP server was started without the tier the command needs, the key belongs to another team than the one expected (the team named by `--expect-team`, `LOOPSCTL_EXPECTED_TEAM` or the profile) or to another account than the plan applied (`loopsctl apply`, `loopsctl undo`), or a person did not approve the change (`loopsctl mcp`)',
  },
  { name: 'internal', code: 70, meaning: 'internal error (a bug in loopsctl)' },
  { name: 'io', code: 74, meaning: 'output could not be written (a full disk, a closed stderr)' },
  { name: 'interrupted', code: 130, meaning: 'interrupted (Ctrl-C)' },
] as const;

type ExitCodeName = (typeof EXIT_CODES)[number]['name'];

export const ExitCode = Object.fromEntries(EXIT_CODES.map(({ name, code }) => [name, code])) as {
  readonly [N in ExitCodeName]: Extract<(typeof EXIT_CODES)[number], { name: N }>['code'];
};

/** The table as `--help` prints it: code and meaning, the meaning wrapped to the width. */
export function exitCodeRows(): [string, string][] {
  return EXIT_CODES.map(({ code, meaning }) => [String(code), meaning.replace(/`/g, '')]);
}
