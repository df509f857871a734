// Preloaded with --require: when the process exits, appends its peak resident set size (bytes,
// from getrusage) to the file named by BENCH_RSS_FILE.
const { appendFileSync } = require('node:fs');

process.on('exit', () => {
  appendFileSync(process.env.BENCH_RSS_FILE, `${process.resourceUsage().maxRSS * 1024}\n`);
});
