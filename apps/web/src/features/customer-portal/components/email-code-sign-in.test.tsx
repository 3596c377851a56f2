// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../testing/fake-api';
import { EmailCodeSignIn } from './email-code-sign-in';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function Where() {
  const location = useLocation();
  return <p data-testid="where">{`${location.pathname}${location.search}`}</p>;
}

function renderSignIn(at = '/portal/acme') {
  render(
    <MemoryRouter initialEntries={[at]}>
      <Routes>
        <Route
          path="/portal/:slug/*"
          element={
            <>
              <EmailCodeSignIn organizationId="org-1" slug="acme" />
              <Where />
            </>
          }
        />
      </Routes>
    </MemoryRouter>,
  );
}

describe('EmailCodeSignIn', () => {
  it('sends a code to the address, then signs in with it (the token taken in as a link’s)', async () => {
    const api = fakeApi({
      'POST /v1/customer-portal/customer-session/request': () => ({ status: 202, body: {} }),
      'POST /v1/customer-portal/customer-session/authenticate': () => ({
        status: 200,
        body: { token: 'polar_cst_1' },
      }),
    });
    const user = userEvent.setup();
    renderSignIn();
    await user.type(screen.getByLabelText('Email address'), ' ada@example.com ');
    await user.click(screen.getByRole('button', { name: 'Send me a code' }));
    expect((await screen.findByRole('status')).textContent).toContain('If ada@example.com is a customer’s address');
    expect(api.of('POST', '/v1/customer-portal/customer-session/request')[0]!.body).toEqual({
      email: 'ada@example.com',
      organization_id: 'org-1',
    });
    await user.type(screen.getByLabelText('Sign-in code'), 'ab12cd');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() =>
      expect(screen.getByTestId('where').textContent).toBe('/portal/acme?customer_session_token=polar_cst_1'),
    );
    expect(api.of('POST', '/v1/customer-portal/customer-session/authenticate')[0]!.body).toEqual({ code: 'ab12cd' });
  });

  it('says when a code is refused, and keeps the form', async () => {
    fakeApi({
      'POST /v1/customer-portal/customer-session/request': () => ({ status: 202, body: {} }),
      'POST /v1/customer-portal/customer-session/authenticate': () => ({
        status: 401,
        body: { error: 'Unauthorized', detail: 'This code is invalid or has expired.' },
      }),
    });
    const user = userEvent.setup();
    renderSignIn();
    await user.click(screen.getByRole('button', { name: 'Send me a code' }));
    expect(await screen.findByText('Enter your email address.')).toBeTruthy();
    await user.type(screen.getByLabelText('Email address'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send me a code' }));
    await user.type(await screen.findByLabelText('Sign-in code'), 'WRONG1');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('This code is invalid or has expired.')).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/portal/acme');
  });

  it('after a link from an email (an order), signs in on that page', async () => {
    fakeApi({
      'POST /v1/customer-portal/customer-session/request': () => ({ status: 202, body: {} }),
      'POST /v1/customer-portal/customer-session/authenticate': () => ({ status: 200, body: { token: 'polar_cst_2' } }),
    });
    const user = userEvent.setup();
    renderSignIn('/portal/acme/orders/o-1');
    await user.type(screen.getByLabelText('Email address'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send me a code' }));
    await user.type(await screen.findByLabelText('Sign-in code'), 'ab12cd');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() =>
      expect(screen.getByTestId('where').textContent).toBe(
        '/portal/acme/orders/o-1?customer_session_token=polar_cst_2',
      ),
    );
  });
});
