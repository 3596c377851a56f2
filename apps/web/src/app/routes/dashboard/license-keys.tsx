import { PageHeader } from '../../../components/ui/page-header';
import { LicenseKeysExport } from '../../../features/license-keys/components/license-keys-export';
import { LicenseKeysList } from '../../../features/license-keys/components/license-keys-list';
import { organizationPath, useCurrentOrganization } from './current-organization';

export function Component() {
  const organization = useCurrentOrganization();
  return (
    <>
      <PageHeader
        title="License keys"
        description="Keys issued to customers by license key benefits: status, usage, limits and activations."
        actions={<LicenseKeysExport organizationId={organization.id} />}
      />
      <LicenseKeysList
        organizationId={organization.id}
        basePath={organizationPath(organization, '/license-keys')}
        customersPath={organizationPath(organization, '/customers')}
      />
    </>
  );
}
