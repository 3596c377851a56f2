import { describe, expect, it } from 'vitest';
import { customerEmailSettings, templateEnabled } from './settings.js';
import { nextAttemptAt, RETRY_DELAYS_SECONDS } from './sender.js';
import {
  escapeHtml,
  formatDate,
  formatMoney,
  oneLine,
  renderTemplate,
  templates,
  type TemplateData,
  type TemplateName,
} from './templates.js';

const brand = { name: 'Acme & <Sons>' };
const receipt: TemplateData['order_receipt'] = {
  customerName: 'Ada <script>',
  productName: 'Pro "plan"',
  items: [
    { label: 'Pro plan', amount: 1200 },
    { label: 'Setup', amount: 500 },
  ],
  subtotalAmount: 1700,
  discountAmount: 200,
  taxAmount: 300,
  totalAmount: 1800,
  currency: 'usd',
  orderUrl: 'https://billing.example.com/portal/acme/orders/o1?a=1&b=2',
  nextRenewalAt: new Date('2026-03-05T12:00:00Z'),
};

/** One example of every template: each must render (the table below asserts what each says). */
const EXAMPLES: { [K in TemplateName]: TemplateData[K] } = {
  order_receipt: receipt,
  subscription_renewal_receipt: receipt,
  payment_failed: {
    customerName: null,
    productName: 'Pro',
    amount: 1200,
    currency: 'eur',
    declineMessage: 'Your card was declined.',
    nextAttemptAt: new Date('2026-02-01T00:00:00Z'),
    updatePaymentUrl: 'https://billing.example.com/portal/acme/payment-methods',
  },
  payment_recovered: {
    customerName: 'Ada',
    productName: 'Pro',
    subscriptionUrl: 'https://x.test/portal/acme/subscriptions/s1',
  },
  subscription_canceled: {
    customerName: 'Ada',
    productName: 'Pro',
    endsAt: new Date('2026-04-30T00:00:00Z'),
    subscriptionUrl: 'https://x.test/portal/acme/subscriptions/s1',
  },
  trial_ending: {
    customerName: 'Ada',
    productName: 'Pro',
    trialEnd: new Date('2026-01-29T12:00:00Z'),
    amount: 1200,
    currency: 'usd',
    hasPaymentMethod: true,
    subscriptionUrl: 'https://x.test/portal/acme/subscriptions/s1',
    paymentMethodsUrl: 'https://x.test/portal/acme/payment-methods',
  },
  subscription_ended: {
    customerName: 'Ada',
    productName: 'Pro',
    endedAt: new Date('2026-04-30T00:00:00Z'),
    reason: null,
    portalUrl: 'https://x.test/portal/acme',
  },
  refund_issued: {
    customerName: 'Ada',
    productName: 'Pro',
    amount: 1000,
    taxAmount: 250,
    currency: 'usd',
    orderUrl: 'https://x.test/portal/acme/orders/o1',
  },
  portal_sign_in_code: { code: 'K7M2QX', portalUrl: 'https://x.test/portal/acme', validMinutes: 30 },
  webhook_endpoint_disabled: {
    endpointId: 'e1',
    url: 'https://hooks.example.com/in',
    why: 'it answered HTTP 410 Gone',
  },
  order_dispute_created: {
    orderId: 'o1',
    invoiceNumber: 'ACME-0001',
    amount: 1800,
    currency: 'usd',
    reason: 'product_not_received',
  },
  organization_invite: {
    inviterEmail: 'ada@example.com',
    acceptUrl: 'https://x.test/invite/polar_inv_abc',
    expiresAt: new Date('2026-05-07T12:00:00Z'),
  },
};

describe('formatMoney', () => {
  it.each([
    [1800, 'usd', '$18.00'],
    [5, 'usd', '$0.05'],
    [123456789, 'usd', '$1,234,567.89'],
    [-200, 'usd', '-$2.00'],
    [0, 'eur', '€0.00'],
    [500, 'jpy', '¥500'],
    [1000, 'kwd', 'KWD 1.000'],
    [42, 'xyz', 'XYZ 0.42'],
  ])('%i %s → %s', (amount, currency, expected) => {
    expect(formatMoney(amount, currency).replace(/\u00a0/g, ' ')).toBe(expected);
  });
});

