import { Link } from 'react-router';
import type { Column } from '../ui/table';

interface Sale {
  customer_id: string;
  customer: { email: string };
}

/** The customer of a sale (an order, a subscription) by email, linked to their page; sorts by customer. */
export function customerColumn(dashboardPath: string): Column<Sale, 'customer'> {
  return {
    header: 'Customer',
    sortField: 'customer',
    cell: (sale) => (
      <Link className="underline-offset-2 hover:underline" to={`${dashboardPath}/customers/${sale.customer_id}`}>
        {sale.customer.email}
      </Link>
    ),
  };
}
