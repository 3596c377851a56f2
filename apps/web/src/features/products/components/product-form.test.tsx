// @vitest-environment happy-dom
import type { Benefit, CustomField, Product } from '@tessera/sdk';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, renderWithQueryClient, type Handler } from '../../../testing/fake-api';
import { ProductForm, type ProductFormProps } from './product-form';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const NOW = '2026-01-15T12:00:00.000Z';
const ORG = '0b5e0c57-6a39-4cf6-9d8c-4c1f2bb8a001';
const PRODUCT_ID = '00000000-0000-4000-8000-00000000a001';
const PRICE_ID = '00000000-0000-4000-8000-00000000b001';

function benefit(id: string, description: string, type: 'custom' | 'license_keys'): Benefit {
  const properties =
    type === 'custom' ? { note: null } : { prefix: null, expires: null, activations: null, limit_usage: null };
  return {
    id,
    created_at: NOW,
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

const NOTE = benefit('00000000-0000-4000-8000-00000000c001', 'Onboarding call', 'custom');
const KEYS = benefit('00000000-0000-4000-8000-00000000c002', 'Pro license key', 'license_keys');

const TEAM: CustomField = {
  id: '00000000-0000-4000-8000-00000000d001',
  created_at: NOW,
  modified_at: null,
  metadata: {},
  slug: 'team',
  name: 'Team name',
  organization_id: ORG,
  type: 'text',
  properties: {},
};

function product(overrides: Partial<Product> = {}): Product {
  return {
    metadata: {},
    created_at: NOW,
    modified_at: null,
    id: PRODUCT_ID,
    name: 'Pro plan',
    description: null,
    recurring_interval: null,
    recurring_interval_count: null,
    meter_interval: null,
    meter_interval_count: null,
    visibility: 'public',
    is_recurring: false,
    is_archived: false,
    organization_id: ORG,
    prices: [
      {
        created_at: NOW,
        modified_at: null,
        id: PRICE_ID,
        is_archived: false,
        product_id: PRODUCT_ID,
        type: 'one_time',
        recurring_interval: null,
        source: 'catalog',
        tax_behavior: null,
        amount_type: 'fixed',
        price_currency: 'usd',
        price_amount: 2500,
      },
    ],
    benefits: [],
    medias: [],
    attached_custom_fields: [],
    is_tax_applicable: true,
    trial_interval: null,
    trial_interval_count: null,
    trial_requires_payment_method: true,
    trial_once_per_customer: true,
    ...overrides,
  };
}

const withTeam = (required: boolean) => ({
  attached_custom_fields: [{ custom_field_id: TEAM.id, custom_field: TEAM, order: 0, required }],
});

function renderForm(props: Partial<ProductFormProps> = {}) {
  const onSaved = vi.fn();
  renderWithQueryClient(
    <MemoryRouter>
      <ProductForm
        organizationId={ORG}
        benefits={{ items: [NOTE, KEYS], error: null }}
        customFields={{ items: [TEAM], error: null }}
        benefitsPath="/dashboard/acme/benefits"
        customFieldsPath="/dashboard/acme/settings/custom-fields"
        onSaved={onSaved}
        {...props}
      />
    </MemoryRouter>,
  );
  return { onSaved };
}

const ok =
  (body: unknown): Handler =>
  () => ({ status: 200, body });

describe('ProductForm', () => {
  it('creates the product with its custom fields, then attaches the chosen benefits', async () => {
    const user = userEvent.setup();
    const created = product(withTeam(true));
    const withBenefits = { ...created, benefits: [KEYS] };
    const api = fakeApi({
      'POST /v1/products/': () => ({ status: 201, body: created }),
      [`POST /v1/products/${PRODUCT_ID}/benefits`]: ok(withBenefits),
    });
    const { onSaved } = renderForm();

    await user.type(screen.getByLabelText('Product name'), 'Pro plan');
    await user.type(screen.getByLabelText('Amount'), '25');
    const benefits = screen.getByRole('group', { name: 'Benefits' });
    await user.click(within(benefits).getByRole('checkbox', { name: 'Pro license key' }));
    const fields = screen.getByRole('group', { name: 'Custom fields' });
    await user.click(within(fields).getByRole('checkbox', { name: 'Team name' }));
    await user.click(within(fields).getByRole('checkbox', { name: 'Team name required' }));
    await user.click(screen.getByRole('button', { name: 'Create product' }));

    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(withBenefits));
    expect(api.of('POST', '/v1/products/')[0]!.body).toMatchObject({
      name: 'Pro plan',
      organization_id: ORG,
      prices: [{ amount_type: 'fixed', price_amount: 2500 }],
      attached_custom_fields: [{ custom_field_id: TEAM.id, required: true }],
    });
    expect(api.of('POST', `/v1/products/${PRODUCT_ID}/benefits`)[0]!.body).toEqual({ benefits: [KEYS.id] });
  });

  it('makes no benefits call when the selection is what the product has', async () => {
    const user = userEvent.setup();
    const current = product({ benefits: [NOTE] });
    const api = fakeApi({ [`PATCH /v1/products/${PRODUCT_ID}`]: ok(current) });
    const { onSaved } = renderForm({ product: current });

    expect(screen.getByRole('checkbox', { name: 'Onboarding call' })).toHaveProperty('checked', true);
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(current));
    expect(api.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      `PATCH /v1/products/${PRODUCT_ID}`,
    ]);
    expect(api.of('PATCH', `/v1/products/${PRODUCT_ID}`)[0]!.body).toMatchObject({
      prices: [{ id: PRICE_ID }],
      attached_custom_fields: [],
    });
  });

  it('saves the images in the order shown, without the removed ones', async () => {
    const user = userEvent.setup();
    const media = (n: number) => ({
      id: `00000000-0000-4000-8000-00000000f00${n}`,
      organization_id: ORG,
      name: `shot-${n}.png`,
      path: `product_media/${ORG}/f${n}/shot-${n}.png`,
      mime_type: 'image/png',
      size: 2048,
      storage_version: null,
      checksum_etag: null,
      checksum_sha256_base64: null,
      checksum_sha256_hex: null,
      last_modified_at: NOW,
      version: null,
      is_uploaded: true,
      size_readable: '2.0 KB',
      service: 'product_media' as const,
      created_at: NOW,
      public_url: `/v1/storage/public/shot-${n}.png`,
    });
    const current = product({ medias: [media(1), media(2), media(3)] });
    const api = fakeApi({ [`PATCH /v1/products/${PRODUCT_ID}`]: ok(current) });
    renderForm({ product: current });

    expect(screen.getByRole('img', { name: 'shot-1.png' }).getAttribute('src')).toBe('/v1/storage/public/shot-1.png');
    await user.click(screen.getByRole('button', { name: 'Move shot-3.png up' }));
    await user.click(screen.getByRole('button', { name: 'Remove shot-1.png' }));
    expect(screen.getByRole('button', { name: 'Move shot-3.png up' })).toHaveProperty('disabled', true);
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    await waitFor(() => expect(api.of('PATCH', `/v1/products/${PRODUCT_ID}`)).toHaveLength(1));
    expect(api.of('PATCH', `/v1/products/${PRODUCT_ID}`)[0]!.body).toMatchObject({
      medias: [media(3).id, media(2).id],
    });
  });

  it('says in words when the benefits of a created product were refused, and retries without creating again', async () => {
    const user = userEvent.setup();
    const created = product();
    let benefitCalls = 0;
    const api = fakeApi({
      'POST /v1/products/': () => ({ status: 201, body: created }),
      [`PATCH /v1/products/${PRODUCT_ID}`]: ok(created),
      [`POST /v1/products/${PRODUCT_ID}/benefits`]: () =>
        ++benefitCalls === 1
          ? {
              status: 422,
              body: { detail: [{ loc: ['body', 'benefits', 0], msg: 'Benefit does not exist.', type: 'value_error' }] },
            }
          : { status: 200, body: { ...created, benefits: [NOTE] } },
    });
    const { onSaved } = renderForm();

    await user.type(screen.getByLabelText('Product name'), 'Pro plan');
    await user.type(screen.getByLabelText('Amount'), '25');
    await user.click(screen.getByRole('checkbox', { name: 'Onboarding call' }));
    await user.click(screen.getByRole('button', { name: 'Create product' }));

    await screen.findByText('“Pro plan” is saved, but its benefits are not.');
    const benefits = screen.getByRole('group', { name: 'Benefits' });
    expect(within(benefits).getByText('Benefit does not exist.')).toBeTruthy();
    expect(within(benefits).getByRole('checkbox', { name: 'Onboarding call' }).getAttribute('aria-invalid')).toBe(
      'true',
    );
    expect(onSaved).not.toHaveBeenCalled();

    // The form now edits the created product: saving again updates it and retries the benefits.
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(api.of('POST', '/v1/products/')).toHaveLength(1);
    expect(api.of('PATCH', `/v1/products/${PRODUCT_ID}`)[0]!.body).toMatchObject({ prices: [{ id: PRICE_ID }] });
    expect(api.of('POST', `/v1/products/${PRODUCT_ID}/benefits`)).toHaveLength(2);
  });

  it('reorders attached custom fields and keeps the required flag', async () => {
    const user = userEvent.setup();
    const company: CustomField = { ...TEAM, id: '00000000-0000-4000-8000-00000000d002', slug: 'co', name: 'Company' };
    const current = product(withTeam(true));
    const api = fakeApi({ [`PATCH /v1/products/${PRODUCT_ID}`]: ok(current) });
    renderForm({ product: current, customFields: { items: [company, TEAM], error: null } });

    await user.click(screen.getByRole('checkbox', { name: 'Company' }));
    await user.click(screen.getByRole('button', { name: 'Move Company up' }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    await waitFor(() => expect(api.of('PATCH', `/v1/products/${PRODUCT_ID}`)).toHaveLength(1));
    expect(api.of('PATCH', `/v1/products/${PRODUCT_ID}`)[0]!.body).toMatchObject({
      attached_custom_fields: [
        { custom_field_id: company.id, required: false },
        { custom_field_id: TEAM.id, required: true },
      ],
    });
  });

  it('archives after a confirmation, then offers to unarchive', async () => {
    const user = userEvent.setup();
    const current = product();
    const api = fakeApi({ [`PATCH /v1/products/${PRODUCT_ID}`]: ok({ ...current, is_archived: true }) });
    renderForm({ product: current });

    await user.click(screen.getByRole('button', { name: 'Archive product' }));
    const dialog = screen.getByRole('dialog', { name: 'Archive “Pro plan”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Archive product' }));

    await screen.findByRole('button', { name: 'Unarchive product' });
    expect(api.of('PATCH', `/v1/products/${PRODUCT_ID}`)[0]!.body).toEqual({ is_archived: true });
  });

  it('points to the Benefits page when the organization has none', () => {
    fakeApi({});
    renderForm({ benefits: { items: [], error: null } });
    const benefits = screen.getByRole('group', { name: 'Benefits' });
    expect(within(benefits).getByRole('link', { name: 'Benefits page' }).getAttribute('href')).toBe(
      '/dashboard/acme/benefits',
    );
  });

  it('edits the free trial of a recurring product: its length, the card and once per customer', async () => {
    const user = userEvent.setup();
    const current = product({
      recurring_interval: 'month',
      is_recurring: true,
      trial_interval: 'day',
      trial_interval_count: 14,
    });
    const api = fakeApi({ [`PATCH /v1/products/${PRODUCT_ID}`]: ok(current) });
    renderForm({ product: current });

    const count = screen.getByLabelText('Number of days');
    await user.clear(count);
    await user.type(count, '0');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Enter a whole number from 1.')).toBeTruthy();
    expect(api.of('PATCH', `/v1/products/${PRODUCT_ID}`)).toEqual([]);

    await user.clear(count);
    await user.type(count, '30');
    await user.click(screen.getByRole('checkbox', { name: 'Ask for a card to start the trial' }));
    await user.click(screen.getByRole('checkbox', { name: 'One trial per customer' }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(api.of('PATCH', `/v1/products/${PRODUCT_ID}`)).toHaveLength(1));
    expect(api.of('PATCH', `/v1/products/${PRODUCT_ID}`)[0]!.body).toMatchObject({
      trial_interval: 'day',
      trial_interval_count: 30,
      trial_requires_payment_method: false,
      trial_once_per_customer: false,
    });
  });

  it('offers no trial on a one-time product, and sends none', async () => {
    renderForm({ product: product() });
    expect(screen.queryByLabelText('Free trial')).toBeNull();
  });
});
