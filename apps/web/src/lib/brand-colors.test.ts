import { describe, expect, it } from 'vitest';
import { AA_TEXT, brandCssVariables, brandPalette, contrastRatio, parseHex, SURFACES, toHex } from './brand-colors';

const rgb = (hex: string) => parseHex(hex)!;

describe('contrastRatio', () => {
  it.each([
    ['#ffffff', '#000000', 21],
    ['#ffffff', '#ffffff', 1],
    ['#767676', '#ffffff', 4.54],
    ['#1d4ed8', '#ffffff', 6.7],
  ])('%s on %s is %d:1', (a, b, ratio) => {
    expect(contrastRatio(rgb(a), rgb(b))).toBeCloseTo(ratio, 1);
  });
});

describe('parseHex / toHex', () => {
  it.each([
    ['#1D4ED8', '#1d4ed8'],
    ['#000000', '#000000'],
  ])('%s → %s', (hex, back) => {
    expect(toHex(rgb(hex))).toBe(back);
  });
  it.each(['red', '#fff', '#12345', '1d4ed8', '#gggggg'])('%s is not a colour', (hex) => {
    expect(parseHex(hex)).toBeNull();
  });
});

describe('brandPalette', () => {
  it('has no palette without a colour', () => {
    expect(brandPalette(null, 'light')).toBeNull();
    expect(brandPalette('teal', 'light')).toBeNull();
    expect(brandCssVariables(null)).toEqual({});
  });

  // colour, theme, button fill kept?, button text, accent text kept?
  it.each([
    ['#1d4ed8', 'light', true, '#ffffff', true],
    ['#7c3aed', 'light', true, '#ffffff', true],
    ['#facc15', 'light', true, '#0f172a', false],
    ['#22c55e', 'light', true, '#0f172a', false],
    ['#ffffff', 'light', true, '#0f172a', false],
    ['#000000', 'light', true, '#ffffff', true],
    // 4.7:1 on white but 4.49:1 on the page behind the cards: the accent text is darkened a little.
    ['#e11d48', 'light', true, '#ffffff', false],
    ['#ef4444', 'light', true, '#0f172a', false],
    // A mid-tone reads at under 4.5:1 with white and with dark text: the fill is darkened, under white.
    ['#8b5cf6', 'light', false, '#ffffff', false],
    ['#0ea5e9', 'light', true, '#0f172a', false],
    ['#1d4ed8', 'dark', true, '#ffffff', false],
    ['#facc15', 'dark', true, '#0f172a', true],
    ['#000000', 'dark', true, '#ffffff', false],
  ] as const)(
    '%s in %s: fill kept %s, text on it %s, accent text kept %s',
    (color, theme, fillKept, onAccent, textKept) => {
      const palette = brandPalette(color, theme)!;
      expect(palette.accent === color).toBe(fillKept);
      expect(palette.onAccent).toBe(onAccent);
      expect(palette.text === color).toBe(textKept);
      expect(palette.adjusted).toBe(!fillKept || !textKept);
    },
  );

  it.each(
    [
      '#1d4ed8',
      '#facc15',
      '#22c55e',
      '#ef4444',
      '#ea580c',
      '#e11d48',
      '#0ea5e9',
      '#ffffff',
      '#000000',
      '#808080',
      '#ff00ff',
      '#00ffff',
    ].flatMap((color) => (['light', 'dark'] as const).map((theme) => [color, theme] as const)),
  )('%s in %s always reads at AA: button text and accent text on every surface', (color, theme) => {
    const palette = brandPalette(color, theme)!;
    expect(contrastRatio(rgb(palette.accent), rgb(palette.onAccent))).toBeGreaterThanOrEqual(AA_TEXT);
    for (const surface of SURFACES[theme]) {
      expect(contrastRatio(rgb(palette.text), rgb(surface))).toBeGreaterThanOrEqual(AA_TEXT);
    }
  });
});
