import { useEffect, useState } from 'react';

/**
 * The dashboard's colour scheme: the seller picks light, dark or the system's (kept in localStorage);
 * the hosted checkout and the portal take theirs from the organization's branding instead. Dark mode is
 * the `dark` class on <html>, which inverts the palette (styles.css).
 */
export type ThemePreference = 'light' | 'dark' | 'system';
export type Theme = 'light' | 'dark';

export const THEME_STORAGE_KEY = 'tessera.theme';
export const THEME_PREFERENCES: ThemePreference[] = ['light', 'dark', 'system'];

/** What a stored value means (anything unknown, or nothing, follows the system). Pure. */
export function parseThemePreference(stored: string | null | undefined): ThemePreference {
  return stored === 'light' || stored === 'dark' ? stored : 'system';
}

/** The theme shown for a preference, given whether the system prefers dark. Pure. */
export function resolveTheme(preference: ThemePreference, systemPrefersDark: boolean): Theme {
  if (preference === 'system') return systemPrefersDark ? 'dark' : 'light';
  return preference;
}

function readStored(): ThemePreference {
  try {
    return parseThemePreference(window.localStorage.getItem(THEME_STORAGE_KEY));
  } catch {
    return 'system';
  }
}

const DARK_QUERY = '(prefers-color-scheme: dark)';

function useSystemPrefersDark(): boolean {
  const [prefersDark, setPrefersDark] = useState(() => window.matchMedia?.(DARK_QUERY).matches ?? false);
  useEffect(() => {
    const media = window.matchMedia?.(DARK_QUERY);
    if (!media) return;
    const onChange = () => setPrefersDark(media.matches);
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  }, []);
  return prefersDark;
}

/** Puts `theme` on <html> while the calling page is shown. */
export function useDocumentTheme(theme: Theme): void {
  useEffect(() => {
    const root = document.documentElement;
    root.classList.toggle('dark', theme === 'dark');
    return () => root.classList.remove('dark');
  }, [theme]);
}

/** The seller's stored preference, the theme it resolves to now, and a setter that keeps it. */
export function useThemePreference(): {
  preference: ThemePreference;
  theme: Theme;
  setPreference: (preference: ThemePreference) => void;
} {
  const [preference, setPreferenceState] = useState(readStored);
  const theme = resolveTheme(preference, useSystemPrefersDark());
  const setPreference = (next: ThemePreference) => {
    setPreferenceState(next);
    try {
      window.localStorage.setItem(THEME_STORAGE_KEY, next);
    } catch {
      // Storage refused (private mode): the choice holds for this page only.
    }
  };
  return { preference, theme, setPreference };
}
