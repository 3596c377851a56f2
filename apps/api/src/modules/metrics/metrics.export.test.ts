import { describe, expect, it } from 'vitest';
import { metricsCsvLines } from './metrics.export.js';
import type { MetricsResponseWire } from './metrics.schemas.js';

const response = {
  periods: [
    { timestamp: '2026-01-01T00:00:00.000Z', orders: 2, revenue: 1999, checkouts_conversion: 0.5 },
    { timestamp: '2026-01-02T00:00:00.000Z', orders: 0, revenue: 0, checkouts_conversion: 1 },
  ],
  totals: {},
  metrics: {
    orders: { slug: 'orders', display_name: 'Orders', type: 'scalar' },
    revenue: { slug: 'revenue', display_name: 'Revenue', type: 'currency' },
    checkouts_conversion: {
      slug: 'checkouts_conversion',
      display_name: 'Checkouts Conversion Rate',
      type: 'percentage',
    },
  },
} as unknown as MetricsResponseWire;

describe('metricsCsvLines', () => {
  it('writes a Timestamp column then every metric by display name', () => {
    expect(metricsCsvLines(response)).toEqual([
      'Timestamp,Orders,Revenue,Checkouts Conversion Rate\r\n',
      '2026-01-01T00:00:00+00:00,2,1999,0.5\r\n',
      '2026-01-02T00:00:00+00:00,0,0,1.0\r\n',
    ]);
  });

  it('keeps only the metrics asked for, in the metrics order, and skips unknown slugs', () => {
    expect(metricsCsvLines(response, ['revenue', 'nope', 'orders'])).toEqual([
      'Timestamp,Orders,Revenue\r\n',
      '2026-01-01T00:00:00+00:00,2,1999\r\n',
      '2026-01-02T00:00:00+00:00,0,0\r\n',
    ]);
  });
});
