import { describe, expect, it } from 'vitest';
import { usageChargesByMeter, usageGauge } from './usage';

const units = (value: number) => String(value);

describe('usageGauge', () => {
  it.each([
    [
      { consumed_units: 25, credited_units: 100, balance: 75 },
      25,
      0,
      '25 of 100 included units used this period (25%); 75 left.',
    ],
    [
      { consumed_units: 130, credited_units: 100, balance: -30 },
      100,
      30,
      '130 units used this period: all 100 included units, and 30 more.',
    ],
    [{ consumed_units: 40, credited_units: 0, balance: -40 }, null, 40, '40 units used this period.'],
    [{ consumed_units: 0, credited_units: 0, balance: 0 }, null, 0, '0 units used this period.'],
  ])('%j', (meter, usedPercent, overage, summary) => {
    expect(usageGauge(meter, units)).toEqual({ usedPercent, overage, summary });
  });
});

describe('usageChargesByMeter', () => {
  it('adds the charges of a meter across subscriptions of one currency, billed at the earliest renewal', () => {
    const charges = usageChargesByMeter([
      {
        currency: 'usd',
        current_period_end: '2026-04-01T00:00:00Z',
        meters: [
          { meter_id: 'm1', amount: 150 },
          { meter_id: 'm2', amount: 0 },
        ],
      },
      { currency: 'usd', current_period_end: '2026-03-20T00:00:00Z', meters: [{ meter_id: 'm1', amount: 50 }] },
      { currency: 'eur', current_period_end: '2026-03-10T00:00:00Z', meters: [{ meter_id: 'm1', amount: 999 }] },
      { currency: 'usd', current_period_end: null, meters: [] },
    ]);
    expect(Object.fromEntries(charges)).toEqual({
      m1: { amount: 200, currency: 'usd', billedAt: '2026-03-20T00:00:00Z' },
      m2: { amount: 0, currency: 'usd', billedAt: '2026-04-01T00:00:00Z' },
    });
  });
});
