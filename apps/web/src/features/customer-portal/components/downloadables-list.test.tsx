// @vitest-environment happy-dom
import type { CustomerOrganization } from '@tessera/sdk';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, renderWithQueryClient } from '../../../testing/fake-api';
import { createCustomerClient } from '../api/portal-client';
import { PortalSessionProvider } from '../session/portal-session';
import { DownloadablesList } from './downloadables-list';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ORG = '0b5e0c57-6a39-4cf6-9d8c-4c1f2bb8a001';
const NOW = '2026-01-15T12:00:00.000Z';
const LINK = 'http://localhost/v1/customer-portal/downloadables/token-1';

function renderList() {
  renderWithQueryClient(
    <PortalSessionProvider
      session={{
        slug: 'acme',
        storefront: { organization: { name: 'Acme' }, products: [] } as unknown as CustomerOrganization,
        client: createCustomerClient('polar_cst_test'),
        queryKey: ['customer-portal', 'acme', 1],
        signOut: () => {},
      }}
    >
      <DownloadablesList sellerName="Acme" />
    </PortalSessionProvider>,
  );
}

describe('DownloadablesList', () => {
  it('lists each file with its size and a link that downloads it', async () => {
    fakeApi({
      'GET /v1/customer-portal/downloadables/': () => ({
        status: 200,
        body: {
          items: [
            {
              id: '00000000-0000-4000-8000-00000000b001',
              benefit_id: '00000000-0000-4000-8000-00000000c001',
              file: {
                id: '00000000-0000-4000-8000-00000000f001',
                organization_id: ORG,
                name: 'book.pdf',
                path: `downloadable/${ORG}/f/book.pdf`,
                mime_type: 'application/pdf',
                size: 12582912,
                storage_version: null,
                checksum_etag: '"e"',
                checksum_sha256_base64: null,
                checksum_sha256_hex: null,
                last_modified_at: NOW,
                version: '2',
                is_uploaded: true,
                size_readable: '12.0 MB',
                service: 'downloadable',
                download: { url: LINK, headers: {}, expires_at: NOW },
              },
            },
          ],
          pagination: { total_count: 1, max_page: 1 },
        },
      }),
    });
    renderList();
    const list = await screen.findByRole('list', { name: 'Downloads' });
    expect(within(list).getByText('book.pdf')).toBeTruthy();
    expect(within(list).getByText('12.0 MB · version 2')).toBeTruthy();
    expect(within(list).getByRole('link', { name: 'Download book.pdf' }).getAttribute('href')).toBe(LINK);
  });

  it('says when there is nothing to download', async () => {
    fakeApi({
      'GET /v1/customer-portal/downloadables/': () => ({
        status: 200,
        body: { items: [], pagination: { total_count: 0, max_page: 0 } },
      }),
    });
    renderList();
    expect(await screen.findByRole('heading', { name: 'No downloads yet' })).toBeTruthy();
  });
});
