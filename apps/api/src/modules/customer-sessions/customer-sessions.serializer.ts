import type { z } from 'zod/v4';
import { iso } from '../../platform/http/schemas.js';
import type { CustomerRow } from '../customers/customers.repository.js';
import { serializeCustomer } from '../customers/customers.serializer.js';
import type { CustomerSessionRow } from './customer-sessions.repository.js';
import type { CustomerSession } from './customer-sessions.schemas.js';

export type CustomerSessionWire = z.input<typeof CustomerSession>;

/** A created session: the raw token exists only here, in the response to its creation. */
export interface CreatedCustomerSession {
  session: CustomerSessionRow;
  customer: CustomerRow;
  token: string;
  customerPortalUrl: string;
}

export function serializeCustomerSession(created: CreatedCustomerSession): CustomerSessionWire {
  return {
    created_at: iso(created.session.created_at),
    modified_at: iso(created.session.modified_at),
    id: created.session.id,
    token: created.token,
    expires_at: iso(created.session.expires_at),
    customer_portal_url: created.customerPortalUrl,
    customer_id: created.session.customer_id,
    customer: serializeCustomer(created.customer),
  };
}
