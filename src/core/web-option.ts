/** `--web`, as every `get`/`show` of a record with a page in the Loops app declares it. */
import type { FlagSet, OptionSpec } from './declare.js';

export const WEB_OPTION: OptionSpec = {
  flags: '--web',
  description:
    "open the record's page in the Loops app in the browser ($BROWSER, else the system's); prints its address when there is no display or stdout is not a terminal",
};

const WEB_HINT = '--web opens the page in the app; --json prints the record as the API answers';

/** A page in the browser and the API's JSON are different answers. */
export const WEB_OR_JSON: FlagSet[] = [
  { flags: ['--web', '--json'], hint: WEB_HINT },
  { flags: ['--web', '--jq'], hint: WEB_HINT },
];
