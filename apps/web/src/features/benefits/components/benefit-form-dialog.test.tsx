// @vitest-environment happy-dom
import type { Benefit } from '@tessera/sdk';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Button } from '../../../components/ui/button';
import { fakeApi, renderWithQueryClient } from '../../../testing/fake-api';
import { BenefitFormDialog } from './benefit-form-dialog';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ORG = '0b5e0c57-6a39-4cf6-9d8c-4c1f2bb8a001';
const ID = '00000000-0000-4000-8000-00000000c001';
const FILE = '3f2b8c1e-1111-4000-8000-000000000001';

function benefit(type: Benefit['type'], description: string, properties: unknown): Benefit {
  return {
    id: ID,
    created_at: '2026-01-15T12:00:00.000Z',
    modified_at: null,
    type,
    description,
    selectable: true,
    deletable: true,
    is_deleted: false,
    organization_id: ORG,
    metadata: {},
    visibility: 'public',
    properties,
    visibility_configurable: false,
  } as Benefit;
}

function renderDialog(existing?: Benefit) {
  renderWithQueryClient(
    <BenefitFormDialog
      organizationId={ORG}
      benefit={existing}
      trigger={(open) => <Button onClick={open}>{existing ? 'Edit' : 'New benefit'}</Button>}
    />,
  );
}

/** Picks an option of a (Radix) select the way a keyboard user does. */
async function choose(user: ReturnType<typeof userEvent.setup>, label: string, option: string) {
  screen.getByLabelText(label).focus();
  await user.keyboard('{Enter}');
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('BenefitFormDialog', () => {
  it('creates a license key benefit with its limits', async () => {
    const user = userEvent.setup();
    const created = benefit('license_keys', 'Pro license key', {
      prefix: 'ACME',
      expires: { ttl: 1, timeframe: 'year' },
      activations: { limit: 3, enable_customer_admin: true },
      limit_usage: null,
    });
    const api = fakeApi({ 'POST /v1/benefits/': () => ({ status: 201, body: created }) });
    renderDialog();

    await user.click(screen.getByRole('button', { name: 'New benefit' }));
    await choose(user, 'Benefit type', 'License keys');
    const dialog = screen.getByRole('dialog', { name: 'New benefit' });
    await user.type(within(dialog).getByLabelText('Description'), 'Pro license key');
    await user.type(within(dialog).getByLabelText('Key prefix'), 'ACME');
    await user.type(within(dialog).getByLabelText('Keys expire after'), '1');
    await user.type(within(dialog).getByLabelText('Activation limit'), '3');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Customers may manage their activations' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create benefit' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.of('POST', '/v1/benefits/')[0]!.body).toEqual({
      type: 'license_keys',
      organization_id: ORG,
      description: 'Pro license key',
      properties: {
        prefix: 'ACME',
        expires: { ttl: 1, timeframe: 'year' },
        activations: { limit: 3, enable_customer_admin: true },
        limit_usage: null,
      },
    });
  });

  it('asks to connect a Discord server first, and offers no submit until then', async () => {
    const user = userEvent.setup();
    const api = fakeApi({});
    renderDialog();

    await user.click(screen.getByRole('button', { name: 'New benefit' }));
    await choose(user, 'Benefit type', 'Discord');
    const dialog = screen.getByRole('dialog', { name: 'New benefit' });
    expect(within(dialog).getByRole('button', { name: 'Connect a Discord server' })).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Create benefit' })).toBeNull();
    expect(within(dialog).queryByLabelText('Role ID')).toBeNull();
    expect(api.requests).toEqual([]);
  });

  it('edits a note: PATCH with the stored type, description and properties', async () => {
    const user = userEvent.setup();
    const existing = benefit('custom', 'Onboarding call', { note: 'Book a slot' });
    const api = fakeApi({
      [`PATCH /v1/benefits/${ID}`]: () => ({
        status: 200,
        body: { ...existing, description: 'Onboarding session', properties: { note: 'Book a slot today' } },
      }),
    });
    renderDialog(existing);

    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Onboarding call' });
    expect(within(dialog).getByLabelText('Benefit type').hasAttribute('disabled')).toBe(true);
    const description = within(dialog).getByLabelText('Description');
    await user.clear(description);
    await user.type(description, 'Onboarding session');
    await user.type(within(dialog).getByLabelText('Note'), ' today');
    await user.click(within(dialog).getByRole('button', { name: 'Save benefit' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.of('PATCH', `/v1/benefits/${ID}`)[0]!.body).toEqual({
      type: 'custom',
      description: 'Onboarding session',
      properties: { note: 'Book a slot today' },
    });
  });

  it('lists the files by name and size, and shows a refused file in its row', async () => {
    const user = userEvent.setup();
    const existing = benefit('downloadables', 'Source code', { files: [FILE], archived: {} });
    const api = fakeApi({
      'GET /v1/files/': () => ({
        status: 200,
        body: {
          items: [
            {
              id: FILE,
              organization_id: ORG,
              name: 'source.zip',
              path: `downloadable/${ORG}/${FILE}/source.zip`,
              mime_type: 'application/zip',
              size: 1536,
              storage_version: null,
              checksum_etag: '"e"',
              checksum_sha256_base64: null,
              checksum_sha256_hex: null,
              last_modified_at: '2026-01-15T12:00:00.000Z',
              version: null,
              is_uploaded: true,
              size_readable: '1.5 KB',
              service: 'downloadable',
              created_at: '2026-01-15T12:00:00.000Z',
            },
          ],
          pagination: { total_count: 1, max_page: 1 },
        },
      }),
      [`PATCH /v1/benefits/${ID}`]: () => ({
        status: 422,
        body: { detail: [{ loc: ['body', 'properties', 'files', 0], msg: 'File not found', type: 'value_error' }] },
      }),
    });
    renderDialog(existing);

    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Source code' });
    expect(await within(dialog).findByText('source.zip')).toBeTruthy();
    expect(within(dialog).getByText('1.5 KB')).toBeTruthy();
    expect(within(dialog).getByRole('group', { name: 'Files to download' })).toBeTruthy();
    await user.click(within(dialog).getByLabelText('Archive source.zip'));
    await user.click(within(dialog).getByRole('button', { name: 'Save benefit' }));

    expect(await within(dialog).findByText('File not found')).toBeTruthy();
    expect(api.of('PATCH', `/v1/benefits/${ID}`)[0]!.body).toMatchObject({
      properties: { files: [FILE], archived: { [FILE]: true } },
    });
  });

  it('checks bounds before sending', async () => {
    const user = userEvent.setup();
    const api = fakeApi({});
    renderDialog(
      benefit('license_keys', 'Pro license key', { prefix: null, expires: null, activations: null, limit_usage: null }),
    );

    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Pro license key' });
    await user.type(within(dialog).getByLabelText('Activation limit'), '80');
    await user.click(within(dialog).getByRole('button', { name: 'Save benefit' }));

    expect(await within(dialog).findByText('Enter a whole number from 1 to 50.')).toBeTruthy();
    expect(api.requests).toEqual([]);
  });
});
