/**
 * The alert options that `webhooks listen` and `deliveries alerts` share, apart from either
 * group's declarations: a run naming one group then reads no other area's bundle.
 */
import { integerIn, type OptionSpec } from '../../core/declare.js';

/** `--alert`, as `webhooks listen` and `deliveries alerts` take it. */
export const ALERT_OPTION: OptionSpec = {
  flags: '--alert <rule>',
  description: "<event type>><rate>%/<window>: the rate of the event among sends in a rolling window, such as 'email.hardBounced>5%/1h'; repeatable",
  repeatable: true,
};

export const MIN_SENDS_OPTION: OptionSpec = {
  flags: '--min-sends <n>',
  description: 'the fewest sends in a window that an alert judges (default: 200 for bounces and other events, 1000 for spam reports)',
  parse: integerIn(1, Number.MAX_SAFE_INTEGER),
};
