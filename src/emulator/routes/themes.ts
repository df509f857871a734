/** The sandbox's themes: a few palettes; read, created and updated by id. */
import { z } from '../../base/shapes.js';
import { parseLmx, themeIdOf } from '../../lmx/index.js';
import { DEFAULT_THEME_STYLES } from '../../platform/themes/default-theme.js';
import { themeDrawnWith } from '../../platform/themes/drawn-with.js';
import { type Theme, type ThemeStyles, theme, updatedTheme } from '../../platform/themes/schemas.js';
import { styleProblem } from '../../platform/themes/styles.js';
import { answer, badRequest, lazily, objectBody, type RouteContext, type SandboxModule, seedId, seedTime, slice } from '../module.js';
import { emailMessages } from './email-message-records.js';
import { type KeptById, nameField, pathRecord, readRoutes, someFields } from './kept.js';

interface Palette {
  name: string;
  background: string;
  body: string;
  text: string;
  accent: string;
  heading: string;
  font: [family: string, category: string];
  radius: number;
}

const SANS: [string, string] = ['Inter', 'sans-serif'];
const SERIF: [string, string] = ['Georgia', 'serif'];
const MONO: [string, string] = ['IBM Plex Mono', 'monospace'];
const HELVETICA: [string, string] = ['Helvetica', 'sans-serif'];

const palettes: Palette[] = [
  { name: 'Midnight', background: '#0b1020', body: '#121a2f', text: '#d1d5db', accent: '#6366f1', heading: '#f9fafb', font: SANS, radius: 10 },
  { name: 'Paper', background: '#f4efe6', body: '#fffdf8', text: '#3f3a33', accent: '#8a5a2b', heading: '#2b2620', font: SERIF, radius: 2 },
  { name: 'Forest', background: '#e8f0ea', body: '#ffffff', text: '#274032', accent: '#2f7d4f', heading: '#1b3326', font: SANS, radius: 6 },
  { name: 'Ocean', background: '#e6f2f8', body: '#ffffff', text: '#1f3b4d', accent: '#0e7490', heading: '#0c2d3f', font: SANS, radius: 8 },
  { name: 'Sunset', background: '#fff1e6', body: '#ffffff', text: '#4a2c1d', accent: '#ea580c', heading: '#3b1f12', font: HELVETICA, radius: 12 },
  { name: 'Monochrome', background: '#ffffff', body: '#ffffff', text: '#111111', accent: '#000000', heading: '#000000', font: HELVETICA, radius: 0 },
  { name: 'Terminal', background: '#0d1117', body: '#161b22', text: '#c9d1d9', accent: '#2ea043', heading: '#f0f6fc', font: MONO, radius: 4 },
  { name: 'Lavender', background: '#f5f3ff', body: '#ffffff', text: '#3b3355', accent: '#7c3aed', heading: '#2e1065', font: SANS, radius: 14 },
  { name: 'Newsprint', background: '#ededed', body: '#fafafa', text: '#262626', accent: '#b91c1c', heading: '#171717', font: SERIF, radius: 0 },
  { name: 'Citrus', background: '#fefce8', body: '#ffffff', text: '#3f3f1d', accent: '#ca8a04', heading: '#422006', font: SANS, radius: 10 },
  { name: 'Slate', background: '#f1f5f9', body: '#ffffff', text: '#334155', accent: '#475569', heading: '#0f172a', font: SANS, radius: 6 },
  { name: 'Rose', background: '#fff1f2', body: '#ffffff', text: '#4c0519', accent: '#e11d48', heading: '#4c0519', font: HELVETICA, radius: 16 },
  { name: 'Arctic', background: '#f0f9ff', body: '#ffffff', text: '#0c4a6e', accent: '#0284c7', heading: '#082f49', font: SANS, radius: 8 },
  { name: 'Espresso', background: '#2a1d16', body: '#3b2a20', text: '#eadbc8', accent: '#c08552', heading: '#fff8f0', font: SERIF, radius: 4 },
  { name: 'Mint', background: '#ecfdf5', body: '#ffffff', text: '#064e3b', accent: '#10b981', heading: '#022c22', font: SANS, radius: 12 },
  { name: 'Carbon', background: '#18181b', body: '#27272a', text: '#e4e4e7', accent: '#f59e0b', heading: '#fafafa', font: HELVETICA, radius: 6 },
  { name: 'Blueprint', background: '#1e3a8a', body: '#1e40af', text: '#dbeafe', accent: '#facc15', heading: '#ffffff', font: MONO, radius: 0 },
  { name: 'Sand', background: '#faf6f0', body: '#ffffff', text: '#57534e', accent: '#a16207', heading: '#292524', font: SERIF, radius: 6 },
  { name: 'Coral reef', background: '#fff5f2', body: '#ffffff', text: '#5b2a1f', accent: '#f97360', heading: '#3d1a12', font: SANS, radius: 10 },
  { name: 'Graphite', background: '#e5e7eb', body: '#f9fafb', text: '#1f2937', accent: '#374151', heading: '#111827', font: HELVETICA, radius: 4 },
  { name: 'Aurora', background: '#0f172a', body: '#1e293b', text: '#cbd5e1', accent: '#22d3ee', heading: '#f8fafc', font: SANS, radius: 12 },
  { name: 'Meadow', background: '#f7fee7', body: '#ffffff', text: '#365314', accent: '#65a30d', heading: '#1a2e05', font: SANS, radius: 8 },
  { name: 'Plum', background: '#faf5ff', body: '#ffffff', text: '#4a044e', accent: '#a21caf', heading: '#3b0764', font: SERIF, radius: 8 },
  { name: 'Receipt', background: '#ffffff', body: '#ffffff', text: '#222222', accent: '#222222', heading: '#222222', font: MONO, radius: 0 },
  { name: 'Holiday 2024', background: '#fdf2f2', body: '#ffffff', text: '#3f1d1d', accent: '#15803d', heading: '#7f1d1d', font: SERIF, radius: 10 },
];

