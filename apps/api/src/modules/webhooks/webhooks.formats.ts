import type { WebhookEventType } from './webhooks.event-types.js';

/**
 * Discord and Slack renderings of webhook events: a readable message naming the event, the
 * organization and the key facts of the resource. Pure functions of the serialized event data.
 */
export type WebhookFormat = 'raw' | 'discord' | 'slack';

export interface EventSummary {
  title: string;
  description: string;
  fields: { name: string; value: string }[];
}

export interface RenderInput {
  type: WebhookEventType;
  data: unknown;
  organizationName: string;
  /** When the event happened (ISO 8601). */
  timestamp: string;
}

const TITLES: Record<WebhookEventType, string> = {
  'checkout.created': 'New Checkout',
  'checkout.updated': 'Checkout Updated',
  'customer.created': 'New Customer',
  'customer.updated': 'Customer Updated',
  'customer.deleted': 'Customer Deleted',
  'customer.state_changed': 'Customer State Changed',
  'order.created': 'New Order',
  'order.updated': 'Order Updated',
  'order.paid': 'Order Paid',
  'order.refunded': 'Order Refunded',
  'subscription.created': 'New Subscription',
  'subscription.updated': 'Subscription Updated',
  'subscription.active': 'Active Subscription',
  'subscription.canceled': 'Canceled Subscription',
  'subscription.uncanceled': 'Uncanceled Subscription',
  'subscription.revoked': 'Revoked Subscription',
  'refund.created': 'New Refund',
  'refund.updated': 'Refund Updated',
  'product.created': 'New Product',
  'product.updated': 'Product Updated',
  'benefit.created': 'New Benefit',
  'benefit.updated': 'Benefit Updated',
  'benefit_grant.created': 'Benefit Granted',
  'benefit_grant.cycled': 'Benefit Grant Cycled',
  'benefit_grant.updated': 'Benefit Grant Updated',
  'benefit_grant.revoked': 'Benefit Revoked',
  'organization.updated': 'Organization Updated',
  'organization.member_removed': 'Member Removed',
  'checkout.expired': 'Checkout Expired',
  'subscription.past_due': 'Past Due Subscription',
  'subscription.cycled': 'Subscription Renewed',
  'discount.created': 'New Discount',
  'discount.updated': 'Discount Updated',
  'discount.deleted': 'Discount Deleted',
};

/** Brand color (Discord embeds take an integer RGB). */
const COLOR = 0x3b5bdb;

type Obj = Record<string, unknown>;
const obj = (value: unknown): Obj => (value && typeof value === 'object' ? (value as Obj) : {});
const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;
const int = (value: unknown): number | undefined => (Number.isSafeInteger(value) ? (value as number) : undefined);

/**
 * An amount in minor units as text, exactly (no floating point): `formatAmount(123456, 'usd')` is
 * "$1,234.56"; zero-decimal currencies such as JPY have no fraction.
 */
export function formatAmount(amount: number, currency: string): string {
  const code = currency.toUpperCase();
  let format: Intl.NumberFormat;
  try {
    format = new Intl.NumberFormat('en-US', { style: 'currency', currency: code });
  } catch {
    return `${amount} ${code} (minor units)`;
  }
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  const negative = amount < 0;
  const text = String(Math.abs(amount)).padStart(digits + 1, '0');
  const decimal = digits > 0 ? `${text.slice(0, -digits)}.${text.slice(-digits)}` : text;
  // Intl formats a decimal string exactly (no conversion to a float).
  return format.format(`${negative ? '-' : ''}${decimal}` as unknown as number);
}

function money(data: Obj, amountKey: string): string | undefined {
  const amount = int(data[amountKey]);
  const currency = str(data.currency) ?? str(data.price_currency);
  return amount !== undefined && currency ? formatAmount(amount, currency) : undefined;
}

function customerEmail(data: Obj): string | undefined {
  return str(obj(data.customer).email) ?? str(data.customer_email) ?? str(data.email);
}

function productName(data: Obj): string | undefined {
  return str(obj(data.product).name);
}

