import type { LicenseKeyRead } from '@tessera/sdk';
import { describe, expect, it } from 'vitest';
import { licenseKeyChanges, licenseKeyFormValues } from './license-key-changes';

const KEY = {
  id: '00000000-0000-4000-8000-000000000001',
  status: 'granted',
  usage: 4,
  limit_usage: 10,
  limit_activations: null,
  expires_at: '2027-01-15T12:00:00.000Z',
} as LicenseKeyRead;

describe('licenseKeyChanges', () => {
  it('sends nothing when nothing changed', () => {
    expect(licenseKeyChanges(licenseKeyFormValues(KEY), licenseKeyFormValues(KEY))).toEqual({ body: {}, errors: {} });
  });

  it('sends only the keys the person changed, so usage counted meanwhile is not overwritten', () => {
    const values = { ...licenseKeyFormValues(KEY), status: 'disabled' as const, limitActivations: '5' };
    expect(licenseKeyChanges(licenseKeyFormValues(KEY), values).body).toEqual({
      status: 'disabled',
      limit_activations: 5,
    });
  });

  it('clears a limit or the expiry when the field is emptied, and ends an expiry date at the end of the day', () => {
    const cleared = licenseKeyChanges(licenseKeyFormValues(KEY), {
      ...licenseKeyFormValues(KEY),
      limitUsage: '',
      expiresOn: '',
    });
    expect(cleared.body).toEqual({ limit_usage: null, expires_at: null });
    const moved = licenseKeyChanges(licenseKeyFormValues(KEY), {
      ...licenseKeyFormValues(KEY),
      expiresOn: '2028-03-01',
    });
    expect(moved.body).toEqual({ expires_at: '2028-03-01T23:59:59.000Z' });
  });

  it('refuses numbers that are not whole, next to their field', () => {
    const values = { ...licenseKeyFormValues(KEY), usage: '-1', limitUsage: '2.5', limitActivations: 'ten' };
    const { body, errors } = licenseKeyChanges(licenseKeyFormValues(KEY), values);
    expect(body).toEqual({});
    expect(Object.keys(errors).sort()).toEqual(['limit_activations', 'limit_usage', 'usage']);
  });
});
