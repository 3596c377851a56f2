import type { z } from 'zod/v4';
import { iso } from '../../platform/http/schemas.js';
import { serializeCustomer } from '../customers/customers.serializer.js';
import { serializeMeter } from '../meters/meters.serializer.js';
import type { CustomerCustomerMeter, CustomerMeter } from './customer-meters.schemas.js';
import type { CustomerMeterEntry } from './customer-meters.service.js';

function fields(entry: CustomerMeterEntry) {
  return {
    id: entry.id,
    created_at: entry.created_at,
    modified_at: entry.modified_at,
    customer_id: entry.customer.id,
    meter_id: entry.meter_id,
    consumed_units: entry.consumed_units,
    credited_units: entry.credited_units,
    balance: entry.balance,
  };
}

export function serializeCustomerMeter(entry: CustomerMeterEntry): z.input<typeof CustomerMeter> {
  return { ...fields(entry), customer: serializeCustomer(entry.customer), meter: serializeMeter(entry.meter) };
}

export function serializeCustomerCustomerMeter(entry: CustomerMeterEntry): z.input<typeof CustomerCustomerMeter> {
  const { meter } = entry;
  return {
    ...fields(entry),
    meter: { created_at: iso(meter.created_at), modified_at: iso(meter.modified_at), id: meter.id, name: meter.name },
  };
}
