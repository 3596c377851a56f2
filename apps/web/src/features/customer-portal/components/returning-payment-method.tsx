import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { useToast } from '../../../components/ui/toast';
import { usePaymentMethodCalls } from '../api/add-payment-method';
import { returningPaymentMethodId } from '../logic/payment-methods';

/**
 * A card whose bank sent the customer to its own page comes back here with `payment_method_id` in the
 * address: the API is asked to finish saving it once, and the address is cleaned up.
 */
export function ReturningPaymentMethod() {
  const location = useLocation();
  const navigate = useNavigate();
  const calls = usePaymentMethodCalls();
  const toast = useToast();
  const [error, setError] = useState<unknown>(null);
  const handled = useRef<string | null>(null);
  const id = returningPaymentMethodId(location.search);
  useEffect(() => {
    if (!id || handled.current === id) return;
    handled.current = id;
    calls
      .confirm(id)
      .then(async (saved) => {
        await calls.saved();
        if (saved.status === 'succeeded') toast('Your card is saved');
      })
      .catch(setError)
      .finally(() => void navigate(location.pathname, { replace: true }));
  }, [id, calls, navigate, location.pathname, toast]);
  return error ? <ApiErrorAlert error={error} /> : null;
}
