import type { Benefit } from '@tessera/sdk';
import { useId } from 'react';
import { Link } from 'react-router';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Card } from '../../../components/ui/card';
import { Loading } from '../../../components/ui/spinner';

const TYPE_LABELS: Record<Benefit['type'], string> = {
  custom: 'Custom',
  license_keys: 'License keys',
  github_repository: 'GitHub repository',
  discord: 'Discord',
  downloadables: 'Downloadables',
  meter_credit: 'Meter credit',
};

export interface ProductBenefitsFieldsetProps {
  /** Every choice, in the order shown (attached first). */
  choices: readonly Benefit[];
  isLoading: boolean;
  loadError: unknown;
  selected: ReadonlySet<string>;
  onToggle(benefitId: string, selected: boolean): void;
  /** A problem the API found with one benefit of the list sent. */
  errorFor(benefitId: string): string | undefined;
  /** Why the benefits were not saved, when the product itself was. */
  saveError: unknown;
  benefitsPath: string;
}

/** One checkbox per benefit, named by its description; its type and note beside it. */
export function ProductBenefitsFieldset(props: ProductBenefitsFieldsetProps) {
  const { choices, isLoading, loadError, selected, onToggle, errorFor, saveError, benefitsPath } = props;
  const id = useId();
  return (
    <Card>
      <fieldset>
        <legend className="mb-1 text-base font-semibold text-slate-900">Benefits</legend>
        <p className="mb-3 text-sm text-slate-600">
          Granted to customers when they buy the product, and revoked when a subscription ends.{' '}
          <Link className="font-medium text-blue-800 underline" to={benefitsPath}>
            Manage benefits
          </Link>
        </p>
        {saveError ? (
          <div className="mb-3">
            <ApiErrorAlert error={saveError} shownFields={choices.map((_, index) => `benefits.${index}`)} />
          </div>
        ) : null}
        {loadError ? (
          <div className="mb-3">
            <ApiErrorAlert error={loadError} />
          </div>
        ) : null}
        {isLoading ? (
          <Loading label="Loading benefits…" />
        ) : choices.length === 0 ? (
          // Without the list, "none yet" may be untrue: the alert above says what failed.
          !loadError && (
            <p className="text-sm text-slate-700">
              No benefits yet. Create license keys, notes or other benefits on the{' '}
              <Link className="font-medium text-blue-800 underline" to={benefitsPath}>
                Benefits page
              </Link>
              , then attach them here.
            </p>
          )
        ) : (
          <ul className="divide-y divide-slate-100 rounded-md border border-slate-200">
            {choices.map((benefit, index) => {
              const detailsId = `${id}-${index}`;
              const error = errorFor(benefit.id);
              return (
                <li key={benefit.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-3">
                  <label className="inline-flex items-center gap-2 text-sm font-medium text-slate-900">
                    <input
                      type="checkbox"
                      className="size-4 rounded border-slate-400 accent-blue-700"
                      checked={selected.has(benefit.id)}
                      // A benefit the platform manages can be neither attached nor detached by hand.
                      disabled={!benefit.selectable}
                      aria-describedby={detailsId}
                      aria-invalid={error ? true : undefined}
                      onChange={(event) => onToggle(benefit.id, event.target.checked)}
                    />
                    {benefit.description}
                  </label>
                  <span id={detailsId} className="inline-flex items-center gap-2 text-xs text-slate-600">
                    <Badge tone="info">{TYPE_LABELS[benefit.type] ?? benefit.type}</Badge>
                    {!benefit.selectable && <span>Managed by Tessera</span>}
                    {error && <span className="text-sm text-red-700">{error}</span>}
                  </span>
                </li>
              );
            })}
          </ul>
        )}
      </fieldset>
    </Card>
  );
}