describe('escaping', () => {
  it.each([
    ['<b>"x" & \'y\'</b>', '&lt;b&gt;&quot;x&quot; &amp; &#39;y&#39;&lt;/b&gt;'],
    ['plain', 'plain'],
  ])('escapeHtml(%s)', (input, output) => expect(escapeHtml(input)).toBe(output));

  it('keeps a subject on one line (no header injection)', () => {
    expect(oneLine('Hi\r\nBcc: x@y')).toBe('Hi Bcc: x@y');
    const rendered = renderTemplate('order_receipt', { name: 'Evil\r\nBcc: a@b.c' }, receipt);
    expect(rendered.subject).not.toMatch(/[\r\n]/);
  });

  it('escapes every outside value in the HTML body, and keeps them plain in the text', () => {
    const { html, text } = renderTemplate('order_receipt', brand, receipt);
    expect(html).toContain('Acme &amp; &lt;Sons&gt;');
    expect(html).toContain('Ada &lt;script&gt;');
    expect(html).toContain('Pro &quot;plan&quot;');
    expect(html).toContain('href="https://billing.example.com/portal/acme/orders/o1?a=1&amp;b=2"');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<Sons>');
    expect(text).toContain('Hello Ada <script>,');
    expect(text).toContain('https://billing.example.com/portal/acme/orders/o1?a=1&b=2');
  });
});

describe('templates', () => {
  it.each(Object.keys(templates) as TemplateName[])('%s renders a branded subject, text and HTML', (name) => {
    const rendered = renderTemplate(name, brand, EXAMPLES[name] as never);
    expect(rendered.subject.length).toBeGreaterThan(5);
    expect(rendered.text).toContain('Acme & <Sons>');
    expect(rendered.html).toMatch(/^<!doctype html>/);
    expect(rendered.html).toContain('Acme &amp; &lt;Sons&gt;');
  });

  it.each<[TemplateName, string, string[]]>([
    [
      'order_receipt',
      'Your Acme & <Sons> receipt: Pro "plan"',
      [
        'Pro plan',
        '$12.00',
        'Setup',
        '$5.00',
        'Discount',
        '-$2.00',
        'Tax',
        '$3.00',
        'Total',
        '$18.00',
        'renews on March 5, 2026',
        'View your order and invoice: https://billing.example.com/portal/acme/orders/o1',
      ],
    ],
    [
      'subscription_renewal_receipt',
      'Your Acme & <Sons> subscription was renewed: Pro "plan"',
      ['$18.00', 'next renewal is on March 5, 2026'],
    ],
    [
      'payment_failed',
      'Your payment to Acme & <Sons> failed',
      [
        'Hello,',
        '€12.00',
        'Your card was declined.',
        'try again on February 1, 2026',
        'Update your payment method: https://billing.example.com/portal/acme/payment-methods',
      ],
    ],
    ['payment_recovered', 'Your payment to Acme & <Sons> went through', ['active again']],
    [
      'subscription_canceled',
      'Your Acme & <Sons> subscription was canceled: Pro',
      ['access until April 30, 2026', 'not be charged again'],
    ],
    [
      'subscription_ended',
      'Your Acme & <Sons> subscription has ended: Pro',
      ['ended on April 30, 2026', 'https://x.test/portal/acme'],
    ],
    [
      'trial_ending',
      'Your Acme & <Sons> trial ends on January 29, 2026',
      ['charged $12.00 for Pro', 'Cancel from the customer portal', 'https://x.test/portal/acme/subscriptions/s1'],
    ],
    ['refund_issued', 'Acme & <Sons> refunded $12.50', ['refund of $12.50 for Pro', 'including $2.50 of tax']],
    [
      'portal_sign_in_code',
      'Your sign-in code for Acme & <Sons>',
      ['K7M2QX', 'within 30 minutes', 'https://x.test/portal/acme'],
    ],
    [
      'webhook_endpoint_disabled',
      'Webhook endpoint disabled: https://hooks.example.com/in',
      ['HTTP 410 Gone', '"enabled": true'],
    ],
    ['order_dispute_created', 'A payment was disputed: order ACME-0001', ['$18.00', 'product not received']],
    [
      'organization_invite',
      'You are invited to join Acme & <Sons>',
      ['ada@example.com invited you', 'https://x.test/invite/polar_inv_abc', 'expires on May 7, 2026'],
    ],
  ])('%s says what happened', (name, subject, phrases) => {
    const rendered = renderTemplate(name, brand, EXAMPLES[name] as never);
    expect(rendered.subject).toBe(subject);
    for (const phrase of phrases) expect(rendered.text).toContain(phrase);
  });

  it('a card-less trial asks for a card, and says it ends otherwise', () => {
    const { text } = renderTemplate('trial_ending', brand, { ...EXAMPLES.trial_ending, hasPaymentMethod: false });
    expect(text).toContain('add a card before then; otherwise it ends with the trial');
    expect(text).toContain('https://x.test/portal/acme/payment-methods');
    expect(text).not.toContain('will then be charged');
  });

  it('a receipt without discount or tax shows neither line, and a one-time order no renewal', () => {
    const { text } = renderTemplate('order_receipt', brand, {
      ...receipt,
      discountAmount: 0,
      taxAmount: 0,
      nextRenewalAt: null,
    });
    expect(text).not.toContain('Discount');
    expect(text).not.toContain('Tax');
    expect(text).not.toContain('renews');
  });

  it('formats dates in UTC', () => {
    expect(formatDate(new Date('2026-01-31T23:30:00Z'))).toBe('January 31, 2026');
  });
});

