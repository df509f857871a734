/**
 * The sandbox's own paths, outside the API's (the API's are the contract's, src/platform): the
 * routes that answer them, the registry that loads those routes, the fixtures and trials that call
 * them and the `loopsctl sandbox` commands that ask them all read these names.
 */

/** POST it (with `{"seed": "empty"}` or `{"seed": "demo"}`, or no body for the seed it started from) to start over without a restart. */
export const RESET_PATH = '/_sandbox/reset';
/** The inbox's page (src/emulator/inbox.ts), beside the API: no key, read only. */
export const INBOX_PATH = '/_sandbox/inbox';
/** The sandbox's time: GET it, or POST `{"advance": "3d"}` or `{"to": "<ISO time>"}`. */
export const CLOCK_PATH = '/_sandbox/clock';
/** The contacts' journeys through the workflows: GET them, or POST one to place a contact part-way. */
export const JOURNEYS_PATH = '/_sandbox/journeys';
/** A campaign sent as the app's Send button sends it. */
export const CAMPAIGN_SEND_PATH = '/_sandbox/campaigns/send';
/** What an email's later sends meet: its delivery, open, click, bounce, spam and unsubscribe rates. */
export const ENGAGEMENT_PATH = '/_sandbox/engagement';
