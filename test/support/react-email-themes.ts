/**
 * What React Email's themed demo templates (test/corpus/convert/react-email-themes) import from the
 * files beside them, which the corpus does not hold: a Tailwind configuration and a font component
 * per theme. This stand-in is written from what the templates themselves use, so that React Email's
 * renderer draws them: every colour token they name (any colour does: the layout tests measure
 * boxes, not paint), `font-N` as N px text, and the `mobile:` variant the templates lay a phone out
 * with, below 600 px as in React Email's demos. The fonts are not loaded (no network).
 */

/** The colour tokens the templates name (`bg-bg-2`, `text-fg-inverted`, `border-stroke-strong`). */
const TOKENS = ['bg', 'bg-2', 'bg-3', 'bg-4', 'fg', 'fg-2', 'fg-3', 'fg-inverted', 'stroke', 'stroke-strong', 'button-border', 'brand', 'tip-badge'];

/** The `font-N` steps the templates use. */
const STEPS = [11, 13, 14, 15, 16, 18, 20, 22, 24, 28, 32, 40, 48, 56, 64, 72];

interface PluginApi {
  addUtilities(utilities: Record<string, Record<string, string>>): void;
  addVariant(name: string, selector: string): void;
}

const config = {
  plugins: [
    {
      handler: ({ addUtilities, addVariant }: PluginApi) => {
        addVariant('mobile', '@media (max-width: 600px)');
        addUtilities(Object.fromEntries(STEPS.map((step) => [`.font-${step}`, { fontSize: `${step}px`, lineHeight: '1.5' }])));
      },
    },
  ],
  theme: {
    extend: {
      colors: Object.fromEntries(TOKENS.map((token, index) => [token, `#${(0x303030 + index * 0x0a0a0a).toString(16)}`])),
      fontFamily: { sans: ['Arial', 'sans-serif'], serif: ['Georgia', 'serif'], geist: ['Arial', 'sans-serif'] },
    },
  },
};

export const skinTailwindConfig = config;
export const techTailwindConfig = config;
export const barebonesBoxedTailwindConfig = config;

export const SkinFonts = () => null;
export const TechFonts = () => null;
export const BarebonesFonts = () => null;
