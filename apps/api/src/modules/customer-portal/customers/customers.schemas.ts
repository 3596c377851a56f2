import { z } from 'zod/v4';
import { AddressInput } from '../../../platform/http/countries.js';

/**
 * What a customer may change about itself. Only the keys sent change; `tax_id` is the bare number, its
 * format found from the billing address's country.
 */
export const CustomerPortalCustomerUpdate = z
  .object({
    email: z.email({ message: 'Input should be a valid email address' }).max(320).nullable().optional(),
    name: z.string().max(256).nullable().optional(),
    billing_address: AddressInput.nullable().optional(),
    tax_id: z.string().trim().min(1).max(100).nullable().optional(),
  })
  .meta({ id: 'CustomerPortalCustomerUpdate' });
export type CustomerPortalCustomerUpdateInput = z.output<typeof CustomerPortalCustomerUpdate>;
