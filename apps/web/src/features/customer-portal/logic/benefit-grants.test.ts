import type { CustomerBenefitGrantDiscord } from '@tessera/sdk';
import { describe, expect, it } from 'vitest';
import { accountGrantState, expiryWords, grantState, usageWords } from './benefit-grants';

function discordGrant(overrides: Partial<CustomerBenefitGrantDiscord> = {}) {
  return {
    is_granted: false,
    is_revoked: false,
    revoked_at: null,
    benefit: { type: 'discord', properties: { guild_id: '1234' } },
    properties: {},
    ...overrides,
  } as CustomerBenefitGrantDiscord;
}

describe('grantState', () => {
  it.each([
    [{ is_granted: true, is_revoked: false, revoked_at: null }, 'Active'],
    [{ is_granted: false, is_revoked: false, revoked_at: null }, 'Being set up'],
    [{ is_granted: false, is_revoked: true, revoked_at: '2026-01-20T12:00:00.000Z' }, 'Revoked'],
  ])('%j → %s', (grant, label) => {
    expect(grantState(grant).label).toBe(label);
  });
});

describe('accountGrantState', () => {
  it('says a Discord account is needed, and who to ask, while none is connected', () => {
    const state = accountGrantState(discordGrant(), { oauth_accounts: {} }, 'Acme');
    expect(state.label).toBe('Needs your Discord account');
    expect(state.message).toContain('contact Acme');
  });

  it('says access is on its way once an account is connected', () => {
    const customer = { oauth_accounts: { discord: { account_id: '42', account_username: 'ada' } } };
    expect(accountGrantState(discordGrant(), customer, 'Acme').label).toBe('Being set up');
  });

  it('says the role is given once granted', () => {
    const state = accountGrantState(discordGrant({ is_granted: true }), { oauth_accounts: {} }, 'Acme');
    expect(state).toMatchObject({ label: 'Active', tone: 'success' });
  });
});

describe('license key words', () => {
  it('words usage against its limit', () => {
    expect(usageWords(3, 10)).toBe('3 of 10');
    expect(usageWords(3, null)).toBe('3 (no limit)');
  });

  it('words the expiry', () => {
    const now = new Date('2026-06-01T00:00:00.000Z');
    expect(expiryWords(null, now)).toBe('Never');
    expect(expiryWords('2026-01-01T00:00:00.000Z', now)).toMatch(/^Expired on /);
    expect(expiryWords('2027-01-01T00:00:00.000Z', now)).toMatch(/2027/);
  });
});
