import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { useToast } from '../../../components/ui/toast';
import { useDeletePaymentMethod } from '../api/delete-payment-method';
import { useSetDefaultPaymentMethod } from '../api/set-default-payment-method';
import {
  paymentMethodExpiry,
  paymentMethodLabel,
  sortedPaymentMethods,
  type SavedPaymentMethod,
} from '../logic/payment-methods';

/** The saved cards: which one bills the subscriptions, and the way to change or remove one. */
export function PaymentMethodsList({ methods }: { methods: readonly SavedPaymentMethod[] }) {
  const remove = useDeletePaymentMethod();
  const setDefault = useSetDefaultPaymentMethod();
  const toast = useToast();
  const now = new Date();
  return (
    <div className="space-y-3">
      {remove.error !== null && <ApiErrorAlert error={remove.error} />}
      {setDefault.error !== null && <ApiErrorAlert error={setDefault.error} />}
      <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white" aria-label="Saved cards">
        {sortedPaymentMethods(methods).map((method) => {
          const label = paymentMethodLabel(method);
          const expiry = paymentMethodExpiry(method, now);
          return (
            <li key={method.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
              <div className="min-w-0">
                <p className="flex items-center gap-2 text-sm font-medium text-slate-900">
                  {label}
                  {method.default && <Badge tone="info">Default</Badge>}
                </p>
                {expiry && <p className="text-xs text-slate-600">{expiry}</p>}
              </div>
              <div className="flex gap-2">
                {!method.default && (
                  <Button
                    variant="secondary"
                    size="sm"
                    isPending={setDefault.isPending && setDefault.variables === method.id}
                    onClick={() =>
                      setDefault.mutate(method.id, { onSuccess: () => toast(`${label} is now your default card`) })
                    }
                  >
                    Make default
                  </Button>
                )}
                <ConfirmButton
                  title="Remove this card?"
                  description={`${label} will no longer be charged.${method.default ? ' Another saved card becomes the default.' : ''}`}
                  confirmLabel="Remove card"
                  isPending={remove.isPending && remove.variables === method.id}
                  aria-label={`Remove ${label}`}
                  onConfirm={() => remove.mutate(method.id, { onSuccess: () => toast(`${label} was removed`) })}
                >
                  Remove
                </ConfirmButton>
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
