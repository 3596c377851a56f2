import { z } from 'zod/v4';
import { oneOrList, paginationQuery, queryString, sortingQuery } from '../../platform/http/query.js';
import { DateTime, Id, ListResource } from '../../platform/http/schemas.js';
import { Customer } from '../customers/customers.schemas.js';
import { Meter } from '../meters/meters.schemas.js';

const fields = {
  id: z.uuid(),
  created_at: DateTime(),
  modified_at: DateTime().nullable(),
  customer_id: z.uuid(),
  meter_id: z.uuid(),
  consumed_units: z.number(),
  credited_units: z.int(),
  balance: z.number(),
};

export const CustomerMeter = z.object({ ...fields, customer: Customer, meter: Meter }).meta({ id: 'CustomerMeter' });
export const ListResourceCustomerMeter = ListResource(CustomerMeter, 'ListResourceCustomerMeter');

export const CUSTOMER_METER_SORT_KEYS = [
  'created_at',
  'modified_at',
  'customer_id',
  'customer_name',
  'meter_id',
  'meter_name',
  'consumed_units',
  'credited_units',
  'balance',
] as const;
export type CustomerMeterSortKey = (typeof CUSTOMER_METER_SORT_KEYS)[number];

export const CustomerMeterListQuery = z.object({
  organization_id: oneOrList(Id()),
  customer_id: oneOrList(Id()),
  external_customer_id: oneOrList(z.string().min(1).max(500)),
  meter_id: oneOrList(Id()),
  ...paginationQuery,
  sorting: sortingQuery(CUSTOMER_METER_SORT_KEYS, ['-modified_at']),
});
export type CustomerMeterListParams = z.output<typeof CustomerMeterListQuery>;

/** The meter as the customer sees it. */
export const CustomerCustomerMeterMeter = z
  .object({ created_at: DateTime(), modified_at: DateTime().nullable(), id: z.uuid(), name: z.string() })
  .meta({ id: 'CustomerCustomerMeterMeter' });

export const CustomerCustomerMeter = z
  .object({ ...fields, meter: CustomerCustomerMeterMeter })
  .meta({ id: 'CustomerCustomerMeter' });
export const ListResourceCustomerCustomerMeter = ListResource(
  CustomerCustomerMeter,
  'ListResourceCustomerCustomerMeter',
);

export const CUSTOMER_CUSTOMER_METER_SORT_KEYS = [
  'created_at',
  'modified_at',
  'meter_id',
  'meter_name',
  'consumed_units',
  'credited_units',
  'balance',
] as const;

export const CustomerCustomerMeterListQuery = z.object({
  meter_id: oneOrList(Id()),
  query: queryString(),
  ...paginationQuery,
  sorting: sortingQuery(CUSTOMER_CUSTOMER_METER_SORT_KEYS, ['-modified_at']),
});
export type CustomerCustomerMeterListParams = z.output<typeof CustomerCustomerMeterListQuery>;
