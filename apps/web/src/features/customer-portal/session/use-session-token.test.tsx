// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { createBrowserRouter, RouterProvider, useParams } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionStorageKey } from './session-token';
import { useSessionToken, type SessionToken } from './use-session-token';

let session: SessionToken | undefined;

function Probe() {
  const { slug = '' } = useParams();
  session = useSessionToken(slug);
  return <p>{session.token ? `token ${session.token}` : `no session (${session.ended})`}</p>;
}

/** The portal route as the app has it, in a browser router over the page's own address and history. */
function openAt(url: string) {
  window.history.replaceState(null, '', url);
  const router = createBrowserRouter([{ path: '/portal/:slug/*', element: <Probe /> }]);
  render(<RouterProvider router={router} />);
  return router;
}

afterEach(() => {
  cleanup();
  window.sessionStorage.clear();
  session = undefined;
});

describe('useSessionToken', () => {
  it('takes the token from the link into storage and out of the address bar', async () => {
    const historyLength = window.history.length;
    openAt('/portal/acme/orders?customer_session_token=polar_cst_abc&id=42#receipt');
    await screen.findByText('token polar_cst_abc');
    expect(window.location.pathname).toBe('/portal/acme/orders');
    expect(window.location.search).toBe('?id=42');
    expect(window.location.hash).toBe('#receipt');
    expect(window.location.href).not.toContain('polar_cst_abc');
    // Replaced, not pushed: Back does not return to the address holding the token.
    expect(window.history.length).toBe(historyLength);
    expect(window.sessionStorage.getItem(sessionStorageKey('acme'))).toBe('polar_cst_abc');
  });

  it('stays signed in on a later page of the same tab', async () => {
    window.sessionStorage.setItem(sessionStorageKey('acme'), 'polar_cst_kept');
    openAt('/portal/acme/benefits');
    await screen.findByText('token polar_cst_kept');
    expect(window.location.pathname).toBe('/portal/acme/benefits');
  });

  it('has no session without a link or a kept token', async () => {
    window.sessionStorage.setItem(sessionStorageKey('globex'), 'polar_cst_other_seller');
    openAt('/portal/acme');
    await screen.findByText('no session (missing)');
  });

  it('takes a new link followed in the same tab', async () => {
    window.sessionStorage.setItem(sessionStorageKey('acme'), 'polar_cst_old');
    const router = openAt('/portal/acme');
    await screen.findByText('token polar_cst_old');
    await act(() => router.navigate('/portal/acme?customer_session_token=polar_cst_new'));
    await screen.findByText('token polar_cst_new');
    expect(window.location.search).toBe('');
    expect(window.sessionStorage.getItem(sessionStorageKey('acme'))).toBe('polar_cst_new');
  });

  it('forgets the token on sign out and when the API refuses it', async () => {
    openAt('/portal/acme?customer_session_token=polar_cst_abc');
    await screen.findByText('token polar_cst_abc');
    act(() => session!.signOut());
    await screen.findByText('no session (signed-out)');
    expect(window.sessionStorage.getItem(sessionStorageKey('acme'))).toBeNull();

    cleanup();
    openAt('/portal/acme?customer_session_token=polar_cst_def');
    await screen.findByText('token polar_cst_def');
    act(() => session!.expire());
    await screen.findByText('no session (expired)');
    expect(window.sessionStorage.getItem(sessionStorageKey('acme'))).toBeNull();
  });
});
