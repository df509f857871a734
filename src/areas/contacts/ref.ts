/** How a `contacts` command names the one contact it reads or changes. */
import type { ContactRef } from './client.js';

export interface RefOptions {
  email?: string;
  userId?: string;
}

/** How the API names one contact: --email or --user-id, exactly one of which the declaration lets through. */
export function oneRef(options: RefOptions): ContactRef {
  return options.email !== undefined ? { email: options.email } : { userId: options.userId! };
}

export function describe(ref: ContactRef): string {
  return 'email' in ref ? ref.email : `userId ${ref.userId}`;
}
