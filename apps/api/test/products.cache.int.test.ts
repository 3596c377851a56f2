import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { benefitFactory, meterFactory } from './factories/benefits.js';
import { customFieldFactory } from './factories/custom-fields.js';
import { organizationFactory, type OrganizationFixture } from './factories/organizations.js';
import { meteredPrice, productFactory } from './factories/products.js';
import { bearer, json, startTestServer, type TestServer } from './harness.js';
import { userFactory } from './factories/users.js';
import { COUNTED_SERVER, installStatementCounter, type StatementCounter } from './support/statement-counter.js';

/**
 * Product reads with an organization token are answered from memory under the organization's catalogue
 * version (migration 0052, platform/http/response-cache.ts). What that must not break: every change to
 * anything a product embeds shows in the next read, whoever wrote it (this node's API or another
 * process writing the database), and one organization never gets another's answer.
 */
let server: TestServer;
let counter: StatementCounter;
let acme: OrganizationFixture;

beforeAll(async () => {
  server = await startTestServer(COUNTED_SERVER);
  counter = installStatementCounter();
  acme = await organizationFactory(server, { name: 'Acme' });
});
afterAll(async () => {
  counter?.uninstall();
  await server?.stop();
});

const db = () => server.runtime.database.db;

async function get(url: string, token = acme.token) {
  const response = await server.inject({ method: 'GET', url, headers: bearer(token) });
  expect(response.statusCode, response.body).toBe(200);
  return json(response);
}
const list = (token = acme.token) => get('/v1/products/?limit=100', token);
const one = (id: string, token = acme.token) => get(`/v1/products/${id}`, token);

async function patch(url: string, payload: Record<string, unknown>) {
  const response = await server.inject({ method: 'PATCH', url, headers: bearer(acme.token), payload });
  expect(response.statusCode, response.body).toBe(200);
  return json(response);
}

