import type { TaxSettings } from '@tessera/sdk';
import { useMemo, useState, type FormEvent } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardTitle } from '../../../components/ui/card';
import { Field } from '../../../components/ui/field';
import { Checkbox } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { useToast } from '../../../components/ui/toast';
import { fieldError } from '../../../lib/api-error';
import { countryOptions } from '../../../lib/countries';
import { useUpdateTaxSettings } from '../api/update-tax-settings';

const NO_COUNTRY = 'none';

/** How prices relate to tax, the seller's own country (reverse charge) and the Stripe Tax opt-in. */
export function TaxSettingsCard({ settings }: { settings: TaxSettings }) {
  const [inclusive, setInclusive] = useState(settings.prices_include_tax);
  const [homeCountry, setHomeCountry] = useState(settings.home_country ?? NO_COUNTRY);
  const [stripeTax, setStripeTax] = useState(settings.stripe_tax_enabled);
  const countries = useMemo(() => [{ value: NO_COUNTRY, label: 'Not set' }, ...countryOptions()], []);
  const mutation = useUpdateTaxSettings();
  const toast = useToast();

  function submit(event: FormEvent) {
    event.preventDefault();
    mutation.mutate(
      {
        organization_id: settings.organization_id,
        prices_include_tax: inclusive,
        home_country: homeCountry === NO_COUNTRY ? null : homeCountry,
        stripe_tax_enabled: stripeTax,
      },
      { onSuccess: () => toast('Tax settings saved') },
    );
  }

  return (
    <form onSubmit={submit} noValidate>
      <Card>
        <CardTitle>Tax settings</CardTitle>
        <div className="flex flex-col items-start gap-4">
          <ApiErrorAlert error={mutation.error} shownFields={['home_country', 'stripe_tax_enabled']} />
          <Checkbox
            label="My prices include tax (the tax is split out of them)"
            checked={inclusive}
            onChange={(event) => setInclusive(event.target.checked)}
          />
          <Field
            label="Your country"
            hint="A business buyer with a VAT id of another EU country is reverse-charged; one of your own country is taxed."
            error={fieldError(mutation.error, 'home_country')}
            className="w-full max-w-md"
          >
            <Select value={homeCountry} options={countries} onValueChange={setHomeCountry} />
          </Field>
          {settings.stripe_tax_available ? (
            <Checkbox
              label="Compute checkout tax with Stripe Tax instead of my rates"
              checked={stripeTax}
              onChange={(event) => setStripeTax(event.target.checked)}
            />
          ) : (
            <p className="text-sm text-slate-600">
              Stripe Tax is available once this server is configured with Stripe.
            </p>
          )}
          {fieldError(mutation.error, 'stripe_tax_enabled') && (
            <p className="text-sm text-red-700">{fieldError(mutation.error, 'stripe_tax_enabled')}</p>
          )}
          <Button type="submit" isPending={mutation.isPending}>
            Save tax settings
          </Button>
        </div>
      </Card>
    </form>
  );
}
