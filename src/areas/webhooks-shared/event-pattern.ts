/**
 * What the webhook commands read of an event type or a URL on the command line: event patterns
 * (`--event`, `--forward-to contact.*=…`) and the URLs deliveries go to. Apart from the receiver,
 * which starts node:http and the signature's code, so that the `deliveries` commands' filters
 * load neither.
 */
import { UsageError } from '../../base/errors.js';
import { closeMatches } from '../../base/suggest.js';
import { WEBHOOK_EVENT_NAMES } from '../../platform/webhooks/event-names.js';

/** Event names, or patterns of them with `*` (`contact.*`). */
export class EventPattern {
  private readonly regex: RegExp;
  constructor(readonly text: string) {
    this.regex = new RegExp(
      `^${text
        .split('*')
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    );
  }
  matches(eventName: string): boolean {
    return this.regex.test(eventName);
  }
}

/** A pattern that names at least one of the platform's event types, else a usage error that suggests one. */
export function eventPattern(text: string, flag: string): EventPattern {
  const pattern = new EventPattern(text.trim());
  if (!WEBHOOK_EVENT_NAMES.some((name) => pattern.matches(name))) {
    const near = closeMatches(text, WEBHOOK_EVENT_NAMES, 3);
    throw new UsageError(`${flag} ${text}: no event type is named so`, {
      hint:
        near.length > 0
          ? `did you mean ${near.join(', ')}? (\`loopsctl webhooks trigger --list\` shows them all)`
          : 'see them with `loopsctl webhooks trigger --list`; `contact.*` names a family',
    });
  }
  return pattern;
}

/** A URL that can take deliveries (http or https), or a usage error that names the flag. */
export function deliveryUrl(url: string, flag: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`${flag} ${url}: not a URL`, { hint: 'give the URL of a webhook handler, such as http://localhost:3000/webhooks' });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError(`${flag} ${url}: only http and https URLs can take deliveries`);
  return url;
}
