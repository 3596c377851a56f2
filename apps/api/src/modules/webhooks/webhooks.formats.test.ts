import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './webhooks.event-types.js';
import { formatAmount, postsToChat, renderBody, renderDiscord, renderSlack, summarize } from './webhooks.formats.js';

const customer = { id: 'c1', email: 'ada@example.com', name: 'Ada' };
const product = { id: 'p1', name: 'Pro Plan', is_recurring: true };
const SAMPLES: Record<string, unknown> = {
  checkout: {
    id: 'k1',
    status: 'open',
    total_amount: 1999,
    currency: 'usd',
    customer_email: 'ada@example.com',
    product,
  },
  customer,
  'customer.state_changed': { ...customer, active_subscriptions: [{}], granted_benefits: [{}, {}] },
  order: { id: 'o1', status: 'paid', total_amount: 123456, currency: 'eur', customer, product, subscription_id: 's1' },
  'order.refunded': {
    id: 'o1',
    status: 'refunded',
    total_amount: 5000,
    refunded_amount: 2500,
    currency: 'usd',
    customer,
    product,
  },
  subscription: {
    id: 's1',
    status: 'active',
    amount: 900,
    currency: 'usd',
    recurring_interval: 'month',
    customer,
    product,
  },
  refund: { id: 'r1', amount: 250, currency: 'jpy', status: 'succeeded', reason: 'customer_request' },
  product,
  benefit: { id: 'b1', type: 'custom', description: 'Private Discord' },
  benefit_grant: { id: 'g1', is_granted: true, customer, benefit: { description: 'Private Discord' } },
  organization: { id: 'org1', name: 'Acme', slug: 'acme' },
};

function sample(type: WebhookEventType): unknown {
  return SAMPLES[type] ?? SAMPLES[type.split('.')[0]!];
}

/** The facts each family's message must show (beyond the title, object id and organization). */
const EXPECTED: Record<string, string[]> = {
  checkout: ['Pro Plan', '$19.99', 'ada@example.com', 'open'],
  customer: ['ada@example.com'],
  order: ['Pro Plan', '€1,234.56', 'ada@example.com', 'paid', 'Subscription'],
  'order.refunded': ['Pro Plan', '$50.00', '$25.00', 'refunded'],
  'customer.state_changed': ['ada@example.com', 'Active subscriptions'],
  subscription: ['Pro Plan', '$9.00', 'ada@example.com', 'active'],
  refund: ['¥250', 'succeeded'],
  product: ['Pro Plan'],
  benefit: ['Private Discord'],
  benefit_grant: ['Private Discord', 'ada@example.com'],
  organization: ['Acme'],
};

const input = (type: WebhookEventType) => ({
  type,
  data: sample(type),
  organizationName: 'Acme Inc',
  timestamp: '2026-01-15T12:00:00.000Z',
});

describe('formatAmount', () => {
  it.each([
    [123456, 'usd', '$1,234.56'],
    [5, 'usd', '$0.05'],
    [0, 'eur', '€0.00'],
    [-1999, 'usd', '-$19.99'],
    [250, 'jpy', '¥250'],
    [9007199254740991, 'usd', '$90,071,992,547,409.91'],
    [100, 'zzz', 'ZZZ\u00a01.00'],
    [100, 'us', '100 US (minor units)'],
  ])('%i %s → %s', (amount, currency, text) => {
    expect(formatAmount(amount, currency)).toBe(text);
  });
});

describe.each(WEBHOOK_EVENT_TYPES.map((type) => [type]))('%s', (type) => {
  const family = type.split('.')[0]!;

  it('summarizes the event, the organization and the key facts', () => {
    const summary = summarize(input(type));
    expect(summary.title.length).toBeGreaterThan(0);
    const text = JSON.stringify(summary);
    for (const fact of [...(EXPECTED[type] ?? EXPECTED[family]!), 'Acme Inc']) expect(text).toContain(fact);
    expect(summary.fields.find((f) => f.name === 'Organization')?.value).toBe('Acme Inc');
  });

  it('renders a Discord embed', () => {
    const body = renderDiscord(input(type)) as { content: string; embeds: Record<string, unknown>[] };
    expect(body.content).toContain('Acme Inc');
    expect(body.embeds).toHaveLength(1);
    expect(body.embeds[0]).toMatchObject({ title: summarize(input(type)).title, timestamp: input(type).timestamp });
    expect(typeof body.embeds[0]!.color).toBe('number');
    expect((body.embeds[0]!.fields as unknown[]).length).toBeGreaterThan(0);
  });

  it('renders Slack blocks', () => {
    const body = renderSlack(input(type)) as { text: string; blocks: { type: string; fields?: unknown[] }[] };
    expect(body.text).toContain('Acme Inc');
    expect(body.blocks.map((b) => b.type)).toEqual(['header', 'section', 'context']);
    expect(body.blocks[1]!.fields!.length).toBeGreaterThan(0);
    expect(body.blocks[1]!.fields!.length).toBeLessThanOrEqual(10);
  });

  it('sends raw bodies byte for byte', () => {
    const raw = '{"type":"x","data":{"b":1,"a":2}}';
    expect(renderBody('raw', raw, input(type))).toBe(raw);
    if (type !== 'subscription.updated')
      expect(JSON.parse(renderBody('slack', raw, input(type))!)).toHaveProperty('blocks');
  });
});

describe('routine subscription updates are not posted to chat', () => {
  it.each([
    [{ status: 'active' }, false],
    [{ status: 'past_due' }, true],
    [{ status: 'canceled' }, true],
    [{ status: 'active', ends_at: '2026-02-01T00:00:00Z' }, true],
  ])('%j → %s', (data, posted) => {
    expect(postsToChat('subscription.updated', data)).toBe(posted);
    expect(renderBody('discord', '{}', { ...input('subscription.updated'), data }) !== undefined).toBe(posted);
  });
  it('posts every other type', () => {
    expect(postsToChat('subscription.canceled', { status: 'active' })).toBe(true);
  });
});

it('escapes Slack control characters', () => {
  const body = renderSlack({ ...input('customer.created'), data: { email: '<a&b>@x.com' } });
  expect(JSON.stringify(body)).toContain('&lt;a&amp;b&gt;@x.com');
});