/** The title, description and fields of an event, whatever the chat format. */
export function summarize(input: RenderInput): EventSummary {
  const data = obj(input.data);
  const fields: { name: string; value: string }[] = [];
  const add = (name: string, value: string | undefined) => {
    if (value !== undefined) fields.push({ name, value });
  };
  const family = input.type.split('.')[0];
  let description = `${input.type} in ${input.organizationName}`;
  switch (family) {
    case 'checkout':
      add('Product', productName(data));
      add('Amount', money(data, 'total_amount') ?? money(data, 'amount'));
      add('Customer', customerEmail(data));
      add('Status', str(data.status));
      break;
    case 'customer':
      add('Customer', customerEmail(data));
      add('Name', str(data.name));
      if (input.type === 'customer.state_changed') {
        const subscriptions = Array.isArray(data.active_subscriptions) ? data.active_subscriptions.length : 0;
        const benefits = Array.isArray(data.granted_benefits) ? data.granted_benefits.length : 0;
        add('Active subscriptions', String(subscriptions));
        add('Granted benefits', String(benefits));
      }
      break;
    case 'order':
      add('Product', productName(data));
      add('Amount', money(data, 'total_amount') ?? money(data, 'amount'));
      add('Customer', customerEmail(data));
      add('Status', str(data.status));
      if (input.type === 'order.refunded') add('Refunded', money(data, 'refunded_amount'));
      if (data.subscription_id) add('Subscription', 'Yes');
      break;
    case 'subscription':
      add('Product', productName(data));
      add('Amount', money(data, 'amount'));
      add('Interval', str(data.recurring_interval));
      add('Customer', customerEmail(data));
      add('Status', str(data.status));
      add('Ends At', str(data.ends_at));
      if (input.type === 'subscription.uncanceled') description = 'Subscription has been restored.';
      break;
    case 'refund':
      add('Amount', money(data, 'amount'));
      add('Status', str(data.status));
      add('Reason', str(data.reason));
      break;
    case 'product':
      add('Product', str(data.name));
      add('Recurring', data.is_recurring === true ? 'Yes' : data.is_recurring === false ? 'No' : undefined);
      break;
    case 'discount':
      add('Discount', str(data.name));
      add('Code', str(data.code));
      add('Type', str(data.type));
      break;
    case 'benefit':
      add('Benefit', str(data.description));
      add('Type', str(data.type));
      break;
    case 'benefit_grant':
      add('Benefit', str(obj(data.benefit).description));
      add('Customer', customerEmail(data));
      add('Granted', data.is_granted === true ? 'Yes' : data.is_granted === false ? 'No' : undefined);
      break;
    case 'organization':
      add('Name', str(data.name));
      add('Slug', str(data.slug));
      if (input.type === 'organization.member_removed') {
        add('Member', str(data.email));
        add('Reason', str(data.reason));
      }
      break;
  }
  add('Object', str(data.id));
  add('Organization', input.organizationName);
  return { title: TITLES[input.type], description, fields };
}

/**
 * Whether a chat endpoint gets this event at all. As the reference does, renewals and other routine
 * subscription updates are not posted to chat; cancellations, revocations and dunning states are.
 */
export function postsToChat(type: WebhookEventType, data: unknown): boolean {
  if (type !== 'subscription.updated') return true;
  const subscription = obj(data);
  return (
    ['past_due', 'canceled', 'unpaid'].includes(String(subscription.status)) ||
    Boolean(subscription.ends_at) ||
    Boolean(subscription.ended_at)
  );
}

export function renderDiscord(input: RenderInput): object {
  const summary = summarize(input);
  return {
    content: `${summary.title} (${input.organizationName})`,
    embeds: [
      {
        title: summary.title,
        description: summary.description,
        color: COLOR,
        timestamp: input.timestamp,
        fields: summary.fields.map((field) => ({ name: field.name, value: field.value, inline: true })),
        footer: { text: `Tessera · ${input.type}` },
      },
    ],
  };
}

const escapeSlack = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function renderSlack(input: RenderInput): object {
  const summary = summarize(input);
  return {
    text: `${summary.title} (${input.organizationName})`,
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: summary.title } },
      {
        type: 'section',
        text: { type: 'mrkdwn', text: escapeSlack(summary.description) },
        // Slack allows at most 10 fields per section.
        fields: summary.fields
          .slice(0, 10)
          .map((field) => ({ type: 'mrkdwn', text: `*${escapeSlack(field.name)}*\n${escapeSlack(field.value)}` })),
      },
      { type: 'context', elements: [{ type: 'mrkdwn', text: `Tessera · ${input.type} · ${input.timestamp}` }] },
    ],
  };
}

/**
 * The body sent to an endpoint of this format, or undefined when the event is not posted there.
 * Raw endpoints get the stored event JSON byte for byte.
 */
export function renderBody(format: WebhookFormat, rawBody: string, input: RenderInput): string | undefined {
  if (format === 'raw') return rawBody;
  if (!postsToChat(input.type, input.data)) return undefined;
  return JSON.stringify(format === 'discord' ? renderDiscord(input) : renderSlack(input));
}
