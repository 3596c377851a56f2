// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { OrderTotal } from './order-total';

afterEach(cleanup);

const order = { total_amount: 1200, refunded_amount: 0, refunded_tax_amount: 0, currency: 'usd' };

describe('OrderTotal', () => {
  it('shows the total alone when nothing was refunded', () => {
    const { container } = render(<OrderTotal order={order} />);
    expect(container.textContent).toBe('$12.00');
  });

  it('notes what was refunded, tax included', () => {
    const { container } = render(<OrderTotal order={{ ...order, refunded_amount: 500, refunded_tax_amount: 100 }} />);
    expect(container.textContent).toBe('$12.00−$6.00 refunded');
  });
});
