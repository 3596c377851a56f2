import { PageHeader } from '../../../components/ui/page-header';
import { Loading } from '../../../components/ui/spinner';
import { useTaxSettings } from '../../../features/tax/api/get-tax-settings';
import { TaxRegistrationsCard } from '../../../features/tax/components/tax-registrations-card';
import { TaxSettingsCard } from '../../../features/tax/components/tax-settings-card';
import { useCurrentOrganization } from './current-organization';

/** Settings → Tax: how prices relate to tax, and where the organization collects it at what rate. */
export function Component() {
  const organization = useCurrentOrganization();
  const settings = useTaxSettings(organization.id);
  return (
    <>
      <PageHeader
        title="Tax"
        description="The rates your checkout and every renewal charge, by the buyer's billing address."
      />
      <div className="space-y-6">
        {settings.data ? (
          <TaxSettingsCard key={settings.data.organization_id} settings={settings.data} />
        ) : (
          <Loading label="Loading tax settings…" />
        )}
        <TaxRegistrationsCard organizationId={organization.id} />
      </div>
    </>
  );
}
