import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { PageHeader } from '../../../components/ui/page-header';
import { PagedList, usePage } from '../../../components/ui/paged-list';
import { useToast } from '../../../components/ui/toast';
import { usePaymentMethods } from '../../../features/customer-portal/api/get-payment-methods';
import { AddPaymentMethodForm } from '../../../features/customer-portal/components/add-payment-method-form';
import { PaymentMethodsList } from '../../../features/customer-portal/components/payment-methods-list';
import { portalPath } from '../../../features/customer-portal/components/portal-shell';
import { ReturningPaymentMethod } from '../../../features/customer-portal/components/returning-payment-method';
import { usePortalSession } from '../../../features/customer-portal/session/portal-session';

const PAGE_SIZE = 10;

/** `/portal/:slug/payment-methods`: the saved cards, the default that bills, adding and removing one. */
export function Component() {
  const { slug } = usePortalSession();
  const [page, setPage] = usePage('');
  const [adding, setAdding] = useState(false);
  const toast = useToast();
  const query = usePaymentMethods({ page, limit: PAGE_SIZE });
  const isFirst = query.data?.pagination.total_count === 0;
  const returnUrl = new URL(portalPath(slug, '/payment-methods'), window.location.origin).toString();
  return (
    <>
      <PageHeader
        title="Payment methods"
        description="The cards saved for your subscriptions. Renewals charge your default card."
        actions={!adding && <Button onClick={() => setAdding(true)}>Add a card</Button>}
      />
      <div className="space-y-6">
        <ReturningPaymentMethod />
        {adding && (
          <AddPaymentMethodForm
            returnUrl={returnUrl}
            isFirst={isFirst}
            onSaved={() => {
              setAdding(false);
              toast('Your card is saved');
            }}
            onCancel={() => setAdding(false)}
          />
        )}
        <PagedList
          query={query}
          label="Cards"
          loadingLabel="Loading your cards…"
          page={page}
          onPageChange={setPage}
          empty={
            <EmptyState
              title="No saved cards"
              description="Add a card to pay for your subscriptions. A card you pay with at checkout is saved here too."
            />
          }
        >
          {(methods) => <PaymentMethodsList methods={methods} />}
        </PagedList>
      </div>
    </>
  );
}
