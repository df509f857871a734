/**
 * How the columns of another provider's export become Loops contact fields: `--map column=property`,
 * the `--preset` of each provider's export columns, and the type a new property gets from the
 * values seen in its column.
 */
import { UsageError } from '../../base/errors.js';
import { lazily } from '../../base/lazily.js';
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
  /** Export and import-template columns (compared without case, spaces or punctuation) and the Loops fields they fill. */
  columns: Record<string, string>;
  /** Columns that hold subscription the other way round (true = unsubscribed). */
  unsubscribed?: string[];
  /** The provider's own bookkeeping (its ids, opt-in times, geo guesses): left out. */
  ignored?: string[];
}

export const PRESET_NAMES = ['sendgrid', 'mailchimp', 'kit', 'customerio', 'brevo', 'postmark', 'resend', 'mailgun'] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

// Each preset reads both what the provider's export writes and what its import template asks for;
// the sources of each column list are in docs/migrate.md, and the headers themselves are committed
// as test fixtures (test/corpus/contact-exports/).
export const PRESETS: Record<PresetName, Preset> = {
  // SendGrid's contact export writes its reserved fields in upper case (EMAIL, FIRST_NAME, LAST_NAME,
  // EXTERNAL_ID, CONTACT_ID, CREATED_AT, UPDATED_AT); its import template ("Formatting a CSV") the
  // same fields in lower case (email, first_name, last_name, address_line_1, ... external_id,
  // anonymous_id). Address and phone columns become properties of their own.
  sendgrid: {
    columns: { email: 'email', first_name: 'firstName', last_name: 'lastName', external_id: 'userId' },
    ignored: ['CONTACT_ID', 'CREATED_AT', 'UPDATED_AT', 'anonymous_id'],
  },
  // Mailchimp's audience export (one CSV each for subscribed, unsubscribed, cleaned) and its import
  // template: "Email Address", "First Name", "Last Name", then its own columns (MEMBER_RATING, ...).
  mailchimp: {
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
  // Kit (ConvertKit): its import takes email, first_name, last_name; its subscribers are written
  // with email_address, first_name, state and created_at.
  kit: {
    columns: { email: 'email', email_address: 'email', first_name: 'firstName', last_name: 'lastName' },
    ignored: ['id', 'created_at'],
  },
  // Customer.io's people export and CSV import: id (the app's own identifier), email, the
  // unsubscribed attribute, then any attribute.
  customerio: {
    columns: { id: 'userId', email: 'email', first_name: 'firstName', last_name: 'lastName' },
    unsubscribed: ['unsubscribed'],
    ignored: ['cio_id', 'created_at'],
  },
  // Brevo's import file and export: EMAIL, FIRSTNAME, LASTNAME, SMS, EXT_ID; an export adds
  // ADDED_TIME and MODIFIED_TIME.
  brevo: {
    columns: { EMAIL: 'email', FIRSTNAME: 'firstName', LASTNAME: 'lastName', EXT_ID: 'userId' },
    ignored: ['ADDED_TIME', 'MODIFIED_TIME'],
  },
  // Postmark keeps no audience: what it exports of recipients is its suppression dump
  // (EmailAddress, SuppressionReason, Origin, CreatedAt). Mostly a file for --exclude.
  postmark: {
    columns: { EmailAddress: 'email' },
    ignored: ['SuppressionReason', 'Origin', 'CreatedAt'],
  },
  // Resend's contacts: email, first_name, last_name and unsubscribed ("Whether the contact is
  // unsubscribed from all Broadcasts"), as its CSV import and export name them.
  resend: {
    columns: { email: 'email', first_name: 'firstName', last_name: 'lastName' },
    unsubscribed: ['unsubscribed'],
    ignored: ['id', 'created_at'],
  },
  // Mailgun's mailing list members: address, name ("An optional member name"), vars, subscribed
  // ("Set the member as subscribed or not"). name is a full name: map it with --map name=firstName
  // when it holds first names.
  mailgun: {
    columns: { address: 'email', subscribed: 'subscribed' },
    ignored: ['vars'],
  },
};

/** A column as presets compare it: `First Name`, `FIRST_NAME` and `first-name` are one. */
export function columnKey(column: string): string {
  return column.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/** What a preset makes of a column, whatever its case and separators; undefined for one it does not know. */
function presetTarget(preset: Preset, column: string): Target | undefined {
  const key = columnKey(column);
  for (const [name, field] of Object.entries(preset.columns)) if (columnKey(name) === key) return { name: field };
  if (preset.unsubscribed?.some((name) => columnKey(name) === key)) return { name: 'subscribed', inverted: true };
  if (preset.ignored?.some((name) => columnKey(name) === key)) return { name: undefined };
  return undefined;
}

/** The columns a preset reads the email from, as its documentation names them. */
export function presetEmailColumns(preset: Preset): string[] {
  return Object.entries(preset.columns)
    .filter(([, field]) => field === 'email')
    .map(([column]) => column);
}

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
const plainHeader = lazily(() => /^\p{L}[\p{L} _.-]{0,39}$/u);

/**
 * Whether a header may be quoted in a message (see plainHeader). The expression is made on first
 * use: V8 builds its Unicode letters' class when it makes it, and a find loads this module too.
 */
export function isPlainHeader(header: string): boolean {
  return plainHeader().test(header);
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
 * columns neither names are undefined (read by their own name, camelCased). A preset none of whose
 * email columns is in the header is a usage error naming them.
 */
export function columnTargets(header: readonly string[], maps: Map<string, Target>, presetName: PresetName | undefined, input: string): (Target | undefined)[] {
  const preset = presetName === undefined ? undefined : PRESETS[presetName];
  const named = new Set(header.map((column) => column.trim()));
  for (const column of maps.keys()) {
    if (!named.has(column))
      throw new UsageError(`${input}: --map names the column "${column}", which the header does not have`, { hint: `its columns: ${headerWords(header)}` });
  }
  const targets = header.map((raw) => {
    const column = raw.trim();
    return maps.get(column) ?? (preset === undefined ? undefined : presetTarget(preset, column));
  });
  if (preset !== undefined && !targets.some((target) => target?.name === 'email')) {
    const known = header.filter((column, index) => targets[index] !== undefined && isPlainHeader(column.trim())).map((column) => column.trim());
    const emails = presetEmailColumns(preset).map((column) => `"${column}"`);
    throw new UsageError(
      `${input}: the ${presetName} preset reads the email from the column ${emails.join(' or ')} (in any case), which the file does not have`,
      {
        hint: `${known.length === 0 ? `none of the preset's columns (${Object.keys(preset.columns).join(', ')}) is in the file: is it a ${presetName} export?` : `it has ${known.join(', ')}, but no email`}; or map the email column: --map <column>=email`,
      },
    );
  }
  return targets;
}

const BOOLEAN_TEXT = /^(true|false)$/i;
const DATE_TEXT = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

type ValueKind = 'boolean' | 'number' | 'date' | 'text';

function kindOf(text: string): ValueKind {
  if (BOOLEAN_TEXT.test(text)) return 'boolean';
  // A phone number (+1555…) or a code with a leading zero (02139) is text: as a number it would lose them.
  if (Number.isFinite(Number(text)) && !/^(\+|0\d)/.test(text)) return 'number';
  return DATE_TEXT.test(text) && !Number.isNaN(Date.parse(text)) ? 'date' : 'text';
}

const KIND_WORDS: Record<ValueKind, string> = { boolean: 'true or false', number: 'numbers', date: 'dates', text: 'text' };

/** The type a new property gets from the values seen in its column: the one kind they all are, text when none. */
export class TypeGuess {
  /** Each kind of value seen, with the line it was first seen on and the value. */
  private readonly kinds = new Map<ValueKind, { line: number; value: string }>();

  add(raw: string, line = 0): void {
    const text = raw.trim();
    if (text === '') return;
    const kind = kindOf(text);
    if (!this.kinds.has(kind)) this.kinds.set(kind, { line, value: text });
  }

  get type(): PropertyType {
    const [only, ...others] = this.kinds.keys();
    return only === undefined || others.length > 0 || only === 'text' ? 'string' : only;
  }

  /** Where the values are of two kinds or more (numbers and text, dates and numbers): each kind, with its first line and value; undefined when they are of one. */
  get mixed(): { kind: string; line: number; value: string }[] | undefined {
    if (this.kinds.size < 2) return undefined;
    return [...this.kinds].map(([kind, { line, value }]) => ({ kind: KIND_WORDS[kind], line, value })).sort((a, b) => a.line - b.line);
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
