/**
 * The platform's default theme, the one of a new team: every other theme's missing styles, and an
 * email's unset ones (a `<Style />` attribute left empty), fall back to it. The LMX renderer
 * (`content render`, `content preview`) and the sandbox's seed both read it from here, so one
 * email draws the same in `content render` and in the sandbox's inbox.
 *
 * The sizes are those the platform's export of a default-theme email carries in its `<Style />`:
 * no page or body padding, no border, 4 px corners, 14 px text, line heights in percent. The
 * export leaves the colours empty, for the client to adapt to light or dark; drawn locally, an
 * unset colour takes the value here, those of the API reference's default theme.
 */
import type { StyleName } from './style-names.js';

export const DEFAULT_THEME_STYLES: Readonly<Record<StyleName, string | number>> = {
  backgroundColor: '#f5f5f5',
  backgroundXPadding: 0,
  backgroundYPadding: 0,
  bodyColor: '#ffffff',
  bodyXPadding: 0,
  bodyYPadding: 0,
  bodyFontFamily: 'Default',
  bodyFontCategory: 'sans-serif',
  borderColor: '#e5e5e5',
  borderWidth: 0,
  borderRadius: 4,
  buttonBodyColor: '#111827',
  buttonBodyXPadding: 16,
  buttonBodyYPadding: 12,
  buttonBorderColor: '#111827',
  buttonBorderWidth: 0,
  buttonBorderRadius: 4,
  buttonTextColor: '#ffffff',
  buttonTextFormat: 0,
  buttonTextFontSize: 16,
  dividerColor: '#e5e5e5',
  dividerBorderWidth: 1,
  textBaseColor: '#374151',
  textBaseFontSize: 14,
  textBaseLineHeight: 150,
  textBaseLetterSpacing: 0,
  textLinkColor: '#2563eb',
  heading1Color: '#111827',
  heading1FontSize: 28,
  heading1LineHeight: 125,
  heading1LetterSpacing: 0,
  heading2Color: '#111827',
  heading2FontSize: 24,
  heading2LineHeight: 125,
  heading2LetterSpacing: 0,
  heading3Color: '#111827',
  heading3FontSize: 20,
  heading3LineHeight: 125,
  heading3LetterSpacing: 0,
};
