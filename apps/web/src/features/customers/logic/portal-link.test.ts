import { describe, expect, it } from 'vitest';
import { portalLinkMailto } from './portal-link';

describe('portalLinkMailto', () => {
  const url = 'https://shop.example/portal/acme?customer_session_token=polar_cst_a+b&x=1';
  it('addresses the customer, names the seller and carries the link intact', () => {
    const mailto = portalLinkMailto('ada+1@example.com', 'Acme & Co', url);
    const parsed = new URL(mailto);
    expect(parsed.protocol).toBe('mailto:');
    expect(decodeURIComponent(parsed.pathname)).toBe('ada+1@example.com');
    const params = new URLSearchParams(parsed.search.replaceAll('+', '%2B'));
    expect(params.get('subject')).toBe('Your Acme & Co customer portal');
    expect(params.get('body')).toContain(`\n\n${url}\n\n`);
  });
});
