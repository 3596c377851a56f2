/**
 * The organization's brand colour made legible (WCAG 2.x AA: 4.5:1 for text). The colour fills primary
 * buttons, with white or dark text, whichever reads better; where neither reaches 4.5:1 the fill is
 * darkened until white does. Links and other accent text use the colour shaded (darker on a light page,
 * lighter on a dark one) until it reads at 4.5:1 on every surface of the theme. All pure, table-tested.
 */
export interface Rgb {
  r: number;
  g: number;
  b: number;
}

export const AA_TEXT = 4.5;

const WHITE: Rgb = { r: 255, g: 255, b: 255 };
const BLACK: Rgb = { r: 0, g: 0, b: 0 };
/** Dark text (slate-900), as the rest of the page's text. */
export const DARK_TEXT = '#0f172a';

/** The page surfaces of each theme text sits on: cards and the page behind them. */
export const SURFACES: Record<'light' | 'dark', string[]> = {
  light: ['#ffffff', '#f8fafc'],
  dark: ['#0f172a', '#020617'],
};

export function parseHex(hex: string): Rgb | null {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex.trim());
  if (!match) return null;
  return { r: parseInt(match[1]!, 16), g: parseInt(match[2]!, 16), b: parseInt(match[3]!, 16) };
}

export function toHex({ r, g, b }: Rgb): string {
  return `#${[r, g, b].map((channel) => Math.round(channel).toString(16).padStart(2, '0')).join('')}`;
}

/** WCAG 2.x relative luminance. */
export function relativeLuminance({ r, g, b }: Rgb): number {
  const linear = (channel: number) => {
    const c = channel / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

export function contrastRatio(a: Rgb, b: Rgb): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** `from` moved `amount` (0…1) of the way to `to`. */
export function mix(from: Rgb, to: Rgb, amount: number): Rgb {
  return {
    r: from.r + (to.r - from.r) * amount,
    g: from.g + (to.g - from.g) * amount,
    b: from.b + (to.b - from.b) * amount,
  };
}

function rounded(color: Rgb): Rgb {
  return { r: Math.round(color.r), g: Math.round(color.g), b: Math.round(color.b) };
}

/**
 * The colour shaded toward `toward` in 2% steps until it reaches `minimum` contrast with every one of
 * `backgrounds` (the colour itself when it already does).
 */
export function shadeUntilReadable(color: Rgb, backgrounds: Rgb[], toward: Rgb, minimum = AA_TEXT): Rgb {
  for (let step = 0; step <= 50; step += 1) {
    const candidate = rounded(mix(color, toward, step / 50));
    if (backgrounds.every((background) => contrastRatio(candidate, background) >= minimum)) return candidate;
  }
  return toward;
}

export interface BrandPalette {
  /** Primary buttons' fill, its hover, and their text. */
  accent: string;
  accentHover: string;
  onAccent: string;
  /** Accent text: links, selected tabs, focus rings. */
  text: string;
  /** Faint backgrounds of selected items. */
  tint: string;
  /** True when the colour as chosen could not be used as it is for buttons or for text. */
  adjusted: boolean;
}

/** What a brand colour becomes in a theme; null when there is none (or it is not #rrggbb). */
export function brandPalette(brandColor: string | null, theme: 'light' | 'dark'): BrandPalette | null {
  const brand = brandColor ? parseHex(brandColor) : null;
  if (!brand) return null;
  const dark = parseHex(DARK_TEXT)!;

  let accent = brand;
  let onAccent = contrastRatio(brand, WHITE) >= contrastRatio(brand, dark) ? WHITE : dark;
  if (contrastRatio(accent, onAccent) < AA_TEXT) {
    onAccent = WHITE;
    accent = shadeUntilReadable(brand, [WHITE], BLACK);
  }
  const surfaces = SURFACES[theme].map((surface) => parseHex(surface)!);
  const text = shadeUntilReadable(brand, surfaces, theme === 'light' ? BLACK : WHITE);
  const hover = mix(accent, onAccent === WHITE ? BLACK : WHITE, 0.12);
  const tint = mix(surfaces[0]!, brand, theme === 'light' ? 0.1 : 0.2);
  return {
    accent: toHex(accent),
    accentHover: toHex(hover),
    onAccent: toHex(onAccent),
    text: toHex(text),
    tint: toHex(tint),
    adjusted: toHex(accent) !== toHex(brand) || toHex(text) !== toHex(brand),
  };
}

/**
 * The CSS variables a palette sets: the button's own, and the blue steps the pages use for accent text,
 * borders and selected backgrounds (so every page follows without knowing about branding).
 */
export function brandCssVariables(palette: BrandPalette | null): Record<string, string> {
  if (!palette) return {};
  return {
    '--accent': palette.accent,
    '--accent-hover': palette.accentHover,
    '--on-accent': palette.onAccent,
    '--color-blue-600': palette.text,
    '--color-blue-700': palette.text,
    '--color-blue-800': palette.text,
    '--color-blue-900': palette.text,
    '--color-blue-50': palette.tint,
    '--color-blue-100': palette.tint,
  };
}
