/** What the `contacts` commands do. */
import { RejectedError, UsageError } from '../../base/errors.js';
import { type Handler, handler, type Uses } from '../../core/capabilities.js';
import { type Explanation, explained, UNKNOWN_LIST, unknownListHint } from '../../core/explain.js';
import { parseAssignments, typedValues } from '../../core/typed-values.js';
import { isStandardField } from '../../platform/contact-properties/typing.js';
import { PropertyTypes } from '../contact-properties/typing.js';
import { MailingListNames, mailingListsOf } from '../lists/names.js';
import { type ContactRef, createContact, deleteContact, removeSuppression, suppressionStatus, updateContact } from './client.js';
import { describe, oneRef, type RefOptions } from './ref.js';
import { renderRemoval, renderSuppression } from './render.js';

export interface FieldOptions extends RefOptions {
  firstName?: string;
  lastName?: string;
  userGroup?: string;
  source?: string;
  subscribed?: boolean;
  unsubscribed?: boolean;
  list?: string[];
  prop?: string[];
  propsFile?: string;
}

/** The flag that names the contact, as given, for a command in a hint. */
function refFlag(ref: ContactRef): string {
  return 'email' in ref ? `--email ${ref.email}` : `--user-id ${ref.userId}`;
}

/** A contact the API does not know: check what was given, or look it up by the other identifier (contacts have no list). */
function unknownContact(ref: ContactRef): Explanation {
  const hint =
    'email' in ref
      ? 'check the address, or look the contact up by its userId with `loopsctl contacts find --user-id <id>`'
      : 'check the userId, or look the contact up by its email with `loopsctl contacts find --email <email>`';
  return { statuses: { 404: hint } };
}

/**
 * The request body from the field flags: the standard fields, mailingLists from --list (each list
 * by its id or its name), and custom properties from --props-file and --prop (checked against the
 * account's property types first).
 */
async function contactBody(context: Uses<'client' | 'files'>, options: FieldOptions): Promise<Record<string, unknown>> {
  const custom = await typedValues(context.runtime, {
    flag: '--prop',
    raws: options.prop,
    fileFlag: '--props-file',
    file: options.propsFile,
    allowed: 'scalar',
  });
  // A value is named by where it was written: --prop wins over the file, so the rest came from the file.
  const onFlags = new Set(Object.keys(parseAssignments('--prop', options.prop, 'scalar')));
  const fromFile = (name: string) => options.propsFile !== undefined && !onFlags.has(name);
  for (const name of Object.keys(custom)) {
    if (isStandardField(name))
      throw new UsageError(`${fromFile(name) ? '--props-file' : '--prop'} ${name}: ${name} is a standard field, not a custom property`, {
        hint: 'set it with its own flag (see --help)',
      });
  }
  const types = new PropertyTypes(() => context.client());
  const split = (file: boolean) => Object.fromEntries(Object.entries(custom).filter(([name]) => fromFile(name) === file));
  await types.check(split(true), '--props-file', { json: true });
  const onFlag = await types.check(split(false), '--prop');
  const standard = {
    email: options.email,
    userId: options.userId,
    firstName: options.firstName,
    lastName: options.lastName,
    userGroup: options.userGroup,
    source: options.source,
    subscribed: options.subscribed ? true : options.unsubscribed ? false : undefined,
    mailingLists: await mailingListsOf(options.list, new MailingListNames(() => context.client())),
  };
  const body = Object.fromEntries(Object.entries(standard).filter(([, value]) => value !== undefined));
  return { ...body, ...custom, ...onFlag };
}

export const create: Handler<[], FieldOptions & { email: string }> = handler(['out', 'client', 'files'], async (context, _args, options) => {
  const body = await contactBody(context, options);
  let saved;
  try {
    saved = await explained(createContact(await context.client(), body), UNKNOWN_LIST);
  } catch (error) {
    if (!(error instanceof RejectedError) || error.status !== 409) throw error;
    throw new RejectedError(error.message, {
      status: error.status,
      code: error.code,
      hint: `the contact exists; change it with \`loopsctl contacts update --email ${options.email} ...\``,
    });
  }
  await context.out.present(saved, () => `Created contact ${saved.id} (${options.email})\n`);
});

export const update: Handler<[], FieldOptions> = handler(['out', 'client', 'files'], async (context, _args, options) => {
  const body = await contactBody(context, options);
  const saved = await explained(updateContact(await context.client(), body), {
    statuses: {
      // A userId alone creates nothing: a new contact needs an email.
      400: (message) =>
        unknownListHint(message) ??
        (options.email === undefined && /userId/.test(message) && /email/i.test(message)
          ? `to create the contact, give --email too (\`loopsctl contacts update --user-id ${options.userId} --email <email> ...\`); or check the userId with \`loopsctl contacts find --user-id ${options.userId}\``
          : undefined),
    },
  });
  // The API answers the same way whether it updated a contact or created one.
  await context.out.present(saved, () => `Saved contact ${saved.id}: updated, or created if none matched\n`);
});

export const remove: Handler<[], RefOptions & { yes?: boolean }> = handler(['out', 'client', 'prompts'], async (context, _args, options) => {
  const ref = oneRef(options);
  await context.confirm(`Delete the contact ${describe(ref)}?`, options.yes);
  const deleted = await explained(deleteContact(await context.client(), ref), unknownContact(ref));
  await context.out.present(deleted, () => `${deleted.message}\n`);
});

export const suppressionGet: Handler<[], RefOptions> = handler(['out', 'client'], async (context, _args, options) => {
  const ref = oneRef(options);
  const status = await explained(suppressionStatus(await context.client(), ref), unknownContact(ref));
  await context.out.present(status, renderSuppression);
});

export const suppressionRemove: Handler<[], RefOptions & { yes?: boolean }> = handler(['out', 'client', 'prompts'], async (context, _args, options) => {
  const ref = oneRef(options);
  await context.confirm(`Remove ${describe(ref)} from the suppression list (this uses one of the 30-day removals)?`, options.yes);
  const removed = await explained(removeSuppression(await context.client(), ref), {
    statuses: {
      ...unknownContact(ref).statuses,
      400: (message) =>
        /not suppressed/i.test(message)
          ? `there is nothing to remove, and no removal was used; see its status with \`loopsctl contacts suppression get ${refFlag(ref)}\``
          : undefined,
    },
  });
  await context.out.present(removed, renderRemoval);
});
