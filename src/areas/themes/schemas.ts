/** Email themes and their styles. */
import { timestamp, z } from '../../api/schemas.js';

const color = z.string();
const size = z.number();

/** Theme styles, in the reference's groups; the grouping is what `themes show` prints. */
export const themeStyleGroups = {
  'Page background': { backgroundColor: color, backgroundXPadding: size, backgroundYPadding: size },
  Body: { bodyColor: color, bodyXPadding: size, bodyYPadding: size, bodyFontFamily: z.string(), bodyFontCategory: z.string() },
  Border: { borderColor: color, borderWidth: size, borderRadius: size },
  Button: {
    buttonBodyColor: color,
    buttonBodyXPadding: size,
    buttonBodyYPadding: size,
    buttonBorderColor: color,
    buttonBorderWidth: size,
    buttonBorderRadius: size,
    buttonTextColor: color,
    buttonTextFormat: size,
    buttonTextFontSize: size,
  },
  Divider: { dividerColor: color, dividerBorderWidth: size },
  'Base text': { textBaseColor: color, textBaseFontSize: size, textBaseLineHeight: size, textBaseLetterSpacing: size, textLinkColor: color },
  'Heading 1': { heading1Color: color, heading1FontSize: size, heading1LineHeight: size, heading1LetterSpacing: size },
  'Heading 2': { heading2Color: color, heading2FontSize: size, heading2LineHeight: size, heading2LetterSpacing: size },
  'Heading 3': { heading3Color: color, heading3FontSize: size, heading3LineHeight: size, heading3LetterSpacing: size },
} as const;

const g = themeStyleGroups;
export const themeStyles = z.looseObject({
  ...g['Page background'],
  ...g.Body,
  ...g.Border,
  ...g.Button,
  ...g.Divider,
  ...g['Base text'],
  ...g['Heading 1'],
  ...g['Heading 2'],
  ...g['Heading 3'],
});
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
