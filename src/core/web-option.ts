/** `--web`, as every `get`/`show` of a record with a page in the Loops app declares it. */
import type { OptionSpec } from './declare.js';

export const WEB_OPTION: OptionSpec = {
  flags: '--web',
  description: "open the record's page in the Loops app in the browser ($BROWSER, else the system's); prints its address when there is no display or stdout is not a terminal",
};
