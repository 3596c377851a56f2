export {
  CustomerCustomerMeter,
  CustomerCustomerMeterListQuery,
  ListResourceCustomerCustomerMeter,
} from '../../customer-meters/customer-meters.schemas.js';
