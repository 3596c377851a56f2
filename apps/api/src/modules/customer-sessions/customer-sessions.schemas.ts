import { z } from 'zod/v4';
import { DateTime, Id } from '../../platform/http/schemas.js';
import { Customer } from '../customers/customers.schemas.js';

/**
 * The customer is named by our id or by the seller's external id. SDK 0.33.2 sends
 * `customer_external_id`; later versions of the reference call it `external_customer_id`, and both are
 * accepted.
 */
export const CustomerSessionCustomerIDCreate = z
  .object({ customer_id: Id() })
  .meta({ id: 'CustomerSessionCustomerIDCreate' });

export const CustomerSessionCustomerExternalIDCreate = z
  .object({ customer_external_id: z.string() })
  .meta({ id: 'CustomerSessionCustomerExternalIDCreate' });

export const CustomerSessionExternalCustomerIDCreate = z
  .object({ external_customer_id: z.string() })
  .meta({ id: 'CustomerSessionExternalCustomerIDCreate' });

export const CustomerSessionCreate = z.union([
  CustomerSessionCustomerIDCreate,
  CustomerSessionCustomerExternalIDCreate,
  CustomerSessionExternalCustomerIDCreate,
]);
export type CustomerSessionCreateInput = z.output<typeof CustomerSessionCreate>;

export const CustomerSession = z
  .object({
    created_at: DateTime(),
    modified_at: DateTime().nullable(),
    id: z.uuid(),
    token: z.string(),
    expires_at: DateTime(),
    customer_portal_url: z.string(),
    customer_id: z.uuid(),
    customer: Customer,
  })
  .meta({ id: 'CustomerSession' });
