import { ordersInvoice } from '@tessera/sdk';
import { client } from '../../../lib/api-client';

/**
 * A short-lived link to the order's invoice, asked for at the moment of the download (an older one may
 * have expired); before the invoice exists the API answers 404.
 */
export function getOrderInvoice(id: string) {
  return ordersInvoice(client, { id });
}
