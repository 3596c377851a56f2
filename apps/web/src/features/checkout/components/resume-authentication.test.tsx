// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../testing/fake-api';
import { checkoutFixture } from '../testing/fixtures';
import { ResumeAuthentication } from './resume-authentication';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const SECRET = 'polar_c_fixture';
const CONFIRM = `/v1/checkouts/client/${SECRET}/confirm`;
const waiting = checkoutFixture({
  status: 'confirmed',
  payment_processor_metadata: { intent_status: 'requires_action' },
});
const challenge = {
  ...waiting,
  customer_session_token: null,
  payment_processor_metadata: { intent_status: 'requires_action', intent_client_secret: 'pi_sim_1_secret_2' },
};

describe('ResumeAuthentication', () => {
  it('gets the same challenge again, runs the bank’s check, and confirms the payment', async () => {
    const done = { ...waiting, payment_processor_metadata: {}, customer_session_token: 'polar_cst_1' };
    const answers = [challenge, done];
    const api = fakeApi({
      [`POST ${CONFIRM}`]: () => ({ status: 200, body: answers.shift() }),
      'POST /simulated-processor/payment-intents/authenticate': () => ({ status: 200, body: { status: 'succeeded' } }),
    });
    const onConfirmed = vi.fn();
    const user = userEvent.setup();
    render(<ResumeAuthentication checkout={waiting} onConfirmed={onConfirmed} onGone={() => {}} />);
    await user.click(screen.getByRole('button', { name: 'Confirm the payment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm your payment' });
    await user.click(within(dialog).getByRole('button', { name: 'Complete authentication' }));
    await waitFor(() => expect(onConfirmed).toHaveBeenCalledTimes(1));
    expect(onConfirmed.mock.calls[0]![0]).toMatchObject({ customer_session_token: 'polar_cst_1' });
    expect(api.of('POST', CONFIRM).map((request) => request.body)).toEqual([{}, {}]);
  });

  it('a failed check is a decline: the buyer goes back to the form for another card', async () => {
    const answers = [
      { status: 200, body: challenge },
      {
        status: 400,
        body: {
          error: 'PaymentError',
          detail: 'The payment failed: We are unable to authenticate your payment method.',
        },
      },
    ];
    fakeApi({
      [`POST ${CONFIRM}`]: () => answers.shift()!,
      'POST /simulated-processor/payment-intents/authenticate': () => ({ status: 200, body: { status: 'failed' } }),
    });
    const onGone = vi.fn();
    const user = userEvent.setup();
    render(<ResumeAuthentication checkout={waiting} onConfirmed={() => {}} onGone={onGone} />);
    await user.click(screen.getByRole('button', { name: 'Confirm the payment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm your payment' });
    await user.click(within(dialog).getByRole('button', { name: 'Fail authentication' }));
    expect((await screen.findByRole('alert')).textContent).toContain('unable to authenticate');
    await user.click(screen.getByRole('button', { name: 'Try another card' }));
    expect(onGone).toHaveBeenCalled();
  });
});
