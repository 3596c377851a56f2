import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isWebAppPage } from '../src/app.js';
import { json, startTestServer, type TestServer } from './harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
});

describe('isWebAppPage', () => {
  it.each([
    ['/login', true],
    ['/signup/', true],
    ['/dashboard', true],
    ['/dashboard/acme/products?page=2', true],
    ['/checkout/polar_c_secret', true],
    ['/portal/acme', true],
    ['/portal/acme/', true],
    ['/portal/acme/orders/123?customer_session_token=polar_cst_x', true],
    ['/portal', false],
    ['/acme/portal', true],
    ['/acme/portal/orders', true],
    ['/v1/products/', false],
    ['/v1/portal', false],
    ['/docs/portal', false],
    ['/assets/missing.js', false],
    ['/checkout', false],
    ['/invite/polar_inv_x', true],
    ['/invite', false],
    ['/invite/polar_inv_x/more', false],
    ['/anything', false],
  ])('%s → %s', (url, expected) => {
    expect(isWebAppPage('GET', url)).toBe(expected);
  });

  it('answers only reads', () => {
    expect(isWebAppPage('POST', '/dashboard')).toBe(false);
    expect(isWebAppPage('HEAD', '/dashboard')).toBe(true);
  });
});

describe('web app pages', () => {
  it('answers a deep dashboard URL with the app page', async () => {
    const response = await server.inject({ method: 'GET', url: '/dashboard/acme/products' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toContain('<div id="root"></div>');
  });

  it('keeps the API 404 for unknown API paths and for writes to app paths', async () => {
    const unknown = await server.inject({ method: 'GET', url: '/v1/nothing-here' });
    expect(unknown.statusCode).toBe(404);
    expect(json(unknown)).toEqual({ error: 'ResourceNotFound', detail: 'Not found' });
    const write = await server.inject({ method: 'POST', url: '/dashboard', payload: {} });
    expect(write.statusCode).toBe(404);
    expect(json(write).error).toBe('ResourceNotFound');
  });

  it('serves the built assets the page refers to', async () => {
    const page = await server.inject({ method: 'GET', url: '/login' });
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(page.body)?.[1];
    expect(script).toBeDefined();
    const asset = await server.inject({ method: 'GET', url: script! });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toContain('javascript');
  });
});
