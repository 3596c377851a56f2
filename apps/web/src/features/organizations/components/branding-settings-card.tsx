import type { Organization, OrganizationBrandingSettings } from '@tessera/sdk';
import { useId, useState, type CSSProperties, type FormEvent } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardTitle } from '../../../components/ui/card';
import { Field } from '../../../components/ui/field';
import { Checkbox, Input } from '../../../components/ui/input';
import { useToast } from '../../../components/ui/toast';
import { fieldError } from '../../../lib/api-error';
import { brandCssVariables, brandPalette, parseHex } from '../../../lib/brand-colors';
import { cn } from '../../../lib/cn';
import { useUpdateOrganization } from '../api/update-organization';

const DEFAULT_COLOR = '#1d4ed8';

/**
 * How the hosted checkout and the customer portal look (`branding_settings`): brand colour, light or
 * dark, the logo (the organization's avatar) and product images, with a preview that follows every change
 * before it is saved. A colour whose text would not read at WCAG AA is shaded, and the preview says so.
 */
export function BrandingSettingsCard({ organization }: { organization: Organization }) {
  const [branding, setBranding] = useState<OrganizationBrandingSettings>(organization.branding_settings);
  const [colorText, setColorText] = useState(organization.branding_settings.brand_color ?? '');
  const mutation = useUpdateOrganization();
  const toast = useToast();
  const themeName = useId();
  const colorValid = colorText.trim() === '' || parseHex(colorText.trim()) !== null;
  const change = (patch: Partial<OrganizationBrandingSettings>) => setBranding((current) => ({ ...current, ...patch }));

  const setColor = (value: string) => {
    setColorText(value);
    const trimmed = value.trim();
    if (trimmed === '') change({ brand_color: null });
    else if (parseHex(trimmed)) change({ brand_color: trimmed.toLowerCase() });
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!colorValid) return;
    mutation.mutate(
      { id: organization.id, body: { branding_settings: branding } },
      { onSuccess: () => toast('Branding saved.') },
    );
  }

  return (
    <Card aria-labelledby={`${themeName}-title`}>
      <div id={`${themeName}-title`}>
        <CardTitle>Checkout and portal branding</CardTitle>
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <form onSubmit={submit} className="space-y-4" noValidate>
          <Field
            label="Brand colour"
            hint="A hex colour like #1d4ed8, for buttons and links. Leave empty for the default blue."
            error={
              !colorValid
                ? 'Enter a colour as # and six hex digits, like #1d4ed8.'
                : fieldError(mutation.error, 'branding_settings.brand_color')
            }
          >
            <Input value={colorText} onChange={(event) => setColor(event.target.value)} placeholder="#1d4ed8" />
          </Field>
          <div className="flex items-center gap-2">
            <input
              type="color"
              aria-label="Pick the brand colour"
              value={branding.brand_color ?? DEFAULT_COLOR}
              onChange={(event) => setColor(event.target.value)}
              className="h-9 w-12 cursor-pointer rounded border border-slate-300 bg-white"
            />
            <span className="text-xs text-slate-600">or pick it</span>
          </div>
          <fieldset>
            <legend className="text-sm font-medium text-slate-800">Theme</legend>
            <div className="mt-1 flex gap-4">
              {(['light', 'dark'] as const).map((theme) => (
                <label key={theme} className="inline-flex items-center gap-2 text-sm text-slate-800">
                  <input
                    type="radio"
                    name={themeName}
                    value={theme}
                    checked={branding.theme === theme}
                    onChange={() => change({ theme })}
                    className="size-4 accent-blue-700"
                  />
                  {theme === 'light' ? 'Light' : 'Dark'}
                </label>
              ))}
            </div>
          </fieldset>
          <div className="flex flex-col gap-2">
            <Checkbox
              label="Show the logo"
              checked={branding.show_logo}
              onChange={(event) => change({ show_logo: event.target.checked })}
            />
            <Checkbox
              label="Show product images"
              checked={branding.show_product_images}
              onChange={(event) => change({ show_product_images: event.target.checked })}
            />
          </div>
          <ApiErrorAlert error={mutation.error} />
          <Button type="submit" isPending={mutation.isPending} disabled={!colorValid}>
            Save branding
          </Button>
        </form>
        <BrandingPreview organization={organization} branding={branding} />
      </div>
    </Card>
  );
}

/** A small checkout drawn with the settings being edited, in its own light or dark palette. */
function BrandingPreview({
  organization,
  branding,
}: {
  organization: Organization;
  branding: OrganizationBrandingSettings;
}) {
  const palette = brandPalette(branding.brand_color, branding.theme);
  const style = brandCssVariables(palette) as CSSProperties;
  return (
    <figure aria-label="Checkout preview" className="space-y-2">
      <div
        data-testid="branding-preview"
        className={cn(branding.theme, 'rounded-lg border border-slate-200 bg-slate-50 p-4 text-slate-900')}
        style={style}
      >
        <div className="flex items-center gap-2 border-b border-slate-200 pb-3">
          {branding.show_logo && organization.avatar_url ? (
            <img src={organization.avatar_url} alt="" className="size-7 rounded-full object-cover" />
          ) : null}
          <span className="text-sm font-semibold">{organization.name}</span>
        </div>
        <div className="mt-3 space-y-3 rounded-md bg-white p-3">
          {branding.show_product_images ? (
            <div aria-hidden className="h-16 rounded bg-slate-200" title="Product image" />
          ) : null}
          <p className="text-sm font-medium">Pro plan</p>
          <p className="text-sm text-slate-600">$12.00 / month</p>
          <p className="text-sm">
            <span className="font-medium text-blue-800 underline">Have a discount code?</span>
          </p>
          <Button className="w-full" tabIndex={-1} aria-hidden>
            Pay $12.00
          </Button>
        </div>
      </div>
      <figcaption className="text-xs text-slate-600">
        {palette?.adjusted
          ? 'Your colour is shaded where its text would be hard to read (WCAG AA contrast).'
          : 'How the checkout and the portal will look.'}
      </figcaption>
    </figure>
  );
}
