import { customerPortalOrdersInvoice } from '@tessera/sdk';
import type { PortalClient } from './portal-client';

/** A short-lived link to the order's invoice, asked for at the moment of the download. */
export function getOrderInvoice(client: PortalClient, id: string) {
  return customerPortalOrdersInvoice(client.core, { id }, client.auth);
}
