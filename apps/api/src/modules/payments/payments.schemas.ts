import { z } from 'zod/v4';
import { oneOrList, paginationQuery, sortingQuery } from '../../platform/http/query.js';
import { DateTime, Id, ListResource } from '../../platform/http/schemas.js';

export const PAYMENT_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export const PaymentStatus = z.enum(PAYMENT_STATUSES).meta({ id: 'PaymentStatus' });

/** Tessera's processors are reported as the reference's only value. */
export const PaymentProcessorName = z.literal('stripe').meta({ id: 'PaymentProcessor' });

const base = {
  created_at: DateTime(),
  modified_at: DateTime().nullable(),
  id: z.uuid(),
  processor: PaymentProcessorName,
  status: PaymentStatus,
  amount: z.int(),
  currency: z.string(),
  decline_reason: z.string().nullable(),
  decline_message: z.string().nullable(),
  organization_id: z.uuid(),
  checkout_id: z.uuid().nullable(),
  order_id: z.uuid().nullable(),
};

export const CardPaymentMetadata = z
  .object({ brand: z.string(), last4: z.string() })
  .meta({ id: 'CardPaymentMetadata' });

export const CardPayment = z
  .object({ ...base, method: z.literal('card'), method_metadata: CardPaymentMetadata })
  .meta({ id: 'CardPayment' });

export const GenericPayment = z.object({ ...base, method: z.string() }).meta({ id: 'GenericPayment' });

export const Payment = z.union([CardPayment, GenericPayment]).meta({ id: 'Payment' });

export const ListResourcePayment = ListResource(Payment, 'ListResourcePayment');

export const PaymentListQuery = z.object({
  organization_id: oneOrList(Id()),
  checkout_id: oneOrList(Id()),
  order_id: oneOrList(Id()),
  status: oneOrList(PaymentStatus),
  method: oneOrList(z.string()),
  customer_email: oneOrList(z.string()),
  ...paginationQuery,
  sorting: sortingQuery(['created_at', 'status', 'amount', 'method'], ['-created_at']),
});
export type PaymentListParams = z.output<typeof PaymentListQuery>;
