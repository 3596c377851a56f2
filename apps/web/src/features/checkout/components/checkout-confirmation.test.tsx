// @vitest-environment happy-dom
import type { CheckoutPublic } from '@tessera/sdk';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkoutFixture } from '../testing/fixtures';
import { CheckoutConfirmation, type CheckoutConfirmationProps } from './checkout-confirmation';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const succeeded = checkoutFixture({ status: 'succeeded', customer_email: 'ada@example.com' });

function renderConfirmation(checkout: CheckoutPublic, props: Partial<CheckoutConfirmationProps> = {}) {
  const postMessage = vi.fn();
  const navigateAway = vi.fn();
  // The purchase's portal reads are not answered here: the page shows what the checkout says.
  vi.stubGlobal('fetch', () => new Promise(() => {}));
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <CheckoutConfirmation
          checkout={checkout}
          customerSessionToken="polar_cst_1"
          embedded={false}
          timedOut={false}
          postMessage={postMessage}
          navigateAway={navigateAway}
          {...props}
        />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { postMessage, navigateAway };
}

describe('CheckoutConfirmation', () => {
  it('says what was bought and the amount paid', () => {
    renderConfirmation(succeeded);
    const summary = screen.getByLabelText('Your purchase');
    expect(summary.textContent).toContain('Purchased');
    expect(summary.textContent).toContain(succeeded.product.name);
    expect(summary.textContent).toContain('Amount paid');
  });

  it('thanks the buyer and links the customer portal with their session', () => {
    const { postMessage, navigateAway } = renderConfirmation(succeeded);
    expect(screen.getByRole('heading', { name: 'Thank you for your purchase!' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open the customer portal' }).getAttribute('href')).toBe(
      '/portal/acme-software?customer_session_token=polar_cst_1',
    );
    expect(screen.queryByRole('link', { name: 'Continue' })).toBeNull();
    expect(postMessage).toHaveBeenCalledWith({
      type: 'POLAR_CHECKOUT',
      event: 'success',
      successURL: succeeded.success_url,
      redirect: false,
    });
    expect(navigateAway).not.toHaveBeenCalled();
  });

  it('without a session (the email was already a customer’s), says how to reach the portal', () => {
    renderConfirmation(succeeded, { customerSessionToken: null });
    expect(screen.queryByRole('link', { name: 'Open the customer portal' })).toBeNull();
    screen.getByText(/sign in there with your email address, and we send you a code/);
    expect(screen.getByRole('link', { name: 'Sign in to the customer portal' }).getAttribute('href')).toBe(
      '/portal/acme-software',
    );
  });

  it('goes on to the seller’s success URL after a few seconds, with a link to go at once', () => {
    vi.useFakeTimers();
    const { navigateAway } = renderConfirmation({ ...succeeded, success_url: 'https://shop.example/thanks' });
    expect(screen.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe('https://shop.example/thanks');
    expect(screen.getByRole('status').textContent).toBe('Taking you back to shop.example in 5 s.');
    for (let second = 0; second < 4; second++) act(() => vi.advanceTimersByTime(1000));
    expect(navigateAway).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1000));
    expect(navigateAway).toHaveBeenCalledWith('https://shop.example/thanks');
  });

  it('leaves the redirect to the embedding page', () => {
    vi.useFakeTimers();
    const { postMessage, navigateAway } = renderConfirmation(
      { ...succeeded, success_url: 'https://shop.example/thanks' },
      { embedded: true },
    );
    act(() => vi.advanceTimersByTime(10_000));
    expect(navigateAway).not.toHaveBeenCalled();
    expect(postMessage).toHaveBeenCalledWith({
      type: 'POLAR_CHECKOUT',
      event: 'success',
      successURL: 'https://shop.example/thanks',
      redirect: true,
    });
  });

  it('waits for a confirmed payment, and says so when it takes long', () => {
    const confirmed = { ...succeeded, status: 'confirmed' as const };
    const { postMessage } = renderConfirmation(confirmed);
    expect(screen.getByText('Waiting for the payment to go through…')).toBeTruthy();
    expect(postMessage).not.toHaveBeenCalled();
    cleanup();
    renderConfirmation(confirmed, { timedOut: true });
    expect(screen.getByRole('status').textContent).toMatch(/^This is taking longer than usual\./);
  });

  it('sends a buyer back to a checkout that was not paid', () => {
    renderConfirmation({ ...succeeded, status: 'open' });
    expect(screen.getByRole('heading', { name: 'This checkout has not been paid yet' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the checkout' }).getAttribute('href')).toBe(
      '/checkout/polar_c_fixture',
    );
  });
});