describe('customer email settings', () => {
  it.each<[unknown, TemplateName, boolean]>([
    [{}, 'order_receipt', true],
    [null, 'order_receipt', true],
    [{ order_confirmation: false }, 'order_receipt', false],
    [{ order_confirmation: false }, 'subscription_renewal_receipt', true],
    [{ subscription_cycled: false }, 'subscription_renewal_receipt', false],
    [{ subscription_past_due: false }, 'payment_failed', false],
    [{ subscription_past_due: false }, 'payment_recovered', false],
    [{ subscription_cancellation: false }, 'subscription_canceled', false],
    [{ subscription_revoked: false }, 'subscription_ended', false],
    [{ order_refunded: false }, 'refund_issued', false],
    // Never turned off: the customer asked for it, or it is the seller's own notice.
    [{ order_confirmation: false, subscription_past_due: false }, 'portal_sign_in_code', true],
    [{ order_confirmation: false }, 'webhook_endpoint_disabled', true],
    // Anything but false is on.
    [{ order_confirmation: 'no' }, 'order_receipt', true],
  ])('%j: %s sent = %s', (stored, template, sent) => {
    expect(templateEnabled(template, stored)).toBe(sent);
  });

  it('fills in every key', () => {
    expect(customerEmailSettings({ order_refunded: false })).toEqual({
      order_confirmation: true,
      subscription_cycled: true,
      subscription_past_due: true,
      subscription_cancellation: true,
      subscription_revoked: true,
      order_refunded: false,
      // The reference's keys for emails Tessera does not send: kept, on by default.
      subscription_confirmation: true,
      subscription_cycled_after_trial: true,
      subscription_paused: true,
      subscription_resumed: true,
      subscription_renewal_reminder: true,
      subscription_trial_conversion_reminder: true,
      subscription_uncanceled: true,
      subscription_updated: true,
    });
  });
});

describe('retry schedule', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  it.each([
    [1, false, RETRY_DELAYS_SECONDS[0]!],
    [2, false, RETRY_DELAYS_SECONDS[1]!],
    [RETRY_DELAYS_SECONDS.length, false, RETRY_DELAYS_SECONDS.at(-1)!],
    [RETRY_DELAYS_SECONDS.length + 1, false, null],
    [1, true, null],
  ])('after %i failed attempts (permanent: %s) → %s s', (attempts, permanent, delay) => {
    const next = nextAttemptAt(attempts, now, permanent);
    expect(next === null ? null : (next.getTime() - now.getTime()) / 1000).toBe(delay);
  });
});
