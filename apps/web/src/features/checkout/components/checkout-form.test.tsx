// @vitest-environment happy-dom
import type { CheckoutPublic } from '@tessera/sdk';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, renderWithQueryClient, type Handler } from '../../../testing/fake-api';
import { checkoutQueryKey, useCheckout } from '../api/get-checkout';
import type { ConfirmationTokenSource } from '../logic/payment';
import { attachedField, checkoutFixture, customPrice, fixedPrice, freePrice, product } from '../testing/fixtures';
import { CheckoutForm } from './checkout-form';

// Stripe.js cannot load here: its form stands in with a token source of its own.
vi.mock('./stripe-payment-form', () => ({
  StripePaymentForm({ sourceRef }: { sourceRef: { current: ConfirmationTokenSource | null } }) {
    useEffect(() => {
      sourceRef.current = { createConfirmationToken: async () => 'ctoken_stripe_1' };
    }, [sourceRef]);
    return <p>Stripe payment form</p>;
  },
}));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const SECRET = 'polar_c_fixture';
const CLIENT = `/v1/checkouts/client/${SECRET}`;
const FRANCE = { country: 'FR', line1: null, line2: null, postal_code: null, city: null, state: null };
const GOOD_CARD = { number: '4242 4242 4242 4242', expiry: '1234', cvc: '123' };

const teamField = attachedField(
  { slug: 'team', name: 'Team name', type: 'text', properties: { max_length: 20 } },
  true,
);

/** The form as the page shows it: fed by the cached checkout, which every save replaces. */
function Page({ onConfirmed = () => {} }: { onConfirmed?: (checkout: CheckoutPublic) => void }) {
  const checkout = useCheckout(SECRET);
  if (!checkout.data) return null;
  return <CheckoutForm checkout={checkout.data} onConfirmed={onConfirmed} onGone={() => {}} />;
}

function renderPage(checkout: CheckoutPublic, onConfirmed?: (checkout: CheckoutPublic) => void) {
  const rendered = renderWithQueryClient(<Page onConfirmed={onConfirmed} />);
  rendered.queryClient.setQueryData(checkoutQueryKey(SECRET), checkout);
  return rendered;
}

const echo =
  (checkout: CheckoutPublic): Handler =>
  () => ({ status: 200, body: checkout });

async function fillBuyer(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
  await user.type(screen.getByLabelText('Name'), 'Ada Lovelace');
}

async function fillCard(user: ReturnType<typeof userEvent.setup>, card = GOOD_CARD) {
  await user.type(screen.getByLabelText('Card number'), card.number);
  await user.type(screen.getByLabelText('Expiry date'), card.expiry);
  await user.type(screen.getByLabelText('Security code'), card.cvc);
}

function summaryValue(label: string): string | null | undefined {
  const summary = screen.getByRole('region', { name: 'Order summary' });
  const term = within(summary)
    .getAllByText(label, { exact: true })
    .find((element) => element.tagName === 'DT');
  return term?.nextElementSibling?.textContent;
}

