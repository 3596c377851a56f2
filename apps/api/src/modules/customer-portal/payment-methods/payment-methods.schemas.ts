import { z } from 'zod/v4';
import { paginationQuery } from '../../../platform/http/query.js';
import { DateTime, ListResource } from '../../../platform/http/schemas.js';
import { PaymentProcessorName } from '../../payments/payments.schemas.js';

/**
 * A saved payment method as the customer sees it (the reference's `PaymentMethodCard` and
 * `PaymentMethodGeneric`). `default`: the method the customer's subscriptions are billed to.
 */
export const PaymentMethodCardData = z
  .object({
    brand: z.string(),
    last4: z.string(),
    exp_month: z.int(),
    exp_year: z.int(),
    wallet: z.string().nullable().optional(),
  })
  .meta({ id: 'PaymentMethodCardData' });

export const PaymentMethodCard = z
  .object({
    id: z.uuid(),
    type: z.literal('card'),
    created_at: DateTime(),
    default: z.boolean(),
    card: PaymentMethodCardData,
  })
  .meta({ id: 'PaymentMethodCard' });

/** A method whose details Tessera does not know (or not yet: one that waits for authentication). */
export const PaymentMethodGeneric = z
  .object({
    id: z.uuid(),
    type: z.string(),
    created_at: DateTime(),
    default: z.boolean(),
  })
  .meta({ id: 'PaymentMethodGeneric' });

export const PaymentMethod = z.union([PaymentMethodCard, PaymentMethodGeneric]);

export const ListResourcePaymentMethod = ListResource(
  PaymentMethod,
  'ListResourceUnionPaymentMethodCardPaymentMethodGeneric',
);

export const PaymentMethodListQuery = z.object({ ...paginationQuery });

/**
 * A saved payment method as the seller reads it (`GET /v1/customers/{id}/payment-methods`, the
 * reference's `CustomerPaymentMethodCard` and `CustomerPaymentMethodGeneric`). `processor` is the
 * reference's closed enum, which knows only Stripe: the simulated processor plays Stripe's test cards.
 */
export const PaymentMethodCardMetadata = z
  .object({
    brand: z.string(),
    last4: z.string(),
    exp_month: z.int(),
    exp_year: z.int(),
    wallet: z.string().nullable().optional(),
  })
  .meta({ id: 'PaymentMethodCardMetadata' });

const sellerView = {
  id: z.uuid(),
  created_at: DateTime(),
  modified_at: DateTime().nullable(),
  processor: PaymentProcessorName,
  customer_id: z.uuid(),
  is_default: z.boolean(),
};

export const CustomerPaymentMethodCard = z
  .object({ ...sellerView, type: z.literal('card'), method_metadata: PaymentMethodCardMetadata })
  .meta({ id: 'CustomerPaymentMethodCard' });

export const CustomerPaymentMethodGeneric = z
  .object({ ...sellerView, type: z.string() })
  .meta({ id: 'CustomerPaymentMethodGeneric' });

export const CustomerPaymentMethod = z.union([CustomerPaymentMethodCard, CustomerPaymentMethodGeneric]);

export const ListResourceCustomerPaymentMethod = ListResource(CustomerPaymentMethod, 'ListResourcePaymentMethod');

export const CustomerPaymentMethodCreate = z
  .object({
    confirmation_token_id: z.string().min(1).max(255),
    set_default: z.boolean(),
    return_url: z.string().min(1).max(2048),
  })
  .meta({ id: 'CustomerPaymentMethodCreate' });
export type CustomerPaymentMethodCreateInput = z.output<typeof CustomerPaymentMethodCreate>;

const setupOutcome = {
  /**
   * `succeeded`: the method is saved. `requires_action`: the customer's bank asks for authentication
   * (3-D Secure): the page completes it with `client_secret` (Stripe.js `handleNextAction`), then
   * calls `POST …/payment-methods/{id}/confirm`. The method is listed once saved.
   */
  status: z.enum(['succeeded', 'requires_action']),
  client_secret: z.string().nullable().optional(),
};

/**
 * The answer of adding a method: the method itself (the reference's 201 body, which the SDK reads)
 * plus how its setup stands.
 */
export const CustomerPaymentMethodCreateResponse = z
  .union([
    PaymentMethodCard.extend(setupOutcome).meta({ id: 'CustomerPaymentMethodCardSetup' }),
    PaymentMethodGeneric.extend(setupOutcome).meta({ id: 'CustomerPaymentMethodGenericSetup' }),
  ])
  .meta({ id: 'CustomerPaymentMethodCreateResponse' });
export type CustomerPaymentMethodCreateResponseWire = z.input<typeof CustomerPaymentMethodCreateResponse>;

/**
 * What the portal's card form needs: `stripe` with Stripe's publishable key (the page shows Stripe's
 * Payment Element), or the `simulated` card processor (the page shows its own card form).
 */
export const CustomerPaymentMethodProcessor = z
  .object({
    processor: z.enum(['stripe', 'simulated']),
    publishable_key: z.string().nullable(),
  })
  .meta({ id: 'CustomerPaymentMethodProcessor' });
export type CustomerPaymentMethodProcessorWire = z.input<typeof CustomerPaymentMethodProcessor>;
