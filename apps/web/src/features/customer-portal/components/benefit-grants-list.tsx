import type { CustomerPortalCustomer } from '@tessera/sdk';
import { EmptyState } from '../../../components/ui/empty-state';
import { PagedList, usePage } from '../../../components/ui/paged-list';
import { useBenefitGrants } from '../api/get-benefit-grants';
import { groupByType } from '../logic/benefit-grants';
import { BenefitGrantCard } from './benefit-grant-card';

// Benefits are read by kind, so a page holds many: a customer seldom has more than a handful.
const PAGE_SIZE = 50;

export interface BenefitGrantsListProps {
  customer: CustomerPortalCustomer;
  sellerName: string;
}

/** The customer's benefits, grouped by kind: keys, downloads, notes, credits, Discord, GitHub. */
export function BenefitGrantsList({ customer, sellerName }: BenefitGrantsListProps) {
  const [page, setPage] = usePage('');
  const query = useBenefitGrants({ page, limit: PAGE_SIZE, sorting: ['type', '-granted_at'] });
  return (
    <PagedList
      query={query}
      label="Benefits"
      loadingLabel="Loading your benefits…"
      page={page}
      onPageChange={setPage}
      empty={
        <EmptyState
          title="No benefits yet"
          description={`License keys, downloads and other benefits of what you buy from ${sellerName} appear here.`}
        />
      }
    >
      {(grants) => (
        <div className="space-y-8">
          {groupByType(grants).map((section) => (
            <section key={section.type} aria-labelledby={`benefits-${section.type}`} className="space-y-3">
              <h2 id={`benefits-${section.type}`} className="text-lg font-semibold text-slate-900">
                {section.title}
              </h2>
              {section.grants.map((grant) => (
                <BenefitGrantCard key={grant.id} grant={grant} customer={customer} sellerName={sellerName} />
              ))}
            </section>
          ))}
        </div>
      )}
    </PagedList>
  );
}
