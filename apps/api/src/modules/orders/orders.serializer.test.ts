import { describe, expect, it } from 'vitest';
import { formatInvoiceNumber, isPaidStatus } from './orders.serializer.js';

describe('formatInvoiceNumber', () => {
  it('pads the sequence to four digits after the prefix, and grows past them', () => {
    expect(formatInvoiceNumber('ACME', 1)).toBe('ACME-0001');
    expect(formatInvoiceNumber('ACME', 42)).toBe('ACME-0042');
    expect(formatInvoiceNumber('ACME', 9999)).toBe('ACME-9999');
    expect(formatInvoiceNumber('ACME', 12345)).toBe('ACME-12345');
  });
});

describe('isPaidStatus', () => {
  it('is true for paid and refunded orders, false for pending ones', () => {
    expect(['pending', 'paid', 'refunded', 'partially_refunded'].map(isPaidStatus)).toEqual([false, true, true, true]);
  });
});
