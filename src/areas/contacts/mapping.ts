/**
 * How the columns of another provider's export become Loops contact fields: `--map column=property`,
 * the `--preset` of each provider's export columns, and the type a new property gets from the
 * values seen in its column.
 */
import { UsageError } from '../../base/errors.js';
import type { PropertyType } from '../../platform/contact-properties/schemas.js';
import { STANDARD_FIELDS } from '../../platform/contact-properties/typing.js';

/** What a column becomes: a field or property, nothing (left out), or subscribed read the other way round. */
export interface Target {
  /** The field or property; undefined leaves the column out. */
  name: string | undefined;
  /** The column says "unsubscribed": true there is subscribed false here. */
  inverted?: boolean;
}

export interface Preset {
  /** The column every export of this provider has: its email address. */
  email: string;
  /** Export columns and the Loops fields they fill. */
  columns: Record<string, string>;
  /** Columns that hold subscription the other way round (true = unsubscribed). */
  unsubscribed?: string[];
  /** The provider's own bookkeeping (its ids, opt-in times, geo guesses): left out. */
  ignored?: string[];
}

export const PRESET_NAMES = ['sendgrid', 'mailchimp', 'customerio', 'postmark', 'resend', 'mailgun'] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

export const PRESETS: Record<PresetName, Preset> = {
  // SendGrid Marketing Campaigns' contact export (POST /v3/marketing/contacts/exports, "The lists
  // will be provided in either JSON or CSV files"): reserved fields in upper case, EMAIL,
  // FIRST_NAME, LAST_NAME, EXTERNAL_ID, then custom fields.
  // https://www.twilio.com/docs/sendgrid/api-reference/contacts/export-contacts
  sendgrid: {
    email: 'EMAIL',
    columns: { EMAIL: 'email', FIRST_NAME: 'firstName', LAST_NAME: 'lastName', EXTERNAL_ID: 'userId' },
    ignored: ['CONTACT_ID', 'CREATED_AT', 'UPDATED_AT'],
  },
  // Mailchimp's audience export: a zip of three CSVs (subscribed, unsubscribed, cleaned), with
  // "Email Address" ("The only field that MailChimp requires is Email Address"), "First Name",
  // "Last Name", then its own columns (MEMBER_RATING, OPTIN_TIME, ... LEID, EUID, TAGS).
  // https://kb.mailchimp.com/lists/growth/format-guidelines-for-your-import-file
  mailchimp: {
    email: 'Email Address',
    columns: { 'Email Address': 'email', 'First Name': 'firstName', 'Last Name': 'lastName' },
    ignored: [
      'MEMBER_RATING',
      'OPTIN_TIME',
      'OPTIN_IP',
      'CONFIRM_TIME',
      'CONFIRM_IP',
      'LATITUDE',
      'LONGITUDE',
      'GMTOFF',
      'DSTOFF',
      'TIMEZONE',
      'CC',
      'REGION',
      'LAST_CHANGED',
      'LEID',
      'EUID',
      'NOTES',
      'TAGS',
      'UNSUB_TIME',
      'UNSUB_CAMPAIGN_TITLE',
      'UNSUB_CAMPAIGN_ID',
      'UNSUB_REASON',
      'UNSUB_REASON_OTHER',
      'CLEAN_TIME',
      'CLEAN_CAMPAIGN_TITLE',
      'CLEAN_CAMPAIGN_ID',
    ],
  },
  // Customer.io's people export (POST /v1/exports/customers, "Recipient attributes you want to
  // include as extra columns"): id (the app's own identifier), email, the unsubscribed attribute.
  // https://docs.customer.io/integrations/api/app/tag/exports/exportPeopleData/
  customerio: {
    email: 'email',
    columns: { id: 'userId', email: 'email', first_name: 'firstName', last_name: 'lastName' },
    unsubscribed: ['unsubscribed'],
    ignored: ['cio_id', 'created_at'],
  },
  // Postmark keeps no audience: what it exports of recipients is its suppression dump
  // (EmailAddress, SuppressionReason, Origin, CreatedAt). Mostly a file for --exclude.
  // https://github.com/ActiveCampaign/postmark-dotnet/wiki/Managing-Suppressions
  postmark: {
    email: 'EmailAddress',
    columns: { EmailAddress: 'email' },
    ignored: ['SuppressionReason', 'Origin', 'CreatedAt'],
  },
  // Resend's contacts: email, first_name, last_name and unsubscribed ("Whether the contact is
  // unsubscribed from all Broadcasts"), as its CSV import and export name them.
  // https://resend.com/docs/dashboard/audiences/contacts
  resend: {
    email: 'email',
    columns: { email: 'email', first_name: 'firstName', last_name: 'lastName' },
    unsubscribed: ['unsubscribed'],
    ignored: ['id', 'created_at'],
  },
  // Mailgun's mailing list members: address, name ("An optional member name"), vars, subscribed
  // ("Set the member as subscribed or not"). name is a full name: map it with --map name=firstName
  // when it holds first names.
  // https://documentation.mailgun.com/docs/mailgun/api-reference/send/mailgun/mailing-lists/post-lists-string:list_address-members
  mailgun: {
    email: 'address',
    columns: { address: 'email', subscribed: 'subscribed' },
    ignored: ['vars'],
  },
};

