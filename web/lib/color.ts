// Theme colours from the settings, made safe to put white text on (WCAG AA, 4.5:1): an admin can
// pick any colour, and a light one would otherwise make the hero and buttons unreadable.
import { DEFAULT_SETTINGS } from '../../src/site-settings';

export const DEFAULT_PRIMARY = DEFAULT_SETTINGS.primary_color;
export const DEFAULT_SECONDARY = DEFAULT_SETTINGS.secondary_color;
export const DEFAULT_FONT = DEFAULT_SETTINGS.font_family;

type Rgb = [number, number, number];

export function parseHex(hex: string): Rgb | null {
  const match = /^#?([0-9a-f]{6}|[0-9a-f]{3})$/i.exec(hex.trim());
  if (!match) return null;
  const digits = match[1].length === 3 ? [...match[1]].map((d) => d + d).join('') : match[1];
  return [0, 2, 4].map((i) => parseInt(digits.slice(i, i + 2), 16)) as Rgb;
}

const toHex = (rgb: Rgb) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

function luminance([r, g, b]: Rgb): number {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrastRatio(a: string, b: string): number {
  const [x, y] = [parseHex(a), parseHex(b)];
  if (!x || !y) return 1;
  const [light, dark] = [luminance(x), luminance(y)].sort((p, q) => q - p);
  return (light + 0.05) / (dark + 0.05);
}

/** The colour, darkened just enough for white text on it to reach `ratio`. */
export function readableShade(hex: string, fallback: string, ratio = 4.5): string {
  const rgb = parseHex(hex) ?? parseHex(fallback)!;
  for (let keep = 1; keep > 0; keep -= 0.02) {
    const shade = toHex(rgb.map((c) => c * keep) as Rgb);
    if (contrastRatio(shade, '#ffffff') >= ratio) return shade;
  }
  return '#000000';
}

/** Only characters a font-family list needs: the value goes into a style. */
export function safeFontFamily(font: string | null | undefined): string {
  const cleaned = (font ?? '').replace(/[^\w\s,'"-]/g, '').trim();
  return cleaned || DEFAULT_FONT;
}

// The last answer: the settings change seldom, and the server renders every page with them (the
// shades' contrast search is a tenth of a place page's render).
let lastTheme: { key: string; variables: Record<string, string> } | null = null;

/** The CSS custom properties the whole site's styles read. */
export function themeVariables(primary: string, secondary: string, font: string): Record<string, string> {
  const key = `${primary}\n${secondary}\n${font}`;
  if (lastTheme?.key !== key) lastTheme = { key, variables: computeThemeVariables(primary, secondary, font) };
  return lastTheme.variables;
}

function computeThemeVariables(primary: string, secondary: string, font: string): Record<string, string> {
  const primaryShade = readableShade(primary, DEFAULT_PRIMARY);
  const secondaryShade = readableShade(secondary, DEFAULT_SECONDARY);
  return {
    '--color-primary': primaryShade,
    '--color-secondary': secondaryShade,
    '--color-primary-raw': parseHex(primary) ? primary : DEFAULT_PRIMARY,
    '--color-secondary-raw': parseHex(secondary) ? secondary : DEFAULT_SECONDARY,
    // A system stack after the chosen family: no font is fetched from outside (CSP font-src 'self').
    '--font-family': `${safeFontFamily(font)}, system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif`,
  };
}