function stylesOf(palette: Palette): ThemeStyles {
  const [bodyFontFamily, bodyFontCategory] = palette.font;
  return {
    backgroundColor: palette.background,
    backgroundXPadding: 24,
    backgroundYPadding: 32,
    bodyColor: palette.body,
    bodyXPadding: 32,
    bodyYPadding: 32,
    bodyFontFamily,
    bodyFontCategory,
    borderColor: palette.background,
    borderWidth: palette.radius === 0 ? 0 : 1,
    borderRadius: palette.radius,
    buttonBodyColor: palette.accent,
    buttonBodyXPadding: 20,
    buttonBodyYPadding: 12,
    buttonBorderColor: palette.accent,
    buttonBorderWidth: 0,
    buttonBorderRadius: Math.min(palette.radius, 8),
    buttonTextColor: palette.body,
    buttonTextFormat: 0,
    buttonTextFontSize: 16,
    dividerColor: palette.background,
    dividerBorderWidth: 1,
    textBaseColor: palette.text,
    textBaseFontSize: 16,
    textBaseLineHeight: 24,
    textBaseLetterSpacing: 0,
    textLinkColor: palette.accent,
    heading1Color: palette.heading,
    heading1FontSize: 30,
    heading1LineHeight: 38,
    heading1LetterSpacing: -0.5,
    heading2Color: palette.heading,
    heading2FontSize: 24,
    heading2LineHeight: 32,
    heading2LetterSpacing: -0.25,
    heading3Color: palette.heading,
    heading3FontSize: 19,
    heading3LineHeight: 27,
    heading3LetterSpacing: 0,
  };
}

/** The team's default theme is the platform's, the one the renderer falls back to; the other palettes are the seed's own. */
const defaultStyles = (): ThemeStyles => ({ ...DEFAULT_THEME_STYLES }) as ThemeStyles;

const seedThemes = lazily((): Theme[] =>
  [{ name: 'Default', styles: defaultStyles() }, ...palettes.map((palette) => ({ name: palette.name, styles: stylesOf(palette) }))].map(
    ({ name, styles }, index) => ({
      id: seedId(`theme/${name}`),
      name,
      styles,
      isDefault: index === 0,
      createdAt: seedTime(index * 50),
      updatedAt: seedTime(index * 50 + 3),
    }),
  ),
);

// Every team has a default theme.
export const themes = slice('themes', z.array(theme), seedThemes, () => seedThemes().filter((candidate) => candidate.isDefault));

const kept: KeptById<Theme> = { records: themes, schema: theme, param: 'themeId', noun: 'theme' };

/** The request's styles, every key a known style of the right kind, else a 400. */
function requestStyles(value: unknown): ThemeStyles {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badRequest('styles must be an object');
  for (const [key, field] of Object.entries(value)) {
    const problem = styleProblem(key, field);
    if (problem !== undefined) throw badRequest(`styles: ${problem.message}`);
  }
  return value as ThemeStyles;
}

/** A new theme starts from the default theme's styles, with the given ones over them. */
function createTheme({ body, state, now, newId, changed }: RouteContext) {
  const fields = objectBody(body, ['name', 'styles'], ['name']);
  const name = nameField(fields);
  const styles = fields.styles === undefined ? {} : requestStyles(fields.styles);
  const time = now().toISOString();
  const created: Theme = { id: newId(), name, styles: { ...defaultStyles(), ...styles }, isDefault: false, createdAt: time, updatedAt: time };
  themes.of(state).push(created);
  changed();
  return answer(theme, created, 201);
}

/**
 * How many emails use a theme, as their LMX says: those drawn with it (platform/themes/drawn-with.ts):
 * the ones whose `<Style themeId>` names it, and for the default theme those that name none or a
 * theme the sandbox does not hold.
 */
function emailsUsing(state: RouteContext['state'], used: Theme): number {
  const all = themes.of(state);
  return emailMessages.of(state).filter(({ message }) => themeDrawnWith(themeIdOf(parseLmx(message.lmx).document), all) === used).length;
}

/** "When `styles` change, the update cascades to every email using this theme, and `affectedEmailCount` in the response reports how many emails were affected." */
function updateTheme(context: RouteContext) {
  const { body, state, now, changed } = context;
  const found = pathRecord(kept, context);
  const fields = someFields(body, ['name', 'styles'], []);
  if (fields.name !== undefined) found.name = nameField(fields);
  const styles = fields.styles === undefined ? found.styles : { ...found.styles, ...requestStyles(fields.styles) };
  const restyled = JSON.stringify(styles) !== JSON.stringify(found.styles);
  found.styles = styles;
  found.updatedAt = now().toISOString();
  changed();
  return answer(updatedTheme, { ...found, affectedEmailCount: restyled ? emailsUsing(state, found) : 0 });
}

export const sandbox: SandboxModule = {
  slices: [themes],
  routes: [
    ...readRoutes(kept, { operation: 'listThemes' }, { operation: 'getTheme', needs: 'content' }),
    { operation: 'createTheme', needs: 'content', run: createTheme },
    { operation: 'updateTheme', needs: 'content', run: updateTheme },
  ],
};