/** `--map column=property` flags as one map; a column mapped twice, or two columns to one property, is a usage error. */
export function parseMaps(raws: readonly string[] | undefined): Map<string, Target> {
  const maps = new Map<string, Target>();
  const claimed = new Map<string, string>();
  for (const raw of raws ?? []) {
    const at = raw.lastIndexOf('=');
    const column = at < 0 ? '' : raw.slice(0, at).trim();
    if (column === '')
      throw new UsageError(`--map "${raw}": expected <column>=<property>`, {
        hint: 'for example --map "Email Address=email"; an empty property leaves the column out',
      });
    const property = raw.slice(at + 1).trim();
    if (maps.has(column)) throw new UsageError(`--map: the column "${column}" is mapped twice`, { hint: 'map each column to one property' });
    const earlier = property === '' ? undefined : claimed.get(property);
    if (earlier !== undefined)
      throw new UsageError(`--map: the columns "${earlier}" and "${column}" are both mapped to ${property}`, { hint: 'map one column to each property' });
    if (property !== '') claimed.set(property, column);
    maps.set(column, { name: property === '' ? undefined : property });
  }
  return maps;
}

/**
 * A CSV header is the first line of whatever file was named, and a file that is no CSV (a link to
 * a key, a credentials file) would have that line printed by a message quoting its columns. A
 * column is quoted only when its header is a plain name (letters, spaces, `_`, `-`, `.`, at most 40
 * characters: what an export's headers are, and what a key or a secret, with its digits and
 * symbols, is not); any other column is named by its position.
 */
const PLAIN_HEADER = /^\p{L}[\p{L} _.-]{0,39}$/u;

/** Whether a header may be quoted in a message (see PLAIN_HEADER). */
export function isPlainHeader(header: string): boolean {
  return PLAIN_HEADER.test(header);
}

/** A column as a message names it: `the column "First Name"`, or `column 3` when its header is not a plain name. */
export function columnWords(header: string, index: number): string {
  return isPlainHeader(header) ? `the column "${header}"` : `column ${index + 1} (its header is not a plain name, so it is not shown)`;
}

/** A header's columns as a message lists them: plain names quoted, the others by position. */
export function headerWords(header: readonly string[]): string {
  return header.map((raw, index) => (isPlainHeader(raw.trim()) ? raw.trim() : `column ${index + 1}`)).join(', ');
}

/**
 * What each header column becomes under the preset and the `--map` flags (which win): the
 * columns neither names are undefined (read as before, by their own name). A preset whose email
 * column is not in the header is a usage error naming it.
 */
export function columnTargets(header: readonly string[], maps: Map<string, Target>, presetName: PresetName | undefined, input: string): (Target | undefined)[] {
  const preset = presetName === undefined ? undefined : PRESETS[presetName];
  const named = new Set(header.map((column) => column.trim()));
  for (const column of maps.keys()) {
    if (!named.has(column))
      throw new UsageError(`${input}: --map names the column "${column}", which the header does not have`, { hint: `its columns: ${headerWords(header)}` });
  }
  const emailMapped = [...maps.values()].some((target) => target.name === 'email');
  if (preset !== undefined && !named.has(preset.email) && !emailMapped) {
    const known = [...Object.keys(preset.columns), ...(preset.unsubscribed ?? [])].filter((column) => named.has(column));
    throw new UsageError(`${input}: the ${presetName} preset reads the email from the column "${preset.email}", which the file does not have`, {
      hint: `${known.length === 0 ? `none of the preset's columns (${Object.keys(preset.columns).join(', ')}) is in the file: is it a ${presetName} export?` : `it has ${known.join(', ')}, but no email`}; or map the email column: --map <column>=email`,
    });
  }
  return header.map((raw) => {
    const column = raw.trim();
    const mapped = maps.get(column);
    if (mapped !== undefined) return mapped;
    if (preset === undefined) return undefined;
    if (Object.hasOwn(preset.columns, column)) return { name: preset.columns[column] };
    if (preset.unsubscribed?.includes(column)) return { name: 'subscribed', inverted: true };
    if (preset.ignored?.includes(column)) return { name: undefined };
    return undefined;
  });
}

const BOOLEAN_TEXT = /^(true|false)$/i;
const DATE_TEXT = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** The type a new property gets from the values seen in its column: the narrowest all of them fit. */
export class TypeGuess {
  private boolean = true;
  private number = true;
  private date = true;
  private any = false;

  add(raw: string): void {
    const text = raw.trim();
    if (text === '') return;
    this.any = true;
    this.boolean &&= BOOLEAN_TEXT.test(text);
    this.number &&= Number.isFinite(Number(text));
    this.date &&= DATE_TEXT.test(text) && !Number.isNaN(Date.parse(text));
  }

  get type(): PropertyType {
    if (!this.any) return 'string';
    if (this.boolean) return 'boolean';
    if (this.number) return 'number';
    return this.date ? 'date' : 'string';
  }
}

/** A lists cell's names or ids: separated by ";" or ",". */
export function listNames(cell: string): string[] {
  return cell
    .split(/[;,]/)
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

/** The names under which an export's suppression file gives its addresses, compared without case, spaces or punctuation. */
const EMAIL_COLUMNS = ['email', 'emailaddress', 'address', 'recipient', 'recipientemail', 'mail'];

/** The index of a suppression file's email column, or -1. */
export function emailColumn(header: readonly string[]): number {
  const plain = header.map((column) => column.toLowerCase().replace(/[^a-z]/g, ''));
  for (const name of EMAIL_COLUMNS) {
    const index = plain.indexOf(name);
    if (index >= 0) return index;
  }
  return -1;
}

/** The standard field a column names, case aside (mailingLists is no column); undefined for a custom property. */
export function standardField(column: string): string | undefined {
  return STANDARD_FIELDS.find((field) => field !== 'mailingLists' && field.toLowerCase() === column.toLowerCase());
}
