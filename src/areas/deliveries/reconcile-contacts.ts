/**
 * `deliveries reconcile --contacts`: the contacts the journal says hard-bounced or unsubscribed from
 * the audience (its events folded by `contactState`, the library's fold), each looked up in the
 * account (contacts find by email, a few at a time, paced by the client within the API's limit). The platform unsubscribes a contact that hard-bounces and
 * says so with `contact.unsubscribed`; a spam report is not said to unsubscribe anyone, so it is
 * not checked. A contact still subscribed in the account is a mismatch: something (an import, the
 * app's own update) subscribed it again without the journal seeing it.
 */
import type { ApiClient } from '../../api/client.js';
import type { Uses } from '../../core/capabilities.js';
import { fetchEach } from '../../core/email-metrics.js';
import { countOf } from '../../render/numbers.js';
import { contactState } from '../../webhooks/contact-state.js';
import { parseWebhookEvent, type WebhookEvent } from '../../webhooks/events.js';
import type { StoredDelivery } from '../../webhooks/store/index.js';
import { findContacts } from '../contacts/client.js';

/** The events that say whether a contact is subscribed (as the fold reads them), and those that say why not. */
export const CONTACT_EVENTS = ['contact.created', 'contact.deleted', 'contact.unsubscribed', 'email.unsubscribed', 'email.resubscribed', 'email.hardBounced'];
const UNSUBSCRIBING = new Set(['contact.unsubscribed', 'email.unsubscribed', 'email.hardBounced']);

type Said = 'hard-bounced' | 'unsubscribed';

/** What the journal says of each contact: its events folded as `contactState` folds them, and when it last left. */
export class ContactStates {
  private readonly events: WebhookEvent[] = [];
  /** The time of each contact's last unsubscription or hard bounce, by contact id. */
  private readonly left = new Map<string, number>();

  see(delivery: StoredDelivery): void {
    if (delivery.eventName === null || !CONTACT_EVENTS.includes(delivery.eventName)) return;
    let event: WebhookEvent;
    try {
      event = parseWebhookEvent(delivery.body);
    } catch {
      return;
    }
    this.events.push(event);
    const id = delivery.contactId;
    if (id !== null && UNSUBSCRIBING.has(delivery.eventName)) this.left.set(id, Math.max(this.left.get(id) ?? 0, delivery.eventAt.getTime()));
  }

  /**
   * The contacts the journal says are unsubscribed or hard-bounced (a bounced mailbox does not
   * exist: it resubscribes no one), by email in lower case.
   */
  unsubscribed(): { email: string; said: Said; at: number }[] {
    return [...contactState(this.events)].flatMap(([id, state]) =>
      state.subscribed && !state.hardBounced
        ? []
        : [{ email: state.email.toLowerCase(), said: state.hardBounced ? ('hard-bounced' as const) : ('unsubscribed' as const), at: this.left.get(id) ?? 0 }],
    );
  }
}

export interface ContactRow {
  email: string;
  journal: { said: Said; at: string };
  /** The contact as the account answered it; null when it has none by this email. */
  account: Record<string, unknown> | null;
  mismatch: boolean;
}

/** Each contact the journal says is unsubscribed, against the account. */
export async function checkContacts(context: Uses<'out' | 'client' | 'globals'>, api: ApiClient, states: ContactStates) {
  const said = new Map(states.unsubscribed().map((each) => [each.email, each]));
  const { found, code } = await fetchEach(
    context,
    {
      items: [...said.keys()].sort(),
      noun: 'contacts',
      fetched: 'looked up',
      fetch: async (email) => (await findContacts(api, { email }))[0] ?? null,
      about: (email) => ({ contact: email }),
    },
    {},
  );
  const rows = found.map(({ item, value }): ContactRow => {
    const { said: was, at } = said.get(item)!;
    return { email: item, journal: { said: was, at: new Date(at).toISOString() }, account: value, mismatch: value?.subscribed === true };
  });
  return { rows, code };
}

/** A line a contact that is not as the journal says, or not in the account, after a line of the count. */
export function renderContacts(rows: readonly ContactRow[], maxGap: number): string[] {
  const mismatches = rows.filter((row) => row.mismatch);
  const within = mismatches.length > 0 && mismatches.length <= maxGap ? ' (within --max-gap)' : '';
  const lines = [
    `contacts: ${countOf(rows.length, 'contact')} the journal says hard-bounced or unsubscribed; ${mismatches.length === 1 ? '1 mismatch' : `${mismatches.length} mismatches`}${within}`,
  ];
  for (const row of rows) {
    const journal = `${row.journal.said} in the journal at ${row.journal.at}`;
    if (row.account === null) lines.push(`${row.email}: ${journal}, not in the account`);
    else if (row.mismatch) lines.push(`${row.email}: ${journal}, subscribed in the account`);
  }
  return lines;
}
