/**
 * The commands whose run records V8's code cache (src/build/build.mjs, then bin/loopsctl.js reads
 * it), one after the other in one process: V8 keeps the bytecode of every function they compiled,
 * and a bundle's cache is taken right after the last start that ran it. The first commands of the
 * README come last (`--sandbox contacts find`, `--sandbox workflow list`), so that every bundle
 * they run (the client, the emulator, their areas) keeps what they compiled. Not `commands`, which
 * builds every group's commands: the bytecode of all of them would make the main bundle's cache a
 * fifth larger, and every start reads it whole, while a group's own help compiles the little it
 * needs (see group() in src/core/declare.ts). Nor help or `completion bash`, which bin/loopsctl.js
 * prints from the build's files without the program: recorded, they put the top-level commands'
 * declarations and the program's help in the main bundle's cache (345 KB against 272 KB), which
 * every start reads whole, for the help of a terminal narrower than 80 columns. Then the requests,
 * which fill only the bundles no start ran: a listing of another area, and `content check` of a
 * small email (its area and LMX), the offline check a pre-commit hook runs on every commit (with
 * --json, which prints no summary to stderr), and `deliveries find` of a SQLite store (its area and
 * the store). Without them, each such run would compile all it runs of those again.
 */
export function codeCacheRuns(email, store) {
  return {
    starts: [
      ['webhooks', 'sign'],
      ['--sandbox', 'contacts', 'find', '--email', 'ada@example.com'],
      ['--sandbox', 'workflow', 'list'],
    ],
    requests: [
      ['--sandbox', 'transactional', 'list', '--json'],
      ['content', 'check', '--json', '--kind', 'campaign', email],
      ['deliveries', 'find', '--json', '--store', store],
    ],
  };
}
