/** Email themes and their styles. */
import { z } from '../../base/shapes.js';
import { timestamp } from '../schemas.js';
import { type StyleName, THEME_STYLES } from './style-names.js';

type StyleShape = { [K in StyleName]: (typeof THEME_STYLES)[K] extends 'number' ? z.ZodMiniOptional<z.ZodMiniNumber> : z.ZodMiniOptional<z.ZodMiniString> };

/**
 * Colours are hex codes and fonts names, both strings; sizes are numbers. Every style is optional:
 * a theme the API sends without one must still list and show (an absent style reads as `-`).
 */
export const themeStyles = z.looseObject(
  Object.fromEntries(Object.entries(THEME_STYLES).map(([key, kind]) => [key, z.optional(kind === 'number' ? z.number() : z.string())])) as StyleShape,
);
export type ThemeStyles = z.infer<typeof themeStyles>;

export const theme = z.looseObject({
  id: z.string(),
  name: z.string(),
  styles: themeStyles,
  isDefault: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type Theme = z.infer<typeof theme>;

/** An update's answer: the theme, and how many emails the style change reached. */
export const updatedTheme = z.extend(theme, { affectedEmailCount: z.number() });
export type UpdatedTheme = z.infer<typeof updatedTheme>;
