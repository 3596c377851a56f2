// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { PortalShell } from './portal-shell';

afterEach(cleanup);

const ORGANIZATION = { name: 'Acme', slug: 'acme', avatar_url: null };

function links(hasUsage?: boolean, hasDownloads?: boolean) {
  render(
    <MemoryRouter initialEntries={['/portal/acme']}>
      <PortalShell
        organization={ORGANIZATION}
        account={{ email: 'ada@example.com', onSignOut: () => {} }}
        hasUsage={hasUsage}
        hasDownloads={hasDownloads}
      >
        <p>Page</p>
      </PortalShell>
    </MemoryRouter>,
  );
  return within(screen.getByRole('navigation', { name: 'Customer portal' }))
    .getAllByRole('link')
    .map((link) => [link.textContent, link.getAttribute('href')]);
}

describe('PortalShell', () => {
  it('offers the Usage page to a customer with meters', () => {
    expect(links(true)).toContainEqual(['Usage', '/portal/acme/usage']);
  });

  it('leaves it out for a customer without meters', () => {
    const labels = links().map(([label]) => label);
    expect(labels).toContain('Orders');
    expect(labels).not.toContain('Usage');
    expect(labels).not.toContain('Downloads');
  });

  it('offers the Downloads page to a customer with files', () => {
    expect(links(false, true)).toContainEqual(['Downloads', '/portal/acme/downloads']);
  });
});
