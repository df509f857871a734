/**
 * `contactState(events)`: what the platform's events say of each contact now, the table an app
 * keeps beside its own users. Events arrive in any order and more than once, and `eventTime` is in
 * whole seconds, so the fold sorts them first: by time, then, inside one second, by a fixed rank
 * of the event's kind, then by the event's own content. The same events give the same state in
 * whatever order they arrived.
 *
 * Inside one second the rank puts what creates a contact first, then what adds (a resubscription,
 * a list joined), then what removes (an unsubscription, a list left, a hard bounce, a spam report),
 * and a deletion last: where the second does not tell which came first, the cautious state wins,
 * and a contact unsubscribed and resubscribed in the same second ends unsubscribed.
 */
import { canonicalJson } from '../base/canonical-json.js';
import { isListId } from '../platform/ids.js';

/** What the fold knows of a contact. */
export interface ContactState {
  email: string;
  subscribed: boolean;
  hardBounced: boolean;
  complained: boolean;
  /** Each mailing list the events named, by id: true while the contact is on it. */
  mailingLists: Record<string, boolean>;
}

/**
 * An event as `parseWebhookEvent` returns it, read only for what the fold needs. An event it does
 * not know (`known: false`) is passed over: its meaning for a contact is not known either.
 */
export interface FoldableEvent {
  readonly eventName: string;
  readonly known?: boolean;
  readonly eventTime?: number;
  readonly contactIdentity?: { readonly id: string; readonly email: string } | undefined;
  readonly mailingList?: { readonly id: string } | undefined;
  readonly contact?: { readonly subscribed?: boolean; readonly mailingLists?: Readonly<Record<string, boolean>> } | undefined;
}

type Change = (state: ContactState, event: FoldableEvent) => void;

const joins =
  (value: boolean): Change =>
  (state, event) => {
    if (event.mailingList !== undefined && isListId(event.mailingList.id)) state.mailingLists[event.mailingList.id] = value;
  };

/** A contact's lists as an event names them: list ids only, so that no key (`__proto__`, `constructor`) reads as a list joined. */
function listsOf(lists: Readonly<Record<string, boolean>> | undefined): [string, boolean][] {
  return Object.entries(lists ?? {}).filter(([id, on]) => isListId(id) && typeof on === 'boolean');
}

/** The change each event makes, and its rank inside one second (lower first). */
const CHANGES: Record<string, { rank: number; change: Change }> = {
  'contact.created': {
    rank: 0,
    change: (state, event) => {
      if (event.contact?.subscribed !== undefined) state.subscribed = event.contact.subscribed;
      for (const [id, on] of listsOf(event.contact?.mailingLists)) state.mailingLists[id] = on;
    },
  },
  'email.resubscribed': { rank: 1, change: (state) => void (state.subscribed = true) },
  'contact.mailingList.subscribed': { rank: 1, change: joins(true) },
  'contact.mailingList.unsubscribed': { rank: 2, change: joins(false) },
  'contact.unsubscribed': { rank: 2, change: (state) => void (state.subscribed = false) },
  'email.unsubscribed': { rank: 2, change: (state) => void (state.subscribed = false) },
  'email.hardBounced': { rank: 2, change: (state) => void (state.hardBounced = true) },
  'email.spamReported': { rank: 2, change: (state) => void (state.complained = true) },
};

/** Sent, delivered, soft-bounced, opened, clicked: they name the contact and change nothing else. */
const NAMES_ONLY = { rank: 1, change: () => {} };
const DELETED_RANK = 3;

const rankOf = (event: FoldableEvent) => (event.eventName === 'contact.deleted' ? DELETED_RANK : (CHANGES[event.eventName] ?? NAMES_ONLY).rank);

/** The fold's order: time, the rank inside a second, then the event's content, so that no two orders of the same events differ. */
function compare(a: { event: FoldableEvent; text: string }, b: { event: FoldableEvent; text: string }): number {
  return (a.event.eventTime ?? 0) - (b.event.eventTime ?? 0) || rankOf(a.event) - rankOf(b.event) || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0);
}

/**
 * Each contact the events name, by `contactIdentity.id`, with its state after all of them. A
 * contact whose last event is `contact.deleted` is not in the map; one created again after is, anew.
 */
export function contactState(events: Iterable<FoldableEvent>): Map<string, ContactState> {
  const ordered = [...events]
    .filter((event) => event.known !== false && event.contactIdentity !== undefined)
    .map((event) => ({ event, text: canonicalJson(event) }))
    .sort(compare);
  const contacts = new Map<string, ContactState>();
  for (const { event } of ordered) {
    const { id, email } = event.contactIdentity!;
    if (event.eventName === 'contact.deleted') {
      contacts.delete(id);
      continue;
    }
    let state = contacts.get(id);
    if (state === undefined) {
      // A contact first seen in an event other than its creation: subscribed, as every contact is until told otherwise.
      state = { email, subscribed: true, hardBounced: false, complained: false, mailingLists: {} };
      contacts.set(id, state);
    }
    state.email = email;
    (CHANGES[event.eventName] ?? NAMES_ONLY).change(state, event);
  }
  return contacts;
}
