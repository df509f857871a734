/**
 * Which theme an email is drawn with, as the renderers pick it: the one its `<Style themeId>` names
 * when the account holds a theme of that id exactly (as written: no space trimmed, no case folded);
 * else, none named, an empty one, or an id the account does not hold (deleted in the app, mistyped),
 * the account's default theme. The sandbox's inbox and its update's count of the emails a theme
 * reaches, `check`'s renders and the write gate's judgement of a theme's write (used-liveness.ts)
 * all pick it here, so that a write the gate lets go without a yes restyles no email it would draw.
 */
export function themeDrawnWith<T extends { id: string; isDefault?: unknown }>(themeId: string | undefined, themes: readonly T[]): T | undefined {
  return themes.find((theme) => theme.id === themeId) ?? themes.find((theme) => theme.isDefault === true);
}
