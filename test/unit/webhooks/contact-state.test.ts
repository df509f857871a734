/** The contact fold: each event's change, the rule for events inside one second, and the same state for every arrival order. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contactState, type FoldableEvent, parseWebhookEvent, webhookFixtures } from '../../../src/webhooks/index.js';

const ADA = { id: 'cada00000000000000000000a', email: 'ada@example.com', userId: null };
const NEWS = { id: 'clist0000000000000000news', name: 'News', description: null, isPublic: true };
const email = { id: 'cemail000000000000000000a', emailMessageId: 'cmsg00000000000000000000a', subject: 'Hello' };

/** An event of the platform's shape about a contact, at a second. */
function event(eventName: string, eventTime: number, extra: Record<string, unknown> = {}, contactIdentity = ADA): FoldableEvent {
  return { eventName, eventTime, webhookSchemaVersion: '1.0.0', contactIdentity, ...extra } as FoldableEvent;
}
const created = (at: number, subscribed = true) =>
  event('contact.created', at, {
    contact: { ...ADA, firstName: 'Ada', lastName: null, source: 'API', subscribed, userGroup: '', mailingLists: { [NEWS.id]: true }, optInStatus: null },
  });
const metric = (name: string, at: number) => event(name, at, { email, sourceType: 'campaign', campaignId: 'ccamp0000000000000000000a' });

describe('contactState', () => {
  it('keeps a contact created with its lists, by contactIdentity.id', () => {
    expect(contactState([created(100)])).toEqual(
      new Map([[ADA.id, { email: ADA.email, subscribed: true, hardBounced: false, complained: false, mailingLists: { [NEWS.id]: true } }]]),
    );
  });

  it("takes only list ids from a contact's lists: a signed body with __proto__ or constructor puts the contact on no list it never joined", () => {
    const creation = JSON.stringify(created(100)).replace(
      `"mailingLists":{"${NEWS.id}":true}`,
      `"mailingLists":{"${NEWS.id}":true,"__proto__":{"clist0000000000000000fake":true},"constructor":true,"toString":true,"a list":true}`,
    );
    const joined = JSON.stringify(event('contact.mailingList.subscribed', 200, { mailingList: { ...NEWS, id: 'constructor' } }));
    // Parsed, they are not events of the platform's shape.
    expect(parseWebhookEvent(creation)).toMatchObject({ known: false, problem: expect.stringContaining('"__proto__" key (at contact.mailingLists)') });
    const protoAlone = JSON.stringify(created(100)).replace(`"mailingLists":{"${NEWS.id}":true}`, '"mailingLists":{"__proto__":{}}');
    expect(parseWebhookEvent(protoAlone)).toMatchObject({ known: false, problem: expect.stringContaining('"__proto__" key') });
    expect(parseWebhookEvent(protoAlone.replace('"__proto__"', '"\\u005f_proto__"'))).toMatchObject({
      known: false,
      problem: expect.stringContaining('"__proto__" key'),
    });
    expect(parseWebhookEvent(creation.replace(',"__proto__":{"clist0000000000000000fake":true}', ''))).toMatchObject({
      known: false,
      problem: expect.stringContaining('contact.mailingLists.constructor'),
    });
    expect(parseWebhookEvent(joined)).toMatchObject({ known: false, problem: expect.stringContaining('mailingList.id') });
    // Folded as they came (JSON.parse), the keys that are not list ids are passed over.
    const lists = contactState([JSON.parse(creation), JSON.parse(joined)]).get(ADA.id)!.mailingLists;
    expect(lists).toEqual({ [NEWS.id]: true });
    expect(Object.getPrototypeOf(lists)).toBe(Object.prototype);
    expect(Object.hasOwn(lists, 'constructor')).toBe(false);
  });

  it('marks a hard bounce and the unsubscription the platform sends with it', () => {
    const state = contactState([created(100), metric('email.hardBounced', 200), event('contact.unsubscribed', 200)]).get(ADA.id);
    expect(state).toMatchObject({ subscribed: false, hardBounced: true, complained: false });
  });

  it('marks a spam report as a complaint', () => {
    expect(contactState([created(100), metric('email.spamReported', 200)]).get(ADA.id)).toMatchObject({ complained: true, subscribed: true });
  });

  it('follows an unsubscription and a later resubscription, in either arrival order', () => {
    const events = [created(100), metric('email.unsubscribed', 200), metric('email.resubscribed', 300)];
    expect(contactState(events).get(ADA.id)?.subscribed).toBe(true);
    expect(contactState(events.toReversed()).get(ADA.id)?.subscribed).toBe(true);
  });

  it('ends unsubscribed when an unsubscription and a resubscription share one second', () => {
    const events = [created(100), metric('email.resubscribed', 200), metric('email.unsubscribed', 200)];
    expect(contactState(events).get(ADA.id)?.subscribed).toBe(false);
    expect(contactState(events.toReversed()).get(ADA.id)?.subscribed).toBe(false);
  });

  it('joins and leaves lists, a leave in the same second as a join winning', () => {
    const other = { ...NEWS, id: 'clist000000000000000other' };
    const events = [
      created(100),
      event('contact.mailingList.unsubscribed', 200, { mailingList: NEWS }),
      event('contact.mailingList.subscribed', 300, { mailingList: other }),
      event('contact.mailingList.unsubscribed', 300, { mailingList: other }),
    ];
    expect(contactState(events).get(ADA.id)?.mailingLists).toEqual({ [NEWS.id]: false, [other.id]: false });
    expect(contactState([...events, event('contact.mailingList.subscribed', 400, { mailingList: NEWS })]).get(ADA.id)?.mailingLists[NEWS.id]).toBe(true);
  });

  it('forgets a deleted contact, and knows one created again after', () => {
    expect(contactState([created(100), event('contact.deleted', 200), event('contact.unsubscribed', 200)]).has(ADA.id)).toBe(false);
    expect(contactState([created(100), event('contact.deleted', 200), created(300, false)]).get(ADA.id)).toMatchObject({ subscribed: false });
  });

  it('takes the email address of the latest event, as a contact may change it', () => {
    const renamed = { ...ADA, email: 'ada.l@example.com' };
    expect(contactState([metric('email.opened', 300), created(100), event('email.delivered', 200, {}, renamed)]).get(ADA.id)?.email).toBe(ADA.email);
    expect(contactState([created(100), event('email.delivered', 400, { email, sourceType: 'loop' }, renamed)]).get(ADA.id)?.email).toBe(renamed.email);
  });

  it('passes over events it does not know and events about no contact', () => {
    const unknown = { eventName: 'contact.merged', known: false, raw: { contactIdentity: ADA } } as unknown as FoldableEvent;
    const test = { eventName: 'testing.testEvent', eventTime: 100, message: 'test' } as FoldableEvent;
    expect(contactState([unknown, test]).size).toBe(0);
  });
});

