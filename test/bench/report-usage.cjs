// Preloaded with --require: when the process exits, appends its peak resident set size (bytes) and
// the CPU time it used (user + system, microseconds), both from getrusage, to BENCH_USAGE_FILE.
const { appendFileSync } = require('node:fs');

process.on('exit', () => {
  const usage = process.resourceUsage();
  appendFileSync(process.env.BENCH_USAGE_FILE, `${usage.maxRSS * 1024} ${usage.userCPUTime + usage.systemCPUTime}\n`);
});
