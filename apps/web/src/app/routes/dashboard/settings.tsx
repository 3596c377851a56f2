import { PageHeader } from '../../../components/ui/page-header';
import { OrganizationIdentifiers } from '../../../features/organizations/components/organization-identifiers';
import { BrandingSettingsCard } from '../../../features/organizations/components/branding-settings-card';
import { OrganizationSettingsForm } from '../../../features/organizations/components/organization-settings-form';
import { TestClockCard } from '../../../features/test-clock/components/test-clock-card';
import { EmailOutboxCard } from '../../../features/emails/components/email-outbox-card';
import { useCurrentOrganization } from './current-organization';

export function Component() {
  const organization = useCurrentOrganization();
  return (
    <>
      <PageHeader
        title="Settings"
        description="Your organization's public profile, subscription rules, customer emails and checkout branding."
      />
      <div className="space-y-6">
        <OrganizationIdentifiers organization={organization} />
        <OrganizationSettingsForm key={organization.id} organization={organization} />
        <BrandingSettingsCard key={`branding-${organization.id}`} organization={organization} />
        <TestClockCard organizationId={organization.id} />
        <EmailOutboxCard organizationId={organization.id} />
      </div>
    </>
  );
}
