import { ordersGenerateInvoice } from '@tessera/sdk';
import { client } from '../../../lib/api-client';

/** Asks for the order's invoice; the API renders it in the background (202). */
export function generateOrderInvoice(id: string) {
  return ordersGenerateInvoice(client, { id });
}
