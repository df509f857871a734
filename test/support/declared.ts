/** A command declared as an area would declare it, with one input of every kind, for the tests of what is made from declarations. */

import { handler } from '../../src/core/capabilities.js';
import { command, integerIn } from '../../src/core/declare.js';

export const MAKE = command({
  name: 'make',
  summary: 'Make a thing',
  args: [
    { name: 'id', description: 'its id' },
    { name: 'more', description: 'others', variadic: true, required: false },
  ],
  options: [
    { flags: '--size <n>', description: 'how big', parse: integerIn(1, 9), default: 3 },
    { flags: '--kind <kind>', description: 'which kind', choices: ['a', 'b'], required: true },
    { flags: '--tag <tag>', description: 'a tag', repeatable: true },
    { flags: '--dry-run', description: 'do nothing' },
    { flags: '--no-check', description: 'skip the check' },
    { flags: '--send', description: 'send it', tier: 'destructive' },
  ],
  examples: ['loopsctl things make x --kind a'],
  remote: true,
  tier: 'write',
  load: async () => handler([], async () => {}),
});
