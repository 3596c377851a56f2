import { useQuery } from '@tanstack/react-query';
import {
  customerPortalDownloadablesList,
  customerPortalLicenseKeysList,
  customerPortalOrdersList,
  customerPortalSubscriptionsGet,
  customerPortalSubscriptionsList,
  TesseraCore,
  type CustomerOrder,
  type CustomerSubscription,
  type DownloadableRead,
  type LicenseKeyRead,
} from '@tessera/sdk';

export interface Purchase {
  order: CustomerOrder | null;
  subscription: CustomerSubscription | null;
  licenseKeys: LicenseKeyRead[];
  downloadables: DownloadableRead[];
}

/**
 * What the buyer got from this checkout, read with the customer session the confirmation opened: the
 * order (its receipt), the subscription (its next charge or its trial), and the license keys and files granted. The
 * dashboard's cookie is left out: these calls act as the customer only.
 */
export async function getPurchase(token: string, checkoutId: string): Promise<Purchase> {
  const core = new TesseraCore({
    serverURL: window.location.origin,
    fetch: (input, init) => fetch(input, { ...init, credentials: 'omit' }),
  });
  const auth = { customerSession: token };
  const [orders, licenseKeys, downloadables] = await Promise.all([
    customerPortalOrdersList(core, { limit: 20, sorting: ['-created_at'] }, auth),
    customerPortalLicenseKeysList(core, { limit: 100 }, auth),
    customerPortalDownloadablesList(core, { limit: 100 }, auth),
  ]);
  const order = orders.result.items.find((item) => item.checkout_id === checkoutId) ?? null;
  // A free trial has no order yet: its subscription is found by the checkout that started it.
  const subscription = order?.subscription_id
    ? await customerPortalSubscriptionsGet(core, { id: order.subscription_id }, auth)
    : ((await customerPortalSubscriptionsList(core, { limit: 20 }, auth)).result.items.find(
        (item) => item.checkout_id === checkoutId,
      ) ?? null);
  return { order, subscription, licenseKeys: licenseKeys.result.items, downloadables: downloadables.result.items };
}

/**
 * The purchase, read again every two seconds while the benefits the product gives are still being
 * granted (the grants are made by jobs just after the payment), for up to a minute.
 */
export function usePurchase(token: string | null, checkoutId: string, expectedGrants: number) {
  return useQuery({
    queryKey: ['checkouts', 'purchase', checkoutId, token],
    queryFn: () => getPurchase(token!, checkoutId),
    enabled: token !== null,
    refetchInterval: (query) => {
      const data = query.state.data;
      if (!data || query.state.dataUpdateCount > 30) return false;
      const granted = data.licenseKeys.length + data.downloadables.length;
      return (data.order === null && data.subscription === null) || granted < expectedGrants ? 2000 : false;
    },
  });
}
