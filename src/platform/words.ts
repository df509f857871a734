/** Wording the CLI and the sandbox share. */

/** "a SendEmailAction", "an ExitAction": a name with the article its first letter takes. */
export function withArticle(name: string): string {
  return `${/^[aeiou]/i.test(name) ? 'an' : 'a'} ${name}`;
}
