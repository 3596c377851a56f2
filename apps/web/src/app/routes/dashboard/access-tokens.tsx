import { PageHeader } from '../../../components/ui/page-header';
import { CreateOrganizationAccessTokenDialog } from '../../../features/organization-access-tokens/components/create-organization-access-token-dialog';
import { OrganizationAccessTokensList } from '../../../features/organization-access-tokens/components/organization-access-tokens-list';
import { useCurrentOrganization } from './current-organization';

export function Component() {
  const organization = useCurrentOrganization();
  return (
    <>
      <PageHeader
        title="Access tokens"
        description="Tokens your servers use to call the Tessera API for this organization."
        actions={<CreateOrganizationAccessTokenDialog organizationId={organization.id} />}
      />
      <OrganizationAccessTokensList organizationId={organization.id} />
    </>
  );
}