describe('contactState of the library', () => {
  it('folds the events parseWebhookEvent returns, of every type, as they come', () => {
    const events = webhookFixtures().map((fixture) => parseWebhookEvent(JSON.stringify({ ...fixture, known: undefined })));
    const state = contactState(events.filter((event) => event.eventName !== 'contact.deleted'));
    expect([...state.values()].every((contact) => contact.email === 'jane.doe@example.com')).toBe(true);
    expect([...state.values()].some((contact) => contact.hardBounced)).toBe(true);
  });
});

describe('contactState over every arrival order', () => {
  const contacts = [ADA, { id: 'cbob00000000000000000000b', email: 'bob@example.com', userId: null }];
  const lists = [NEWS, { ...NEWS, id: 'clist000000000000000other' }];
  const KINDS = [
    'contact.created',
    'contact.unsubscribed',
    'contact.deleted',
    'contact.mailingList.subscribed',
    'contact.mailingList.unsubscribed',
    'email.delivered',
    'email.hardBounced',
    'email.spamReported',
    'email.unsubscribed',
    'email.resubscribed',
  ];
  // Three seconds for up to 24 events: most share a second with another.
  const anyEvent = fc
    .record({
      kind: fc.constantFrom(...KINDS),
      at: fc.integer({ min: 0, max: 2 }),
      who: fc.constantFrom(...contacts),
      list: fc.constantFrom(...lists),
      subscribed: fc.boolean(),
      renamed: fc.boolean(),
    })
    .map(({ kind, at, who, list, subscribed, renamed }) => {
      const identity = renamed ? { ...who, email: `new.${who.email}` } : who;
      if (kind === 'contact.created') return event(kind, at, { contact: { ...identity, subscribed, mailingLists: { [list.id]: subscribed } } }, identity);
      if (kind.startsWith('contact.mailingList')) return event(kind, at, { mailingList: list }, identity);
      return event(kind, at, kind.startsWith('email.') ? { email, sourceType: 'campaign' } : {}, identity);
    });
  const arrivals = fc
    .array(anyEvent, { minLength: 1, maxLength: 24 })
    .chain((events) => fc.tuple(fc.constant(events), fc.shuffledSubarray(events, { minLength: events.length, maxLength: events.length })));

  it('gives the same state whatever order the events arrive in', () => {
    fc.assert(
      fc.property(arrivals, ([events, shuffled]) => {
        expect(contactState(shuffled)).toEqual(contactState(events));
      }),
      { numRuns: 500 },
    );
  });

  it('gives the same state when some events are delivered twice', () => {
    fc.assert(
      fc.property(arrivals, ([events, shuffled]) => {
        expect(contactState([...shuffled, ...events.slice(0, 3)])).toEqual(contactState(events));
      }),
    );
  });
});
