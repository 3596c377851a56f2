import { describe, expect, it } from 'vitest';
import { attachedField, checkoutFixture, customPrice, product } from '../testing/fixtures';
import { EMPTY_ADDRESS } from './address';
import { checkoutCustomFields } from './custom-fields';
import {
  buildConfirmBody,
  buildSelectionBody,
  buildUpdateBody,
  initialFormState,
  issuesByField,
  validateForm,
  type CheckoutFormState,
} from './form';

const NOW = new Date(2026, 0, 15);
const attached = [
  attachedField({ slug: 'team', name: 'Team name', type: 'text', properties: {} }, true),
  attachedField({ slug: 'seats', name: 'Seats', type: 'number', properties: { ge: 1 } }, false, 1),
];
const checkout = checkoutFixture({ attached_custom_fields: attached });
const fields = checkoutCustomFields(attached);

function filled(overrides: Partial<CheckoutFormState> = {}): CheckoutFormState {
  return {
    ...initialFormState(checkout, fields),
    email: 'ada@example.com',
    name: 'Ada Lovelace',
    address: { ...EMPTY_ADDRESS, country: 'FR' },
    answers: { team: 'Analytical', seats: '3' },
    card: { number: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123' },
    ...overrides,
  };
}

describe('initialFormState', () => {
  it('starts from what the checkout already holds', () => {
    const state = initialFormState(
      checkoutFixture({
        customer_email: 'ada@example.com',
        is_business_customer: true,
        customer_billing_name: 'Acme',
        customer_tax_id: 'FR40303265045',
        customer_billing_address: {
          country: 'FR',
          line1: '1 rue',
          line2: null,
          postal_code: '75001',
          city: 'Paris',
          state: null,
        },
        custom_field_data: { team: 'Ops' },
        attached_custom_fields: attached,
      }),
      fields,
    );
    expect(state).toMatchObject({
      email: 'ada@example.com',
      isBusiness: true,
      businessName: 'Acme',
      taxId: 'FR40303265045',
      address: { country: 'FR', line1: '1 rue', postalCode: '75001', city: 'Paris', line2: '', state: '' },
      answers: { team: 'Ops', seats: '' },
      amount: '',
    });
  });

  it('shows a pay-what-you-want amount in major units', () => {
    const pwyw = product('Tip jar', (id) => [customPrice(id)]);
    const state = initialFormState(
      checkoutFixture({ product: pwyw, product_price: pwyw.prices[0]!, amount: 2000 }),
      [],
    );
    expect(state.amount).toBe('20.00');
  });
});

describe('validateForm', () => {
  it('accepts a filled form', () => {
    expect(validateForm(filled(), checkout, fields, { requireCard: true, now: NOW })).toEqual({});
  });

  it('names every problem under the API’s field path', () => {
    const state = filled({
      email: 'ada@',
      name: '',
      isBusiness: true,
      address: EMPTY_ADDRESS,
      answers: { team: '', seats: '0' },
      card: { number: '4242', expiry: '', cvc: '1' },
    });
    expect(validateForm(state, checkout, fields, { requireCard: true, now: NOW })).toEqual({
      customer_email: 'Enter a valid email address, such as ada@example.com.',
      customer_name: 'Enter your name.',
      customer_billing_name: 'Enter the name of your business.',
      'customer_billing_address.country': 'Choose your country.',
      'customer_billing_address.line1': 'Enter your street address.',
      'customer_billing_address.postal_code': 'Enter your postal code.',
      'customer_billing_address.city': 'Enter your city.',
      'custom_field_data.team': 'This field is required.',
      'custom_field_data.seats': 'Enter a number of at least 1.',
      'card.number': 'Your card number is invalid.',
      'card.expiry': 'Enter the expiry date.',
      'card.cvc': 'The security code is 3 digits.',
    });
  });

  it('does not ask for a name, an address or a card when nothing is to be paid', () => {
    const free = { ...checkout, is_payment_form_required: false, is_payment_required: false };
    const state = filled({ name: '', address: EMPTY_ADDRESS, card: { number: '', expiry: '', cvc: '' } });
    expect(validateForm(state, free, fields, { requireCard: false, now: NOW })).toEqual({});
  });

  it('checks a pay-what-you-want amount against its bounds', () => {
    const pwyw = product('Tip jar', (id) => [customPrice(id, { minimum_amount: 500 })]);
    const withAmount = checkoutFixture({ product: pwyw, product_price: pwyw.prices[0]!, amount: 2000 });
    expect(validateForm(filled({ amount: '2' }), withAmount, fields, { requireCard: false, now: NOW })).toMatchObject({
      amount: 'Enter at least $5.00.',
    });
  });

  it('leaves a linked customer’s email alone', () => {
    const linked = { ...checkout, customer_id: '00000000-0000-4000-8000-000000000999', customer_email: 'a@b.co' };
    expect(validateForm(filled({ email: '' }), linked, fields, { requireCard: true, now: NOW })).toEqual({});
  });
});

describe('buildUpdateBody', () => {
  it('sends what the API will take and leaves out what is half-typed', () => {
    const state = filled({ email: 'ada@exa', answers: { team: 'Ops', seats: '0' }, name: '  ' });
    expect(buildUpdateBody(state, checkout, fields)).toEqual({
      is_business_customer: false,
      customer_name: null,
      custom_field_data: { team: 'Ops' },
      customer_billing_address: {
        country: 'FR',
        line1: null,
        line2: null,
        postal_code: null,
        city: null,
        state: null,
      },
    });
  });

  it('clears an email the buyer erased', () => {
    expect(buildUpdateBody(filled({ email: '' }), checkout, fields).customer_email).toBeNull();
  });

  it('sends the business details, the tax ID only once there is a country to check it against', () => {
    const business = filled({ isBusiness: true, businessName: 'Acme', taxId: 'FR40303265045' });
    expect(buildUpdateBody(business, checkout, fields)).toMatchObject({
      is_business_customer: true,
      customer_billing_name: 'Acme',
      customer_tax_id: 'FR40303265045',
    });
    const noCountry = buildUpdateBody({ ...business, address: EMPTY_ADDRESS }, checkout, fields);
    expect(noCountry).not.toHaveProperty('customer_tax_id');
    expect(noCountry).not.toHaveProperty('customer_billing_address');
  });

  it('sends a valid pay-what-you-want amount in minor units, and not an invalid one', () => {
    const pwyw = product('Tip jar', (id) => [customPrice(id)]);
    const withAmount = checkoutFixture({ product: pwyw, product_price: pwyw.prices[0]!, amount: 2000 });
    expect(buildUpdateBody(filled({ amount: '42.50' }), withAmount, []).amount).toBe(4250);
    expect(buildUpdateBody(filled({ amount: '1' }), withAmount, [])).not.toHaveProperty('amount');
  });
});

describe('buildSelectionBody', () => {
  it('switches product and price without the previous price’s amount', () => {
    const pwyw = product('Tip jar', (id) => [customPrice(id)]);
    const withAmount = checkoutFixture({ product: pwyw, product_price: pwyw.prices[0]!, amount: 2000 });
    const body = buildSelectionBody(filled({ amount: '30' }), withAmount, [], { productId: 'p2', priceId: 'pr2' });
    expect(body).toMatchObject({ product_id: 'p2', product_price_id: 'pr2' });
    expect(body).not.toHaveProperty('amount');
  });
});

describe('buildConfirmBody', () => {
  it('sends every field as typed with the confirmation token', () => {
    const body = buildConfirmBody(filled(), checkout, fields, 'ctoken_sim_1');
    expect(body).toEqual({
      is_business_customer: false,
      customer_name: 'Ada Lovelace',
      customer_email: 'ada@example.com',
      custom_field_data: { team: 'Analytical', seats: 3 },
      customer_billing_address: {
        country: 'FR',
        line1: null,
        line2: null,
        postal_code: null,
        city: null,
        state: null,
      },
      confirmation_token_id: 'ctoken_sim_1',
    });
  });

  it('sends no token when nothing is to be paid', () => {
    expect(buildConfirmBody(filled(), checkout, fields, null)).not.toHaveProperty('confirmation_token_id');
  });
});

describe('issuesByField', () => {
  it('puts API problems where the form shows them', () => {
    expect(
      issuesByField([
        { field: 'customer_billing_address', message: 'Field is required.' },
        { field: 'card.exp_year', message: 'Your card has expired.' },
        { field: 'discount_id', message: 'Discount is no longer redeemable.' },
        { field: 'customer_email', message: 'first' },
        { field: 'customer_email', message: 'second' },
      ]),
    ).toEqual({
      'customer_billing_address.country': 'Field is required.',
      'card.expiry': 'Your card has expired.',
      discount_code: 'Discount is no longer redeemable.',
      customer_email: 'first',
    });
  });
});
