import { z } from 'zod/v4';
import { oneOrList, paginationQuery, queryString, sortingQuery } from '../../../platform/http/query.js';
import { Id, ListResource } from '../../../platform/http/schemas.js';
import { Order, OrderSubscription, OrderUpdate, ProductBillingType } from '../../orders/orders.schemas.js';
import { CustomerOrderProduct } from '../customer-portal.schemas.js';

/** The subscription an order embeds, without the seller's metadata. */
export const CustomerOrderSubscription = OrderSubscription.omit({ metadata: true }).meta({
  id: 'CustomerOrderSubscription',
});

/** The seller's order without what is the seller's own: metadata, custom field answers, the discount. */
export const CustomerOrder = Order.omit({ metadata: true, custom_field_data: true, customer: true, discount: true })
  .extend({ product: CustomerOrderProduct, subscription: CustomerOrderSubscription.nullable() })
  .meta({ id: 'CustomerOrder' });

export const ListResourceCustomerOrder = ListResource(CustomerOrder, 'ListResourceCustomerOrder');

export const CUSTOMER_ORDER_SORT_KEYS = ['created_at', 'amount', 'net_amount', 'product', 'subscription'] as const;

export const CustomerOrderListQuery = z.object({
  organization_id: oneOrList(Id()),
  product_id: oneOrList(Id()),
  product_billing_type: oneOrList(ProductBillingType),
  subscription_id: oneOrList(Id()),
  /** Searches the product's name. */
  query: queryString(),
  ...paginationQuery,
  sorting: sortingQuery(CUSTOMER_ORDER_SORT_KEYS, ['-created_at']),
});
export type CustomerOrderListParams = z.output<typeof CustomerOrderListQuery>;

/** The seller's update body: both keys required (nullable), frozen once the invoice exists. */
export const CustomerOrderUpdate = OrderUpdate.meta({ id: 'CustomerOrderUpdate' });

export const CustomerOrderInvoice = z.object({ url: z.string() }).meta({ id: 'CustomerOrderInvoice' });

/** A signed link to the order's receipt PDF. */
export const CustomerOrderReceipt = z.object({ url: z.string() }).meta({ id: 'CustomerOrderReceipt' });

/** `POST …/invoice` answers 202 with an empty JSON object. */
export const CustomerOrderInvoiceAccepted = z.object({}).meta({ id: 'CustomerOrderInvoiceAccepted' });

/** The payment status of one of the customer's orders: its latest payment's, `no_payment` before any. */
export const CustomerOrderPaymentStatus = z
  .object({
    status: z.string().meta({ description: 'Current payment status.' }),
    error: z.string().nullable().optional().meta({ description: 'Error message if payment failed.' }),
  })
  .meta({ id: 'CustomerOrderPaymentStatus' });

export const CustomerOrderConfirmPayment = z
  .object({
    confirmation_token_id: z
      .string()
      .min(1)
      .max(255)
      .nullable()
      .optional()
      .meta({ description: 'ID of the Stripe confirmation token for new payment methods.' }),
    payment_method_id: z.uuid().nullable().optional().meta({ description: 'ID of an existing saved payment method.' }),
    payment_processor: z.literal('stripe').default('stripe'),
  })
  .meta({ id: 'CustomerOrderConfirmPayment' });
export type CustomerOrderConfirmPaymentInput = z.output<typeof CustomerOrderConfirmPayment>;

export const CustomerOrderPaymentConfirmation = z
  .object({
    status: z.string().meta({ description: 'Payment status after confirmation.' }),
    client_secret: z
      .string()
      .nullable()
      .optional()
      .meta({ description: 'Client secret for handling additional actions.' }),
    error: z.string().nullable().optional().meta({ description: 'Error message if confirmation failed.' }),
  })
  .meta({ id: 'CustomerOrderPaymentConfirmation' });
export type CustomerOrderPaymentConfirmationWire = z.input<typeof CustomerOrderPaymentConfirmation>;
