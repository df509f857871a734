#!/usr/bin/env node
'use strict';
// CommonJS (bin/package.json says so), so that `loopsctl --version` answers before Node starts its
// ES module loader; everything else runs the bundled CLI.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  import('../dist/cli.js');
}
