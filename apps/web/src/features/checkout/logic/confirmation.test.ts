import { describe, expect, it } from 'vitest';
import { checkoutPath, confirmationPath, customerPortalUrl, sellerSuccessUrl } from './confirmation';

describe('paths', () => {
  it('builds the checkout and thank-you paths, keeping the embed parameters', () => {
    const embed = new URLSearchParams('embed=true');
    expect(checkoutPath('polar_c_1')).toBe('/checkout/polar_c_1');
    expect(confirmationPath('polar_c_1', 'polar_cst_x', embed)).toBe(
      '/checkout/polar_c_1/confirmation?embed=true&customer_session_token=polar_cst_x',
    );
    expect(confirmationPath('polar_c_1', null)).toBe('/checkout/polar_c_1/confirmation');
  });

  it('links the customer portal of the organization with the session', () => {
    expect(customerPortalUrl('acme-software', 'polar_cst_a+b')).toBe(
      '/portal/acme-software?customer_session_token=polar_cst_a%2Bb',
    );
  });
});

describe('sellerSuccessUrl', () => {
  const url = 'https://tessera.example/checkout/polar_c_1';

  it('is null for the default confirmation page', () => {
    expect(sellerSuccessUrl({ url, success_url: `${url}/confirmation` })).toBeNull();
  });

  it('is the seller’s page when one was set', () => {
    expect(sellerSuccessUrl({ url, success_url: 'https://shop.example/thanks?id=1' })).toBe(
      'https://shop.example/thanks?id=1',
    );
  });

  it('never sends the buyer to something that is not a web page', () => {
    expect(sellerSuccessUrl({ url, success_url: 'javascript:alert(1)' })).toBeNull();
  });
});
