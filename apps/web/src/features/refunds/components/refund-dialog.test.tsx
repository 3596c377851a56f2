// @vitest-environment happy-dom
import type { Order } from '@tessera/sdk';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider } from '../../../components/ui/toast';
import { fakeApi, renderWithQueryClient } from '../../../testing/fake-api';
import { RefundDialog } from './refund-dialog';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ORDER_ID = '00000000-0000-4000-8000-00000000a001';

/** The fields of an order the dialog reads. */
function order(overrides: Partial<Order> = {}): Order {
  return {
    id: ORDER_ID,
    status: 'partially_refunded',
    currency: 'usd',
    net_amount: 1000,
    refunded_amount: 250,
    subscription_id: null,
    ...overrides,
  } as Order;
}

function renderDialog(value: Order, onRefunded = vi.fn()) {
  renderWithQueryClient(
    <ToastProvider>
      <RefundDialog order={value} onRefunded={onRefunded} />
    </ToastProvider>,
  );
  return onRefunded;
}

const refund = (amount: number, tax: number) => ({
  status: 200,
  body: {
    created_at: '2026-01-15T12:00:00.000Z',
    modified_at: '2026-01-15T12:00:00.000Z',
    id: '00000000-0000-4000-8000-00000000c001',
    metadata: {},
    status: 'succeeded',
    reason: 'customer_request',
    amount,
    tax_amount: tax,
    currency: 'usd',
    organization_id: '00000000-0000-4000-8000-00000000d001',
    order_id: ORDER_ID,
    subscription_id: null,
    customer_id: '00000000-0000-4000-8000-00000000e001',
    revoke_benefits: true,
  },
});

describe('RefundDialog', () => {
  it('refunds what is left by default, with the reason and revocation asked, and tells the page', async () => {
    const user = userEvent.setup();
    const api = fakeApi({ 'POST /v1/refunds/': () => refund(750, 150) });
    const onRefunded = renderDialog(order());
    await user.click(screen.getByRole('button', { name: 'Refund' }));
    expect(screen.getByLabelText('Amount (USD, excluding tax)')).toHaveProperty('value', '7.50');
    await user.click(screen.getByLabelText('Revoke the benefits of this order'));
    await user.click(screen.getAllByRole('button', { name: 'Refund' }).at(-1)!);
    await waitFor(() => expect(onRefunded).toHaveBeenCalled());
    expect(api.of('POST', '/v1/refunds/').map((r) => r.body)).toEqual([
      { order_id: ORDER_ID, amount: 750, reason: 'customer_request', comment: null, revoke_benefits: true },
    ]);
    await screen.findByText('Refunded $9.00');
  });

  it('checks the amount before asking, and shows the API refusal', async () => {
    const user = userEvent.setup();
    const api = fakeApi({
      'POST /v1/refunds/': () => ({
        status: 400,
        body: { error: 'RefundAmountTooHigh', detail: 'Refund amount exceeds remaining order balance: 500' },
      }),
    });
    renderDialog(order({ subscription_id: '00000000-0000-4000-8000-00000000b001' }));
    await user.click(screen.getByRole('button', { name: 'Refund' }));
    // A subscription's benefits go when it is canceled, not with a refund.
    expect(screen.queryByLabelText('Revoke the benefits of this order')).toBeNull();
    const amount = screen.getByLabelText('Amount (USD, excluding tax)');
    await user.clear(amount);
    await user.type(amount, '8');
    await user.click(screen.getAllByRole('button', { name: 'Refund' }).at(-1)!);
    await screen.findByText('The amount is more than is left to refund.');
    expect(api.requests).toEqual([]);

    await user.clear(amount);
    await user.type(amount, '6');
    await user.click(screen.getAllByRole('button', { name: 'Refund' }).at(-1)!);
    await screen.findByText(/Refund amount exceeds remaining order balance: 500/);
    expect(api.of('POST', '/v1/refunds/')).toHaveLength(1);
  });

  it('is disabled for an order with nothing left to refund', () => {
    renderDialog(order({ status: 'refunded', refunded_amount: 1000 }));
    expect(screen.getByRole('button', { name: 'Refund' })).toHaveProperty('disabled', true);
  });
});
