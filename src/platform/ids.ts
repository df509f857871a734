/**
 * Ids as the API issues them: letters, digits, `_` and `-`, at most 128. The sandbox answers 400
 * for a path id of any other shape; a plan, whose ids were all read from the account, holds none.
 */
export const ISSUED_ID = /^[A-Za-z0-9_-]{1,128}$/;

export function isIssuedId(value: unknown): value is string {
  return typeof value === 'string' && ISSUED_ID.test(value);
}

/**
 * A mailing list's id as a key of a contact's `mailingLists`: an issued id that is not a name every
 * object inherits (`__proto__`, `constructor`), which no list has and which would read as a list
 * the contact is on.
 */
export function isListId(value: unknown): value is string {
  return isIssuedId(value) && !(value in Object.prototype);
}
