/**
 * The one local check of an email address, made before anything is sent wherever loopsctl takes
 * one (a flag, a row of an import) and by the sandbox as the API makes it: something@domain.tld,
 * no spaces.
 */
export const EMAIL_ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmailAddress(text: string): boolean {
  return EMAIL_ADDRESS.test(text);
}

/** What an address must look like, for messages. */
export const EMAIL_REQUIREMENT = 'an email address (name@example.com)';
