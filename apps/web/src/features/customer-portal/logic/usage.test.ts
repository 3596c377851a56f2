import { describe, expect, it } from 'vitest';
import { usageGauge } from './usage';

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
