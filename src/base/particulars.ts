/**
 * Words followed by their particulars, a line each ("that 13 live emails use" and each email): the
 * shape of a refusal that names many records. Where one line is wanted (a plan's list of units, a
 * line each), the particulars follow a colon, `;` between them. A line break inside a head or a
 * particular (a record's name from the API) is written `\n`, so that no name makes a line of its own.
 */

const ITEM = '\n  - ';

const oneLine = (text: string) => text.replace(/\r?\n|\r/g, '\\n');

/** The head and its particulars, a line each; the head alone when there is one (it then says it, after a colon). */
export function withParticulars(head: string, particulars: readonly string[]): string {
  const [only] = particulars;
  if (particulars.length === 1) return `${oneLine(head)}: ${oneLine(only!)}`;
  return oneLine(head) + particulars.map((particular) => ITEM + oneLine(particular)).join('');
}

/** The words with `clause` said after their head, before the particulars (`, which needs a person's yes`). */
export function saidBeforeParticulars(text: string, clause: string): string {
  const at = text.indexOf(ITEM);
  return at < 0 ? `${text}${clause}` : `${text.slice(0, at)}${clause}:${text.slice(at)}`;
}

/** The words in one line: the particulars after a colon, `;` between them. */
export function inOneLine(text: string): string {
  const [head, ...particulars] = text.split(ITEM);
  return particulars.length === 0 ? head! : `${head}: ${particulars.join('; ')}`;
}

/** Whether the words have their particulars a line each (an error then shows them as lines). */
export function hasParticulars(text: string): boolean {
  return text.includes(ITEM);
}
