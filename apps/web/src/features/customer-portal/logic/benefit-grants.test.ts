import type { CustomerBenefitGrantDiscord } from '@tessera/sdk';
import { describe, expect, it } from 'vitest';
import { accountGrantState, accountsOf, expiryWords, grantState, usageWords } from './benefit-grants';

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
  it('asks to connect a Discord account while none is connected, then to choose one', () => {
    const state = accountGrantState(discordGrant(), { oauth_accounts: {} }, 'Acme');
    expect(state.label).toBe('Needs your Discord account');
    expect(state.message).toBe('Access is given to a Discord account: connect yours below.');
    const customer = { oauth_accounts: { 'discord:42': { account_id: '42', account_username: 'ada' } } };
    expect(accountGrantState(discordGrant(), customer, 'Acme').message).toBe(
      'Choose the Discord account that should get access.',
    );
  });

  it('says access is on its way once an account is chosen, with the error while it is retried', () => {
    const customer = { oauth_accounts: { 'discord:42': { account_id: '42', account_username: 'ada' } } };
    const chosen = discordGrant({ properties: { account_id: '42' } });
    expect(accountGrantState(chosen, customer, 'Acme').label).toBe('Being set up');
    const failing = { ...chosen, error: { message: 'Discord answered 502', type: 'x', timestamp: '' } };
    expect(accountGrantState(failing, customer, 'Acme').message).toContain('(Discord answered 502)');
    expect(accountGrantState(failing, customer, 'Acme').message).toContain('contact Acme');
  });

  it('lists the connected accounts of one platform', () => {
    const customer = {
      oauth_accounts: {
        'discord:42': { account_id: '42', account_username: 'ada' },
        'github:7': { account_id: '7', account_username: 'octo' },
      },
    };
    expect(accountsOf(customer, 'github')).toEqual([{ account_id: '7', account_username: 'octo' }]);
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
