import { Link, useParams } from 'react-router';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { PageHeader } from '../../../components/ui/page-header';
import { Loading } from '../../../components/ui/spinner';
import { useEvent } from '../../../features/events/api/get-event';
import { EventDetails } from '../../../features/events/components/event-details';
import { formatDateTime } from '../../../lib/format';
import { organizationPath, useCurrentOrganization } from './current-organization';

export function Component() {
  const organization = useCurrentOrganization();
  const { eventId = '' } = useParams();
  const event = useEvent(eventId);
  const back = (
    <Link className="text-sm font-medium text-blue-800 underline" to={organizationPath(organization, '/events')}>
      ← Events
    </Link>
  );
  if (event.isPending) return <Loading label="Loading event…" />;
  if (event.isError)
    return (
      <div className="space-y-4">
        {back}
        <ApiErrorAlert error={event.error} />
      </div>
    );
  return (
    <>
      {back}
      <div className="mt-3">
        <PageHeader title={event.data.name} description={formatDateTime(event.data.timestamp)} />
      </div>
      <EventDetails event={event.data} dashboardPath={organizationPath(organization)} />
    </>
  );
}
