import { describe, expect, it } from 'vitest';
import {
  allocate,
  calculateTax,
  invoiceTaxLine,
  findRegistration,
  isReverseCharge,
  REVERSE_CHARGE_NOTE,
  roundHalfUp,
  splitInclusive,
  taxExclusive,
  taxLines,
  creditTax,
  type TaxRules,
} from './billing.tax.js';

const registrations = [
  { country: 'FR', state: null, rate_basis_points: 2000, label: 'VAT' },
  { country: 'DE', state: null, rate_basis_points: 1900, label: 'MwSt' },
  { country: 'US', state: 'US-CA', rate_basis_points: 725, label: 'Sales tax' },
  { country: 'CA', state: null, rate_basis_points: 500, label: 'GST' },
  { country: 'CA', state: 'CA-ON', rate_basis_points: 1300, label: 'HST' },
];
const exclusive: TaxRules = { pricesIncludeTax: false, homeCountry: 'FR', registrations };
const inclusive: TaxRules = { ...exclusive, pricesIncludeTax: true };
const question = { amount: 1000, country: 'FR', state: null, taxId: null, taxable: true };

describe('roundHalfUp', () => {
  it.each([
    [1000, 2000, 10_000, 200],
    [1, 5000, 10_000, 1], // 0.5 → 1
    [3, 5000, 10_000, 2], // 1.5 → 2
    [1, 4999, 10_000, 0],
    [-1, 5000, 10_000, -1], // a half goes away from zero
    [999, 725, 10_000, 72], // 72.4275
    [1010, 725, 10_000, 73], // 73.225
    [9_007_199_254_740, 2000, 10_000, 1_801_439_850_948], // no float overflow
  ])('%s × %s / %s = %s', (value, numerator, denominator, expected) =>
    expect(roundHalfUp(value, numerator, denominator)).toBe(expected),
  );
});

describe('taxExclusive and splitInclusive', () => {
  it.each([
    [1000, 2000, 200],
    [999, 2000, 200], // 199.8
    [1005, 725, 73], // 72.8625
    [0, 2000, 0],
  ])('tax on %s at %s bp = %s', (amount, rate, tax) => expect(taxExclusive(amount, rate)).toBe(tax));

  it.each([
    [1200, 2000, 1000, 200],
    [1000, 2000, 833, 167], // 833.33
    [999, 1900, 839, 160], // 839.49
    [1, 2000, 1, 0],
    [1075, 725, 1002, 73], // 1002.33
  ])('gross %s at %s bp = net %s + tax %s', (gross, rate, net, tax) => {
    expect(splitInclusive(gross, rate)).toEqual({ net, tax });
    expect(net + tax).toBe(gross);
  });
});

describe('findRegistration', () => {
  it.each([
    ['FR', null, 'VAT'],
    ['US', 'US-CA', 'Sales tax'],
    ['US', 'US-NY', null], // no registration in New York, none for the whole US
    ['US', null, null],
    ['CA', 'CA-ON', 'HST'], // the province's wins over the country's
    ['CA', 'CA-QC', 'GST'], // no province registration: the country's
    ['IT', null, null],
  ])('%s %s → %s', (country, state, label) =>
    expect(findRegistration(registrations, country, state)?.label ?? null).toBe(label),
  );
});

describe('isReverseCharge', () => {
  it.each([
    ['FR', 'DE', ['DE123456789', 'eu_vat'], true], // another member state
    ['FR', 'FR', ['FR12345678901', 'eu_vat'], false], // the seller's own country
    ['FR', 'DE', null, false], // a consumer
    ['FR', 'DE', ['12345678901', 'de_stn'], false], // not a VAT id
    ['FR', 'GB', ['GB123456789', 'gb_vat'], false], // outside the EU
    [null, 'DE', ['DE123456789', 'eu_vat'], true], // a seller with no home country set
    // Decided by the id's country, not the address's: a home-country id is taxed wherever the buyer is.
    ['FR', 'DE', ['FR12345678901', 'eu_vat'], false],
    ['DE', 'GR', ['EL123456789', 'eu_vat'], true], // Greece's VAT prefix is EL
    ['GR', 'GR', ['EL123456789', 'eu_vat'], false],
    ['FR', 'DE', ['IT12345678901', 'eu_vat'], false], // an id of another country than the address's
  ] as const)('seller %s, buyer %s %j → %s', (home, country, taxId, expected) =>
    expect(isReverseCharge(home, country, taxId)).toBe(expected),
  );
});

