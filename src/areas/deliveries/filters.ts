/** The filters `deliveries find`, `stats`, `replay` and `alerts` share, read into the store's filter. */

import { instantOf } from '../../base/instant.js';
import { WEBHOOK_EVENT_NAMES } from '../../platform/webhooks/event-names.js';
import type { DeliveryFilter } from '../../webhooks/store/index.js';
import { eventPattern } from '../webhooks-shared/event-pattern.js';

export interface FilterOptions {
  to?: string;
  event?: string;
  emailId?: string;
  since?: string;
  until?: string;
}

/** The store's filter of the options; a span (7d) is counted back from `now`. */
export function filterOf(options: FilterOptions, now: Date): DeliveryFilter {
  const events = options.event
    ?.split(',')
    .filter((text) => text.trim() !== '')
    .map((text) => eventPattern(text, '--event'));
  return {
    ...(options.to === undefined ? {} : { to: options.to }),
    ...(events === undefined ? {} : { event: WEBHOOK_EVENT_NAMES.filter((name) => events.some((pattern) => pattern.matches(name))) }),
    ...(options.emailId === undefined ? {} : { emailId: options.emailId }),
    ...(options.since === undefined ? {} : { since: new Date(instantOf(options.since, '--since', now, 'start')) }),
    ...(options.until === undefined ? {} : { until: new Date(instantOf(options.until, '--until', now, 'end')) }),
  };
}