describe('CheckoutForm', () => {
  it('saves what the buyer types once they pause, and shows the amounts the API computed', async () => {
    const tipJar = product('Tip jar', (id) => [customPrice(id)]);
    const checkout = checkoutFixture({
      product: tipJar,
      products: [tipJar],
      product_price: tipJar.prices[0]!,
      amount: 2000,
    });
    const api = fakeApi({
      [`PATCH ${CLIENT}`]: ({ body }) => {
        const amount = (body as { amount?: number }).amount ?? checkout.amount;
        return { status: 200, body: { ...checkout, amount, net_amount: amount, total_amount: amount } };
      },
    });
    // The keystrokes of the burst are typed without yielding to timers between them (no delay): on a busy
    // machine a keystroke can take longer than the pause that saves, which would split the burst.
    const user = userEvent.setup({ delay: null });
    renderPage(checkout);

    const amount = await screen.findByLabelText('Name a fair price (USD)');
    expect((amount as HTMLInputElement).value).toBe('20.00');
    expect(screen.getByText('Minimum $5.00, maximum $100.00. Suggested: $20.00.')).toBeTruthy();
    await user.clear(amount);
    await user.type(amount, '42.5');

    await waitFor(() => expect(summaryValue('Total')).toBe('$42.50'));
    // One save for the whole burst of keystrokes.
    expect(api.of('PATCH', CLIENT)).toHaveLength(1);
    expect(api.of('PATCH', CLIENT)[0]!.body).toMatchObject({ amount: 4250, is_business_customer: false });
  });

  it('says at once when a pay-what-you-want amount is out of bounds, and does not send it', async () => {
    const tipJar = product('Tip jar', (id) => [customPrice(id)]);
    const checkout = checkoutFixture({
      product: tipJar,
      products: [tipJar],
      product_price: tipJar.prices[0]!,
      amount: 2000,
    });
    const api = fakeApi({ [`PATCH ${CLIENT}`]: echo(checkout) });
    const user = userEvent.setup();
    renderPage(checkout);
    const amount = await screen.findByLabelText('Name a fair price (USD)');
    await user.clear(amount);
    await user.type(amount, '500');
    expect(amount.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Enter at most $100.00.')).toBeTruthy();
    await waitFor(() => expect(api.of('PATCH', CLIENT)).toHaveLength(1));
    expect(api.of('PATCH', CLIENT)[0]!.body).not.toHaveProperty('amount');
  });

  it('switches product and price at once, without the previous amount', async () => {
    const desktop = product('Desktop license', (id) => [fixedPrice(id, 2500)]);
    const tipJar = product('Tip jar', (id) => [customPrice(id)]);
    const checkout = checkoutFixture({
      product: desktop,
      products: [desktop, tipJar],
      product_price: desktop.prices[0]!,
    });
    const switched = {
      ...checkout,
      product: tipJar,
      product_id: tipJar.id,
      product_price: tipJar.prices[0]!,
      product_price_id: tipJar.prices[0]!.id,
      amount: 2000,
      net_amount: 2000,
      total_amount: 2000,
    };
    const api = fakeApi({ [`PATCH ${CLIENT}`]: echo(switched) });
    const user = userEvent.setup();
    renderPage(checkout);

    await user.click(await screen.findByRole('radio', { name: /Tip jar/ }));
    const amount = await screen.findByLabelText('Name a fair price (USD)');
    expect((amount as HTMLInputElement).value).toBe('20.00');
    const [saved] = api.of('PATCH', CLIENT);
    expect(saved!.body).toMatchObject({ product_id: tipJar.id, product_price_id: tipJar.prices[0]!.id });
    expect(saved!.body).not.toHaveProperty('amount');
  });

  it('checks the form before paying, says what is wrong next to each field, and sends nothing', async () => {
    const checkout = checkoutFixture({ attached_custom_fields: [teamField] });
    const api = fakeApi({});
    const user = userEvent.setup();
    renderPage(checkout);

    await user.click(await screen.findByRole('button', { name: 'Pay $25.00' }));
    const email = screen.getByLabelText('Email');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(email.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Enter your email address.',
    );
    await waitFor(() => expect(document.activeElement).toBe(email));
    expect(screen.getByText('This field is required.')).toBeTruthy();
    expect(screen.getByText('Choose your country.')).toBeTruthy();
    expect(screen.getByText('Enter your card number.')).toBeTruthy();

    await user.type(screen.getByLabelText('Card number'), '4242 4242 4242 4241');
    expect(screen.getByText('Your card number is invalid.')).toBeTruthy();
    expect(api.requests.filter((request) => request.method === 'POST')).toEqual([]);
  });

  it('turns the card into a confirmation token and confirms with everything the buyer typed', async () => {
    const checkout = checkoutFixture({ attached_custom_fields: [teamField], customer_billing_address: FRANCE });
    const confirmed = { ...checkout, status: 'confirmed', customer_session_token: 'polar_cst_1' };
    const api = fakeApi({
      [`PATCH ${CLIENT}`]: echo(checkout),
      'POST /simulated-processor/confirmation-tokens': () => ({ status: 201, body: { id: 'ctoken_sim_1' } }),
      [`POST ${CLIENT}/confirm`]: () => ({ status: 200, body: confirmed }),
    });
    const onConfirmed = vi.fn();
    const user = userEvent.setup();
    renderPage(checkout, onConfirmed);

    await fillBuyer(user);
    await user.type(await screen.findByLabelText('Team name'), 'Analytical');
    await fillCard(user);
    expect((screen.getByLabelText('Card number') as HTMLInputElement).value).toBe('4242 4242 4242 4242');
    expect((screen.getByLabelText('Expiry date') as HTMLInputElement).value).toBe('12 / 34');
    await user.click(screen.getByRole('button', { name: 'Pay $25.00' }));

    await waitFor(() => expect(onConfirmed).toHaveBeenCalledTimes(1));
    expect(onConfirmed.mock.calls[0]![0]).toMatchObject({ customer_session_token: 'polar_cst_1' });
    expect(api.of('POST', '/simulated-processor/confirmation-tokens')[0]!.body).toEqual({
      card: { number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123' },
    });
    expect(api.of('POST', `${CLIENT}/confirm`)[0]!.body).toEqual({
      is_business_customer: false,
      customer_name: 'Ada Lovelace',
      customer_email: 'ada@example.com',
      custom_field_data: { team: 'Analytical' },
      customer_billing_address: FRANCE,
      confirmation_token_id: 'ctoken_sim_1',
    });
  });

  it('asks the buyer to authenticate a payment the bank holds (3-D Secure), then confirms it again', async () => {
    const checkout = checkoutFixture({ attached_custom_fields: [teamField], customer_billing_address: FRANCE });
    const waiting = {
      ...checkout,
      status: 'confirmed',
      customer_session_token: null,
      payment_processor_metadata: { intent_status: 'requires_action', intent_client_secret: 'pi_sim_1_secret_2' },
    };
    const confirmed = { ...checkout, status: 'confirmed', customer_session_token: 'polar_cst_1' };
    const answers = [waiting, confirmed];
    const api = fakeApi({
      [`PATCH ${CLIENT}`]: echo(checkout),
      'POST /simulated-processor/confirmation-tokens': () => ({ status: 201, body: { id: 'ctoken_sim_1' } }),
      'POST /simulated-processor/payment-intents/authenticate': () => ({ status: 200, body: { status: 'succeeded' } }),
      [`POST ${CLIENT}/confirm`]: () => ({ status: 200, body: answers.shift() }),
    });
    const onConfirmed = vi.fn();
    const user = userEvent.setup();
    renderPage(checkout, onConfirmed);
    await fillBuyer(user);
    await user.type(await screen.findByLabelText('Team name'), 'Analytical');
    await fillCard(user, { ...GOOD_CARD, number: '4000 0025 0000 3155' });
    await user.click(screen.getByRole('button', { name: 'Pay $25.00' }));

    const dialog = await screen.findByRole('dialog', { name: 'Confirm your payment' });
    expect(dialog.textContent).toContain('$25.00');
    expect(onConfirmed).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: 'Complete authentication' }));
    await waitFor(() => expect(onConfirmed).toHaveBeenCalledTimes(1));
    expect(onConfirmed.mock.calls[0]![0]).toMatchObject({ customer_session_token: 'polar_cst_1' });
    expect(api.of('POST', '/simulated-processor/payment-intents/authenticate')[0]!.body).toEqual({
      client_secret: 'pi_sim_1_secret_2',
      approve: true,
    });
    const confirms = api.of('POST', `${CLIENT}/confirm`);
    expect(confirms).toHaveLength(2);
    expect(confirms[1]!.body).toEqual(confirms[0]!.body);
  });

  it('a closed authentication dialog charges nothing and says so', async () => {
    const checkout = checkoutFixture({ attached_custom_fields: [teamField], customer_billing_address: FRANCE });
    const waiting = {
      ...checkout,
      status: 'confirmed',
      customer_session_token: null,
      payment_processor_metadata: { intent_status: 'requires_action', intent_client_secret: 'pi_sim_1_secret_2' },
    };
    const api = fakeApi({
      [`PATCH ${CLIENT}`]: echo(checkout),
      'POST /simulated-processor/confirmation-tokens': () => ({ status: 201, body: { id: 'ctoken_sim_1' } }),
      [`POST ${CLIENT}/confirm`]: () => ({ status: 200, body: waiting }),
    });
    const onConfirmed = vi.fn();
    const user = userEvent.setup();
    renderPage(checkout, onConfirmed);
    await fillBuyer(user);
    await user.type(await screen.findByLabelText('Team name'), 'Analytical');
    await fillCard(user, { ...GOOD_CARD, number: '4000 0025 0000 3155' });
    await user.click(screen.getByRole('button', { name: 'Pay $25.00' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm your payment' });
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect((await screen.findByRole('alert')).textContent).toContain('not authenticated, so nothing was charged');
    expect(onConfirmed).not.toHaveBeenCalled();
    expect(api.of('POST', `${CLIENT}/confirm`)).toHaveLength(1);
    // The form is still there to try again.
    expect(screen.getByRole('button', { name: 'Pay $25.00' })).toBeTruthy();
  });

  it('shows a declined card in words, and the API’s refusals next to their fields', async () => {
    const checkout = checkoutFixture({ attached_custom_fields: [teamField], customer_billing_address: FRANCE });
    let answer = {
      status: 400,
      body: {
        error: 'PaymentError',
        detail: 'The payment failed: Your card was declined. Please try again with a different payment method.',
      },
    };
    fakeApi({
      [`PATCH ${CLIENT}`]: echo(checkout),
      'POST /simulated-processor/confirmation-tokens': () => ({ status: 201, body: { id: 'ctoken_sim_1' } }),
      [`POST ${CLIENT}/confirm`]: () => answer,
    });
    const user = userEvent.setup();
    renderPage(checkout);
    await fillBuyer(user);
    await user.type(await screen.findByLabelText('Team name'), 'Analytical');
    await fillCard(user, { ...GOOD_CARD, number: '4000 0000 0000 0002' });
    await user.click(screen.getByRole('button', { name: 'Pay $25.00' }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(
      'The payment failed: Your card was declined. Please try again with a different payment method.',
    );

    answer = {
      status: 422,
      body: {
        detail: [{ loc: ['body', 'custom_field_data', 'team'], msg: 'This team is not known.', type: 'value_error' }],
      },
    } as never;
    await user.click(screen.getByRole('button', { name: 'Pay $25.00' }));
    const team = screen.getByLabelText('Team name');
    await waitFor(() => expect(team.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(team.getAttribute('aria-describedby')!.split(' ').pop()!)?.textContent).toBe(
      'This team is not known.',
    );
  });

  it('applies a discount code, says when a code is refused, and Enter applies rather than pays', async () => {
    const checkout = checkoutFixture();
    const discounted = {
      ...checkout,
      discount_id: '00000000-0000-4000-8000-0000000000d1',
      discount: {
        id: '00000000-0000-4000-8000-0000000000d1',
        name: 'Launch',
        code: 'LAUNCH20',
        type: 'percentage' as const,
        basis_points: 2000,
        duration: 'once' as const,
      },
      discount_amount: 500,
      net_amount: 2000,
      total_amount: 2000,
    };
    const api = fakeApi({
      [`PATCH ${CLIENT}`]: ({ body }) => {
        const code = (body as { discount_code?: string }).discount_code;
        if (code === 'NOPE')
          return {
            status: 422,
            body: {
              detail: [{ loc: ['body', 'discount_code'], msg: 'Discount does not exist.', type: 'value_error' }],
            },
          };
        return { status: 200, body: code ? discounted : checkout };
      },
    });
    const user = userEvent.setup();
    renderPage(checkout);

    const code = await screen.findByLabelText('Discount code');
    await user.type(code, 'NOPE{Enter}');
    expect(await screen.findByText('Discount does not exist.')).toBeTruthy();
    expect(code.getAttribute('aria-invalid')).toBe('true');
    expect(api.of('POST', `${CLIENT}/confirm`)).toEqual([]);

    await user.clear(code);
    await user.type(code, 'LAUNCH20');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(summaryValue('Discount (LAUNCH20)')).toBe('−$5.00'));
    expect(summaryValue('Total')).toBe('$20.00');
    expect(screen.getByText((_, element) => element?.textContent === 'LAUNCH20: 20% off')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Remove discount' }));
    await waitFor(() => expect(summaryValue('Total')).toBe('$25.00'));
    expect(api.of('PATCH', CLIENT).at(-1)!.body).toMatchObject({ discount_code: null });
  });

  it('asks each custom question by its type, with its bounds', async () => {
    const checkout = checkoutFixture({
      customer_billing_address: FRANCE,
      attached_custom_fields: [
        attachedField({ slug: 'seats', name: 'Seats', type: 'number', properties: { ge: 1, le: 10 } }, true, 1),
        // 2026-01-01 to 2026-12-31
        attachedField(
          { slug: 'start', name: 'Start date', type: 'date', properties: { ge: 1767225600, le: 1798675200 } },
          false,
          2,
        ),
        attachedField(
          { slug: 'terms', name: 'Terms', type: 'checkbox', properties: { form_label: 'I accept the terms' } },
          true,
          3,
        ),
        attachedField(
          {
            slug: 'role',
            name: 'Role',
            type: 'select',
            properties: { options: [{ value: 'dev', label: 'Developer' }] },
          },
          false,
          4,
        ),
        attachedField({ slug: 'notes', name: 'Notes', type: 'text', properties: { textarea: true } }, false, 5),
      ],
    });
    fakeApi({ [`PATCH ${CLIENT}`]: echo(checkout) });
    const user = userEvent.setup();
    renderPage(checkout);

    const seats = await screen.findByLabelText('Seats');
    const start = screen.getByLabelText('Start date (optional)') as HTMLInputElement;
    expect([start.type, start.min, start.max]).toEqual(['date', '2026-01-01', '2026-12-31']);
    expect(screen.getByRole('checkbox', { name: 'I accept the terms' })).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Role (optional)' })).toBeTruthy();
    expect(screen.getByLabelText('Notes (optional)').tagName).toBe('TEXTAREA');

    await user.type(seats, '11');
    await user.click(screen.getByRole('button', { name: 'Pay $25.00' }));
    expect(screen.getByText('Enter a number of at most 10.')).toBeTruthy();
    expect(screen.getByText('Check this box to continue.')).toBeTruthy();
    await user.click(screen.getByRole('checkbox', { name: 'I accept the terms' }));
    expect(screen.queryByText('Check this box to continue.')).toBeNull();
  });

  it('asks for business details, and the full address a business needs', async () => {
    const checkout = checkoutFixture({ customer_billing_address: FRANCE });
    const api = fakeApi({ [`PATCH ${CLIENT}`]: echo(checkout) });
    const user = userEvent.setup();
    renderPage(checkout);

    await user.click(await screen.findByRole('checkbox', { name: "I'm purchasing as a business" }));
    await user.type(screen.getByLabelText('Business name'), 'Acme');
    await user.type(screen.getByLabelText('Tax ID'), 'FR40303265045');
    // The tax ID is saved when the buyer leaves the field, not while typing it.
    await waitFor(() => expect(api.of('PATCH', CLIENT).length).toBeGreaterThan(0));
    expect(api.of('PATCH', CLIENT).at(-1)!.body).toMatchObject({ customer_tax_id: null });
    await user.tab();
    await waitFor(() =>
      expect(api.of('PATCH', CLIENT).at(-1)!.body).toMatchObject({
        is_business_customer: true,
        customer_billing_name: 'Acme',
        customer_tax_id: 'FR40303265045',
      }),
    );
    expect(screen.getByLabelText('Street address')).toBeTruthy();
    expect(screen.getByLabelText('Postal code')).toBeTruthy();
    expect(screen.getByLabelText('City')).toBeTruthy();
  });

  it('takes the card through Stripe’s Payment Element when Stripe is configured', async () => {
    const checkout = checkoutFixture({
      customer_billing_address: FRANCE,
      payment_processor_metadata: { publishable_key: 'pk_test_123' },
    });
    const api = fakeApi({
      [`PATCH ${CLIENT}`]: echo(checkout),
      [`POST ${CLIENT}/confirm`]: () => ({
        status: 200,
        body: { ...checkout, status: 'confirmed', customer_session_token: 'polar_cst_1' },
      }),
    });
    const onConfirmed = vi.fn();
    const user = userEvent.setup();
    renderPage(checkout, onConfirmed);

    expect(await screen.findByText('Stripe payment form')).toBeTruthy();
    expect(screen.queryByLabelText('Card number')).toBeNull();
    await fillBuyer(user);
    await user.click(screen.getByRole('button', { name: 'Pay $25.00' }));
    await waitFor(() => expect(onConfirmed).toHaveBeenCalled());
    expect(api.of('POST', `${CLIENT}/confirm`)[0]!.body).toMatchObject({ confirmation_token_id: 'ctoken_stripe_1' });
    expect(api.of('POST', '/simulated-processor/confirmation-tokens')).toEqual([]);
  });

  it('confirms a free checkout without a card', async () => {
    const free = product('Starter', (id) => [freePrice(id)]);
    const checkout = checkoutFixture({ product: free, products: [free], product_price: free.prices[0]!, amount: 0 });
    const api = fakeApi({
      [`POST ${CLIENT}/confirm`]: () => ({
        status: 200,
        body: { ...checkout, status: 'confirmed', customer_session_token: 'polar_cst_1' },
      }),
    });
    const user = userEvent.setup();
    renderPage(checkout);

    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    expect(screen.queryByLabelText('Card number')).toBeNull();
    expect(screen.queryByRole('group', { name: 'Billing address' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Get it for free' }));
    await waitFor(() => expect(api.of('POST', `${CLIENT}/confirm`)).toHaveLength(1));
    expect(api.of('POST', `${CLIENT}/confirm`)[0]!.body).not.toHaveProperty('confirmation_token_id');
  });
});
