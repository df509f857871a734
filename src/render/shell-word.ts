/** A word a POSIX shell reads back as it is: an API's cursor, or a path, may hold anything. */
export function shellWord(text: string): string {
  return /^[A-Za-z0-9_=+/.,:@%-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
