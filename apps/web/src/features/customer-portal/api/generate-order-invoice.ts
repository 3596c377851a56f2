import { customerPortalOrdersGenerateInvoice } from '@tessera/sdk';
import type { PortalClient } from './portal-client';

/** Asks for the order's invoice; the API renders it in the background (202). */
export function generateOrderInvoice(client: PortalClient, id: string) {
  return customerPortalOrdersGenerateInvoice(client.core, { id }, client.auth);
}
