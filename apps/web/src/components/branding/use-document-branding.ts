import type { OrganizationBrandingSettings } from '@tessera/sdk';
import { useEffect } from 'react';
import { brandCssVariables, brandPalette } from '../../lib/brand-colors';

/**
 * The hosted checkout and the portal in the organization's branding while they are shown: its theme as
 * the `dark` class on <html> (dialogs and menus render outside the page's own element) and its colour as
 * CSS variables there (lib/brand-colors.ts).
 */
export function useDocumentBranding(branding: OrganizationBrandingSettings | undefined): void {
  const theme = branding?.theme ?? 'light';
  const color = branding?.brand_color ?? null;
  useEffect(() => {
    const root = document.documentElement;
    const variables = brandCssVariables(brandPalette(color, theme));
    root.classList.toggle('dark', theme === 'dark');
    for (const [name, value] of Object.entries(variables)) root.style.setProperty(name, value);
    return () => {
      root.classList.remove('dark');
      for (const name of Object.keys(variables)) root.style.removeProperty(name);
    };
  }, [theme, color]);
}
