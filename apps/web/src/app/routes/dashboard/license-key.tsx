import { Link, useParams } from 'react-router';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { PageHeader } from '../../../components/ui/page-header';
import { Loading } from '../../../components/ui/spinner';
import { useLicenseKeyBenefits } from '../../../features/license-keys/api/get-license-key-benefits';
import { useLicenseKey } from '../../../features/license-keys/api/get-license-key';
import {
  LicenseKeyActivations,
  LicenseKeyDetails,
} from '../../../features/license-keys/components/license-key-details';
import { LicenseKeyForm } from '../../../features/license-keys/components/license-key-form';
import { organizationPath, useCurrentOrganization } from './current-organization';

export function Component() {
  const organization = useCurrentOrganization();
  const { licenseKeyId = '' } = useParams();
  const licenseKey = useLicenseKey(licenseKeyId);
  const benefits = useLicenseKeyBenefits(organization.id);
  const back = (
    <Link className="text-sm font-medium text-blue-800 underline" to={organizationPath(organization, '/license-keys')}>
      ← License keys
    </Link>
  );
  if (licenseKey.isPending) return <Loading label="Loading license key…" />;
  if (licenseKey.isError)
    return (
      <div className="space-y-4">
        {back}
        <ApiErrorAlert error={licenseKey.error} />
      </div>
    );
  const key = licenseKey.data;
  return (
    <>
      {back}
      <div className="mt-3">
        <PageHeader title={`License key ${key.display_key}`} description={`Issued to ${key.customer.email}`} />
      </div>
      <div className="grid gap-6 xl:grid-cols-2">
        <LicenseKeyDetails
          licenseKey={key}
          benefitName={benefits.data?.find((benefit) => benefit.id === key.benefit_id)?.description}
          customerPath={organizationPath(organization, `/customers/${key.customer_id}`)}
        />
        <LicenseKeyForm key={key.id} licenseKey={key} />
        <div className="xl:col-span-2">
          <LicenseKeyActivations licenseKey={key} />
        </div>
      </div>
    </>
  );
}
