/** Wording the CLI and the sandbox share. */

/** "a SendEmailAction", "an ExitAction": a name with the article its first letter takes. */
export function withArticle(name: string): string {
  return `${/^[aeiou]/i.test(name) ? 'an' : 'a'} ${name}`;
}

/**
 * A record's name as a slug (`Password reset` → `password-reset`): what a content tree's directory
 * of the record starts with, and the key `loopsctl types` gives the record in every format but
 * TypeScript's, the same in every account where the record has the same name.
 */
export function slugOf(name: string): string {
  return (
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'untitled'
  );
}
