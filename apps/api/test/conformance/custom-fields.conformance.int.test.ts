import { Polar } from '@polar-sh/sdk';
import type { CustomFieldCreate } from '@polar-sh/sdk/models/components/customfieldcreate.js';
import { HTTPValidationError } from '@polar-sh/sdk/models/errors/httpvalidationerror.js';
import { ResourceNotFound } from '@polar-sh/sdk/models/errors/resourcenotfound.js';
import { SDKError } from '@polar-sh/sdk/models/errors/sdkerror.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customFieldFactory, uniqueFieldSlug } from '../factories/custom-fields.js';
import { organizationFactory, type OrganizationFixture } from '../factories/organizations.js';
import { startTestServer, type TestServer } from '../harness.js';

/**
 * Drives custom fields through the official `@polar-sh/sdk@0.33.2`. Every call passes the SDK's own
 * response validation or throws `ResponseValidationError`, which fails the test.
 */
let server: TestServer;
let acme: OrganizationFixture;
let other: OrganizationFixture;
let polar: Polar;

beforeAll(async () => {
  server = await startTestServer({ listen: true });
  acme = await organizationFactory(server, { name: 'Acme' });
  other = await organizationFactory(server, { name: 'Other' });
  polar = new Polar({ accessToken: acme.token, serverURL: server.url });
});
afterAll(() => server?.stop());

const creates: CustomFieldCreate[] = [
  {
    type: 'text',
    slug: 'company',
    name: 'Company',
    metadata: { source: 'sdk' },
    properties: {
      formLabel: 'Company',
      formHelpText: 'Legal name',
      formPlaceholder: 'Acme Inc',
      textarea: false,
      minLength: 2,
      maxLength: 80,
    },
  },
  { type: 'number', slug: 'seats', name: 'Seats', properties: { ge: 1, le: 500 } },
  { type: 'date', slug: 'start_date', name: 'Start date', properties: { ge: 1704067200, le: 1893456000 } },
  { type: 'checkbox', slug: 'terms', name: 'Terms', properties: { formLabel: 'I accept the terms' } },
  {
    type: 'select',
    slug: 'plan',
    name: 'Plan',
    properties: {
      options: [
        { value: 'basic', label: 'Basic' },
        { value: 'pro', label: 'Pro' },
      ],
    },
  },
];

describe('custom fields through @polar-sh/sdk', () => {
  it.each(creates.map((c) => [c.type, c] as const))('customFields.create (%s)', async (_type, payload) => {
    const field = await polar.customFields.create(payload);
    expect(field).toMatchObject({
      type: payload.type,
      slug: payload.slug,
      name: payload.name,
      organizationId: acme.organization.id,
      properties: payload.properties,
      metadata: payload.metadata ?? {},
      modifiedAt: null,
    });
    expect(field.createdAt).toBeInstanceOf(Date);
  });

  it('customFields.list, iterating pages and filtering', async () => {
    const pages = [];
    for await (const page of await polar.customFields.list({ limit: 2 })) pages.push(page.result);
    expect(pages).toHaveLength(3);
    expect(pages[0]!.pagination).toEqual({ totalCount: 5, maxPage: 3 });
    expect(pages.flatMap((p) => p.items.map((f) => f.slug))).toEqual([
      'company',
      'plan',
      'seats',
      'start_date',
      'terms',
    ]);

    const filtered = await polar.customFields.list({
      organizationId: acme.organization.id,
      typeFilter: ['select', 'checkbox'],
      query: 'T',
      sorting: ['-name'],
    });
    expect(filtered.result.items.map((f) => f.slug)).toEqual(['terms']);
    const sorted = await polar.customFields.list({ sorting: ['type', '-created_at'], limit: 10 });
    expect(sorted.result.items.map((f) => f.type)).toEqual(['checkbox', 'date', 'number', 'select', 'text']);
  });

  it('customFields.get', async () => {
    const created = await customFieldFactory(server, acme.organization.id, {
      type: 'select',
      properties: { options: [{ value: 'x', label: 'X' }] },
    });
    const field = await polar.customFields.get({ id: created.id });
    expect(field).toMatchObject({
      id: created.id,
      type: 'select',
      properties: { options: [{ value: 'x', label: 'X' }] },
    });
  });

  it('customFields.update', async () => {
    const created = await customFieldFactory(server, acme.organization.id, { type: 'text', properties: {} });
    const slug = uniqueFieldSlug('updated');
    const updated = await polar.customFields.update({
      id: created.id,
      customFieldUpdate: {
        type: 'text',
        name: 'Updated',
        slug,
        metadata: { version: 2 },
        properties: { textarea: true, maxLength: 10 },
      },
    });
    expect(updated).toMatchObject({
      id: created.id,
      type: 'text',
      name: 'Updated',
      slug,
      metadata: { version: 2 },
      properties: { textarea: true, maxLength: 10 },
    });
    expect(updated.modifiedAt).toBeInstanceOf(Date);
  });

  it('raises HTTPValidationError for a type change and a bad body', async () => {
    const created = await customFieldFactory(server, acme.organization.id, { type: 'number', properties: {} });
    const error = await polar.customFields
      .update({ id: created.id, customFieldUpdate: { type: 'text', name: 'x' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HTTPValidationError);
    expect((error as HTTPValidationError).detail).toEqual([
      expect.objectContaining({ loc: ['body', 'type'], msg: "The type of a custom field can't be changed." }),
    ]);
    const duplicate = await polar.customFields
      .create({ type: 'text', slug: 'COMPANY', name: 'Again', properties: {} })
      .catch((e: unknown) => e);
    expect(duplicate).toBeInstanceOf(HTTPValidationError);
    expect((duplicate as HTTPValidationError).detail?.[0]?.loc).toEqual(['body', 'slug']);
  });

  it('customFields.delete, then ResourceNotFound', async () => {
    const created = await customFieldFactory(server, acme.organization.id);
    await expect(polar.customFields.delete({ id: created.id })).resolves.toBeUndefined();
    await expect(polar.customFields.get({ id: created.id })).rejects.toBeInstanceOf(ResourceNotFound);
    await expect(polar.customFields.delete({ id: created.id })).rejects.toBeInstanceOf(ResourceNotFound);
  });

  it("raises ResourceNotFound for another organization's field", async () => {
    const theirs = await customFieldFactory(server, other.organization.id);
    await expect(polar.customFields.get({ id: theirs.id })).rejects.toBeInstanceOf(ResourceNotFound);
    await expect(
      polar.customFields.update({ id: theirs.id, customFieldUpdate: { type: 'text', name: 'Taken' } }),
    ).rejects.toBeInstanceOf(ResourceNotFound);
    await expect(polar.customFields.delete({ id: theirs.id })).rejects.toBeInstanceOf(ResourceNotFound);
  });

  it('answers 401 without a token (an SDKError with the status)', async () => {
    const anonymous = new Polar({ serverURL: server.url });
    const error = await anonymous.customFields.list({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SDKError);
    expect((error as SDKError).statusCode).toBe(401);
  });
});
