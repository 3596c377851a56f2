import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { CustomerPicker } from '../../../features/customers/components/customer-picker';
import { EventNamesList } from '../../../features/events/components/event-names-list';
import { EventsExplorer } from '../../../features/events/components/events-explorer';
import { getMeterQueryOptions } from '../../../features/meters/api/get-meter';
import { organizationPath, useCurrentOrganization } from './current-organization';

export function Component() {
  const organization = useCurrentOrganization();
  const [customerId, setCustomerId] = useState<string | null>(null);
  // `?meter=<id>`: the events a meter counts (the meter page links here).
  const [searchParams, setSearchParams] = useSearchParams();
  const meterId = searchParams.get('meter') ?? '';
  const meter = useQuery({ ...getMeterQueryOptions(meterId), enabled: meterId !== '' });
  return (
    <>
      <PageHeader
        title="Events"
        description="The usage events your application sends, and those Tessera records (credits, resets, benefits)."
      />
      <section aria-label="Events found" className="space-y-3">
        <EventsExplorer
          organizationId={organization.id}
          dashboardPath={organizationPath(organization)}
          customerId={customerId ?? undefined}
          meter={
            meterId
              ? { id: meterId, name: meter.data?.name ?? 'this meter', onClear: () => setSearchParams({}) }
              : undefined
          }
          filters={<CustomerPicker organizationId={organization.id} onChange={setCustomerId} />}
        />
      </section>
      <section aria-labelledby="event-names-heading" className="mt-10 space-y-3">
        <h2 id="event-names-heading" className="text-lg font-semibold text-slate-900">
          Event names
        </h2>
        <EventNamesList organizationId={organization.id} />
      </section>
    </>
  );
}