describe('calculateTax', () => {
  it('is unknown until the billing country is', () => {
    expect(calculateTax(exclusive, { ...question, country: null })).toEqual({ status: 'unknown' });
  });

  it.each([
    ['France 20 %, exclusive', exclusive, { country: 'FR' }, 200, 1000, 2000, 'VAT'],
    ['France 20 %, inclusive', inclusive, { country: 'FR' }, 167, 833, 2000, 'VAT'],
    ['California state rate', exclusive, { country: 'US', state: 'US-CA' }, 73, 1000, 725, 'Sales tax'],
    ['a US state without registration', exclusive, { country: 'US', state: 'US-TX' }, 0, 1000, 0, null],
    ['a country without registration', exclusive, { country: 'JP' }, 0, 1000, 0, null],
    ['an exempt product', exclusive, { taxable: false }, 0, 1000, 0, 'VAT'],
    ['nothing to pay', exclusive, { amount: 0 }, 0, 0, 0, 'VAT'],
    ['after a discount (taxable 750)', exclusive, { amount: 750 }, 150, 750, 2000, 'VAT'],
    [
      'a French VAT id at a French seller',
      exclusive,
      { taxId: ['FR12345678901', 'eu_vat'] as const },
      200,
      1000,
      2000,
      'VAT',
    ],
  ])('%s', (_name, rules, overrides, tax, taxable, rate, label) => {
    const answer = calculateTax(rules, { ...question, ...overrides });
    expect(answer.status).toBe('calculated');
    if (answer.status !== 'calculated') return;
    expect(answer.details).toMatchObject({
      tax_amount: tax,
      taxable_amount: taxable,
      rate_basis_points: rate,
      label,
      reverse_charge: false,
    });
  });

  it('reverse-charges a German business buying from a French seller, with the invoice note', () => {
    const answer = calculateTax(exclusive, { ...question, country: 'DE', taxId: ['DE123456789', 'eu_vat'] });
    expect(answer).toEqual({
      status: 'calculated',
      details: expect.objectContaining({
        country: 'DE',
        tax_amount: 0,
        rate_basis_points: 0,
        label: 'MwSt',
        reverse_charge: true,
        note: REVERSE_CHARGE_NOTE,
      }) as unknown,
    });
  });
});

describe('allocate', () => {
  it.each([
    [10, [1, 1, 1], [4, 3, 3]],
    [200, [1000], [200]],
    [7, [500, -200, 500], [4, 0, 3]], // credits get no share
    [0, [1, 2], [0, 0]],
    [5, [0, 0], [0, 0]],
    [100, [333, 333, 334], [33, 33, 34]],
  ])('%s over %j = %j', (total, weights, shares) => {
    expect(allocate(total, weights)).toEqual(shares);
  });
});

describe('taxLines', () => {
  it('gives each line its share; with inclusive prices the line gives it up from its amount', () => {
    const lines = [
      { label: 'Plan', amount: 1000 },
      { label: 'Seats', amount: 500 },
    ];
    expect(taxLines(lines, { tax_amount: 301, inclusive: false })).toEqual([
      { label: 'Plan', amount: 1000, tax_amount: 201 },
      { label: 'Seats', amount: 500, tax_amount: 100 },
    ]);
    expect(taxLines(lines, { tax_amount: 250, inclusive: true })).toEqual([
      { label: 'Plan', amount: 833, tax_amount: 167 },
      { label: 'Seats', amount: 417, tax_amount: 83 },
    ]);
    expect(taxLines(lines, null).map((line) => line.tax_amount)).toEqual([0, 0]);
  });

  it("shares an order's tax among its charged lines and a net credit's among its credit lines", () => {
    const downgrade = [
      { label: 'Unused Pro', amount: -4993 },
      { label: 'Basic', amount: 999 },
    ];
    expect(taxLines(downgrade, { tax_amount: -799, inclusive: false })).toEqual([
      { label: 'Unused Pro', amount: -4993, tax_amount: -799 },
      { label: 'Basic', amount: 999, tax_amount: 0 },
    ]);
    // Included in the prices: the credit gives its (negative) share up too, staying what was paid.
    expect(taxLines(downgrade, { tax_amount: -666, inclusive: true })).toEqual([
      { label: 'Unused Pro', amount: -4327, tax_amount: -666 },
      { label: 'Basic', amount: 999, tax_amount: 0 },
    ]);
    const upgrade = [
      { label: 'Unused Basic', amount: -677 },
      { label: 'Pro', amount: 3387 },
    ];
    expect(taxLines(upgrade, { tax_amount: 542, inclusive: false }).map((line) => line.tax_amount)).toEqual([0, 542]);
  });
});

describe('creditTax', () => {
  it('is the tax of the amount charged, negative, with no calculation to record', () => {
    const details = {
      provider: 'stripe_tax' as const,
      country: 'FR',
      state: null,
      rate_basis_points: 2000,
      label: 'VAT',
      taxable_amount: 3994,
      tax_amount: 799,
      inclusive: false,
      reverse_charge: false,
      note: null,
      calculation_id: 'taxcalc_1',
    };
    expect(creditTax(details)).toEqual({
      ...details,
      taxable_amount: -3994,
      tax_amount: -799,
      calculation_id: null,
      credit: true,
    });
  });
});

describe('invoiceTaxLine', () => {
  it.each([
    [null, 'Tax', null],
    [{ label: 'VAT', rate_basis_points: 2000, reverse_charge: false, note: null }, 'VAT (20%)', null],
    [{ label: 'Sales tax', rate_basis_points: 725, reverse_charge: false, note: null }, 'Sales tax (7.25%)', null],
    [{ label: 'VAT', rate_basis_points: 2000, inclusive: true, reverse_charge: false }, 'VAT (20%, included)', null],
    [
      { label: 'MwSt', rate_basis_points: 0, reverse_charge: true, note: REVERSE_CHARGE_NOTE },
      'MwSt (reverse charge)',
      REVERSE_CHARGE_NOTE,
    ],
    [{ label: null, rate_basis_points: 0, reverse_charge: false, note: null }, 'Tax', null],
  ])('%j → %s', (details, label, note) => expect(invoiceTaxLine(details)).toEqual({ label, note }));
});
