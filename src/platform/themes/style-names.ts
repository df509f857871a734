/**
 * The theme styles the API knows, each with its kind, in the reference's groups. A constant
 * module without zod: the schemas are built from it, and `--help` lists it without loading them.
 */
export const THEME_STYLES = {
  backgroundColor: 'colour',
  backgroundXPadding: 'number',
  backgroundYPadding: 'number',
  bodyColor: 'colour',
  bodyXPadding: 'number',
  bodyYPadding: 'number',
  bodyFontFamily: 'text',
  bodyFontCategory: 'text',
  borderColor: 'colour',
  borderWidth: 'number',
  borderRadius: 'number',
  buttonBodyColor: 'colour',
  buttonBodyXPadding: 'number',
  buttonBodyYPadding: 'number',
  buttonBorderColor: 'colour',
  buttonBorderWidth: 'number',
  buttonBorderRadius: 'number',
  buttonTextColor: 'colour',
  buttonTextFormat: 'number',
  buttonTextFontSize: 'number',
  dividerColor: 'colour',
  dividerBorderWidth: 'number',
  textBaseColor: 'colour',
  textBaseFontSize: 'number',
  textBaseLineHeight: 'number',
  textBaseLetterSpacing: 'number',
  textLinkColor: 'colour',
  heading1Color: 'colour',
  heading1FontSize: 'number',
  heading1LineHeight: 'number',
  heading1LetterSpacing: 'number',
  heading2Color: 'colour',
  heading2FontSize: 'number',
  heading2LineHeight: 'number',
  heading2LetterSpacing: 'number',
  heading3Color: 'colour',
  heading3FontSize: 'number',
  heading3LineHeight: 'number',
  heading3LetterSpacing: 'number',
} as const;

export type StyleName = keyof typeof THEME_STYLES;

/** The styles by the group the theme editor shows them in; `themes get` prints them so. */
export const THEME_STYLE_GROUPS: Record<string, StyleName[]> = {
  'Page background': ['backgroundColor', 'backgroundXPadding', 'backgroundYPadding'],
  Body: ['bodyColor', 'bodyXPadding', 'bodyYPadding', 'bodyFontFamily', 'bodyFontCategory'],
  Border: ['borderColor', 'borderWidth', 'borderRadius'],
  Button: [
    'buttonBodyColor',
    'buttonBodyXPadding',
    'buttonBodyYPadding',
    'buttonBorderColor',
    'buttonBorderWidth',
    'buttonBorderRadius',
    'buttonTextColor',
    'buttonTextFormat',
    'buttonTextFontSize',
  ],
  Divider: ['dividerColor', 'dividerBorderWidth'],
  'Base text': ['textBaseColor', 'textBaseFontSize', 'textBaseLineHeight', 'textBaseLetterSpacing', 'textLinkColor'],
  'Heading 1': ['heading1Color', 'heading1FontSize', 'heading1LineHeight', 'heading1LetterSpacing'],
  'Heading 2': ['heading2Color', 'heading2FontSize', 'heading2LineHeight', 'heading2LetterSpacing'],
  'Heading 3': ['heading3Color', 'heading3FontSize', 'heading3LineHeight', 'heading3LetterSpacing'],
};

export function isStyleName(key: string): key is StyleName {
  return Object.hasOwn(THEME_STYLES, key);
}
