import { useQueryClient } from '@tanstack/react-query';
import { ResourceNotFound } from '@tessera/sdk';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Outlet, useParams } from 'react-router';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { EmptyState } from '../../../components/ui/empty-state';
import { Loading } from '../../../components/ui/spinner';
import { useCustomer } from '../../../features/customer-portal/api/get-customer';
import { useCustomerMeters } from '../../../features/customer-portal/api/get-customer-meters';
import { useDownloadables } from '../../../features/customer-portal/api/get-downloadables';
import { useOrganization } from '../../../features/customer-portal/api/get-organization';
import { forgetKeptSession, keepSession, restoreSession } from '../../../features/customer-portal/api/kept-session';
import { createCustomerClient } from '../../../features/customer-portal/api/portal-client';
import { PortalShell } from '../../../features/customer-portal/components/portal-shell';
import { EmailCodeSignIn } from '../../../features/customer-portal/components/email-code-sign-in';
import { SessionEnded } from '../../../features/customer-portal/components/session-ended';
import {
  portalQueryKey,
  PortalSessionProvider,
  sessionNumberOf,
  usePortalSession,
  type PortalSession,
} from '../../../features/customer-portal/session/portal-session';
import { useSessionToken } from '../../../features/customer-portal/session/use-session-token';
import { isUnauthorized } from '../../../lib/api-error';

/** `/portal/:slug`: the customer portal of an organization, entered with a customer session link. */
export function Component() {
  const { slug = '' } = useParams();
  // Another organization is another session: its state starts over.
  return <PortalLayout key={slug} slug={slug} />;
}

function PortalLayout({ slug }: { slug: string }) {
  const session = useSessionToken(slug);
  const storefront = useOrganization(slug);
  const queryClient = useQueryClient();
  const { token, expire, signOut, adopt } = session;
  const organizationId = storefront.data?.organization.id;

  // Across tabs: a tab without a token (a link opened in a new tab) restores the one kept by the API's
  // HttpOnly cookie; a tab with a token keeps it there. Only before anything else ended the session.
  const [restoring, setRestoring] = useState(session.ended === 'missing');
  useEffect(() => {
    if (!organizationId || !restoring) return;
    let current = true;
    void restoreSession(organizationId).then((kept) => {
      if (!current) return;
      if (kept) adopt(kept);
      setRestoring(false);
    });
    return () => {
      current = false;
    };
  }, [organizationId, restoring, adopt]);
  useEffect(() => {
    if (token && organizationId) void keepSession(token);
  }, [token, organizationId]);

  // What a session read is dropped with it, so nothing of it shows after signing out; the kept one too.
  const forget = useCallback(
    (end: () => void) => {
      queryClient.removeQueries({ queryKey: portalQueryKey(slug) });
      if (organizationId) void forgetKeptSession(organizationId);
      end();
    },
    [queryClient, slug, organizationId],
  );
  const onUnauthorized = useCallback(() => forget(expire), [forget, expire]);
  const onSignOut = useCallback(() => forget(signOut), [forget, signOut]);
  const portal = useMemo<PortalSession | null>(
    () =>
      token && storefront.data
        ? {
            slug,
            storefront: storefront.data,
            client: createCustomerClient(token, onUnauthorized),
            queryKey: [...portalQueryKey(slug), sessionNumberOf(token)],
            signOut: onSignOut,
          }
        : null,
    [slug, token, storefront.data, onUnauthorized, onSignOut],
  );

  if (storefront.isPending || (restoring && !token && !storefront.isError))
    return <Loading label="Loading the customer portal…" />;
  if (storefront.isError)
    return (
      <main className="mx-auto max-w-xl p-8">
        {storefront.error instanceof ResourceNotFound ? (
          <EmptyState
            title="No customer portal here"
            description="There is no organization at this address. Check the link you followed, or ask the seller for a new one."
          />
        ) : (
          <ApiErrorAlert error={storefront.error} />
        )}
      </main>
    );
  const organization = storefront.data.organization;
  if (!portal)
    return (
      <PortalShell organization={organization}>
        <SessionEnded reason={session.ended ?? 'missing'} sellerName={organization.name} />
        <EmailCodeSignIn organizationId={organization.id} slug={slug} />
      </PortalShell>
    );
  return (
    <PortalSessionProvider session={portal}>
      <SignedIn />
    </PortalSessionProvider>
  );
}

/** The portal once the customer of the session is known: a refused token never shows a page. */
function SignedIn() {
  const { storefront, signOut, slug } = usePortalSession();
  const customer = useCustomer();
  // The Usage page is offered to customers with at least one meter (usage or credits).
  const meters = useCustomerMeters({ limit: 1 });
  const hasUsage = (meters.data?.pagination.total_count ?? 0) > 0;
  // The Downloads page to customers with at least one file.
  const downloadables = useDownloadables({ limit: 1 });
  const hasDownloads = (downloadables.data?.pagination.total_count ?? 0) > 0;
  const organization = storefront.organization;

  if (customer.isPending)
    return (
      <PortalShell organization={organization}>
        <Loading label="Opening your account…" />
      </PortalShell>
    );
  if (customer.isError)
    return (
      <PortalShell organization={organization}>
        {isUnauthorized(customer.error) ? (
          <>
            <SessionEnded reason="expired" sellerName={organization.name} />
            <EmailCodeSignIn organizationId={organization.id} slug={slug} />
          </>
        ) : (
          <ApiErrorAlert error={customer.error} />
        )}
      </PortalShell>
    );
  return (
    <PortalShell
      organization={organization}
      account={{ email: customer.data.email, onSignOut: signOut }}
      hasUsage={hasUsage}
      hasDownloads={hasDownloads}
    >
      <Outlet />
    </PortalShell>
  );
}
