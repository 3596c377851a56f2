import { useUndeliveredBenefitGrants } from '../api/get-benefit-grants';

/**
 * The grants of a Discord or GitHub benefit that Discord or GitHub refused, with their error: what the
 * seller can fix (a role above the bot's, a repository the token cannot reach). Revoked grants are not shown.
 */
export function FailedGrants({ benefitId }: { benefitId: string }) {
  const grants = useUndeliveredBenefitGrants(benefitId, true);
  const failed = (grants.data?.items ?? []).filter((grant) => !grant.is_revoked && grant.error);
  if (failed.length === 0) return null;
  return (
    <section aria-labelledby="failed-grants" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm">
      <h3 id="failed-grants" className="font-medium text-amber-900">
        Customers waiting for access ({failed.length})
      </h3>
      <ul className="mt-2 space-y-1 text-slate-800">
        {failed.map((grant) => (
          <li key={grant.id}>
            <span className="font-medium">{grant.customer.email}</span>: {grant.error?.message}
          </li>
        ))}
      </ul>
    </section>
  );
}