describe('product reads kept in memory', () => {
  it('answers a repeated read with the token statement alone', async () => {
    const product = await productFactory(server, acme.organization.id);
    await list();
    await one(product.product.id);
    const again = await counter.count(() => list());
    const single = await counter.count(() => one(product.product.id));
    // Outside production the organization's test clock is read before the handler, never for a kept answer.
    expect(again.statements).toHaveLength(1);
    expect(again.statements[0]).toContain('from "organization_access_tokens" as "t" inner join "organizations"');
    expect(single.statements).toHaveLength(1);
    // Another query is another answer.
    const archived = await counter.count(() => get('/v1/products/?is_archived=true'));
    expect(archived.statements.length).toBeGreaterThan(1);
    expect(archived.result.items).toEqual([]);
  });

  it('shows every change to what a product embeds at the next read', async () => {
    const meter = await meterFactory(server, acme.organization.id, { name: 'Calls' });
    const field = await customFieldFactory(server, acme.organization.id);
    const product = await productFactory(server, acme.organization.id, {
      name: 'Before',
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 1000 }, meteredPrice(meter.id)],
      attached_custom_fields: [{ custom_field_id: field.id, required: false }],
    });
    const id = product.product.id;
    const benefit = await benefitFactory(server, acme.organization.id, { description: 'A note' });
    const read = async () => {
      const listed = (await list()).items.find((item: { id: string }) => item.id === id);
      const single = await one(id);
      expect(listed).toEqual(single);
      return single;
    };
    await read();

    // The product's own row, through the API.
    expect((await patch(`/v1/products/${id}`, { name: 'After' })).name).toBe('After');
    expect((await read()).name).toBe('After');

    // Its benefits attached, then one of them changed and deleted.
    const attached = await server.inject({
      method: 'POST',
      url: `/v1/products/${id}/benefits`,
      headers: bearer(acme.token),
      payload: { benefits: [benefit.id] },
    });
    expect(attached.statusCode).toBe(200);
    expect((await read()).benefits.map((b: { description: string }) => b.description)).toEqual(['A note']);
    await patch(`/v1/benefits/${benefit.id}`, { type: 'custom', description: 'A new note' });
    expect((await read()).benefits.map((b: { description: string }) => b.description)).toEqual(['A new note']);
    const deleted = await server.inject({
      method: 'DELETE',
      url: `/v1/benefits/${benefit.id}`,
      headers: bearer(acme.token),
    });
    expect(deleted.statusCode).toBe(204);
    expect((await read()).benefits).toEqual([]);

    // A custom field it shows, renamed.
    await patch(`/v1/custom-fields/${field.id}`, { type: field.type, name: 'Renamed field' });
    expect((await read()).attached_custom_fields[0].custom_field.name).toBe('Renamed field');

    // The meter of its metered price, renamed.
    await patch(`/v1/meters/${meter.id}`, { name: 'Requests' });
    const metered = (await read()).prices.find((p: { amount_type: string }) => p.amount_type === 'metered_unit');
    expect(metered.meter.name).toBe('Requests');

    // Written by another process straight to the database: a price, a media and its file.
    await sql`UPDATE product_prices SET price_amount = 1500 WHERE product_id = ${id} AND amount_type = 'fixed'`.execute(
      db(),
    );
    const fixed = (await read()).prices.find((p: { amount_type: string }) => p.amount_type === 'fixed');
    expect(fixed.price_amount).toBe(1500);
    const fileId = randomUUID();
    await db()
      .insertInto('files')
      .values({
        id: fileId,
        created_at: server.clock.now(),
        modified_at: null,
        deleted_at: null,
        organization_id: acme.organization.id,
        service: 'product_media',
        name: 'cover.png',
        version: null,
        path: `${acme.organization.id}/${fileId}/cover.png`,
        mime_type: 'image/png',
        size: 3,
        storage_version: null,
        checksum_etag: null,
        checksum_sha256_base64: null,
        checksum_sha256_hex: null,
        last_modified_at: null,
        is_uploaded: true,
        is_enabled: true,
        public_url: 'https://cdn.example.com/cover.png',
      } as never)
      .execute();
    await db().insertInto('product_medias').values({ product_id: id, file_id: fileId, order: 0 }).execute();
    expect((await read()).medias.map((m: { name: string }) => m.name)).toEqual(['cover.png']);
    await db().updateTable('files').set({ name: 'front.png' }).where('id', '=', fileId).execute();
    expect((await read()).medias.map((m: { name: string }) => m.name)).toEqual(['front.png']);
    await db().deleteFrom('product_medias').where('file_id', '=', fileId).execute();
    expect((await read()).medias).toEqual([]);

    // A new product and an archived one.
    const second = await productFactory(server, acme.organization.id, { name: 'Second' });
    expect((await list()).items.map((p: { id: string }) => p.id)).toContain(second.product.id);
    await patch(`/v1/products/${second.product.id}`, { is_archived: true });
    expect((await one(second.product.id)).is_archived).toBe(true);
  });

  it('keeps no answer across organizations, and a write that rolls back changes nothing', async () => {
    const other = await organizationFactory(server, { name: 'Other' });
    const ours = await productFactory(server, acme.organization.id, { name: 'Ours' });
    const theirs = await productFactory(server, other.organization.id, { name: 'Theirs' });
    const names = async (token: string) => (await list(token)).items.map((p: { name: string }) => p.name as string);
    expect(await names(acme.token)).toContain('Ours');
    expect(await names(other.token)).toEqual(['Theirs']);
    expect(await names(acme.token)).not.toContain('Theirs');
    // Another organization's product by id is not found, kept answers or not.
    const stranger = await server.inject({
      method: 'GET',
      url: `/v1/products/${theirs.product.id}`,
      headers: bearer(acme.token),
    });
    expect(stranger.statusCode).toBe(404);
    await one(ours.product.id);

    const version = async () =>
      (
        await db()
          .selectFrom('organizations')
          .select('catalogue_version')
          .where('id', '=', acme.organization.id)
          .executeTakeFirstOrThrow()
      ).catalogue_version;
    const before = await version();
    await expect(
      db()
        .transaction()
        .execute(async (tx) => {
          await tx.updateTable('products').set({ name: 'Never' }).where('id', '=', ours.product.id).execute();
          throw new Error('rolled back');
        }),
    ).rejects.toThrow('rolled back');
    expect(await version()).toBe(before);
    // Another organization's change does not move ours.
    await sql`UPDATE products SET name = 'Theirs too' WHERE id = ${theirs.product.id}`.execute(db());
    expect(await version()).toBe(before);
    expect((await one(ours.product.id)).name).toBe('Ours');
    expect(await names(other.token)).toEqual(['Theirs too']);
  });

  it('creates checkouts from the products kept under the catalogue version, and sees their changes', async () => {
    const product = await productFactory(server, acme.organization.id, { name: 'Kept' });
    const id = product.product.id;
    const create = async (status = 201) => {
      const response = await server.inject({
        method: 'POST',
        url: '/v1/checkouts/',
        headers: bearer(acme.token),
        payload: { products: [id] },
      });
      expect(response.statusCode, response.body).toBe(status);
      return json(response);
    };
    expect((await create()).amount).toBe(1000);
    const again = await counter.count(() => create());
    expect(again.result.amount).toBe(1000);
    expect(again.statements.join('\n')).not.toContain('from "products"');

    await patch(`/v1/products/${id}`, { prices: [{ amount_type: 'fixed', price_amount: 2500 }] });
    expect((await create()).amount).toBe(2500);
    await sql`UPDATE product_prices SET price_amount = 3000 WHERE product_id = ${id} AND NOT is_archived`.execute(db());
    expect((await create()).amount).toBe(3000);
    await patch(`/v1/products/${id}`, { is_archived: true });
    const archived = await create(422);
    expect(JSON.stringify(archived.detail)).toContain('Product is archived.');
  });

  it('answers a user (the dashboard) afresh', async () => {
    const user = await userFactory(server);
    const created = await server.inject({
      method: 'POST',
      url: '/v1/organizations/',
      headers: user.headers,
      payload: { name: 'Dashboard', slug: `dashboard-${randomUUID().slice(0, 8)}` },
    });
    expect(created.statusCode, created.body).toBe(201);
    const product = await productFactory(server, json(created).id, { name: 'Dashboard' });
    const read = () =>
      server.inject({ method: 'GET', url: `/v1/products/${product.product.id}`, headers: { cookie: user.cookie } });
    expect((await read()).statusCode).toBe(200);
    const again = await counter.count(read);
    expect(again.result.statusCode).toBe(200);
    expect(again.statements.length).toBeGreaterThan(1);
  });
});
