/**
 * Email templates: each one a pure function from its data to a subject, a text body and an HTML body.
 * Every value from the outside (names, product labels, reasons) goes through `escapeHtml` in the HTML
 * body; the text body is plain text. Each email is branded with the organization's name (the seller
 * sends it; Tessera is not mentioned). Amounts are integers in minor units, formatted here only.
 */

export interface Brand {
  /** The organization's name, shown as the sender and in the header. */
  name: string;
}

export interface LineItem {
  label: string;
  amount: number;
}

export interface OrderReceiptData {
  customerName: string | null;
  productName: string;
  items: LineItem[];
  subtotalAmount: number;
  discountAmount: number;
  taxAmount: number;
  totalAmount: number;
  currency: string;
  /** Where the order (and its invoice, once generated) is in the customer portal. */
  orderUrl: string;
  /** Subscriptions: the end of the period paid for. */
  nextRenewalAt?: Date | null;
}

export interface PaymentFailedData {
  customerName: string | null;
  productName: string;
  amount: number;
  currency: string;
  declineMessage: string | null;
  nextAttemptAt: Date | null;
  /** The portal page where the card is changed. */
  updatePaymentUrl: string;
}

export interface PaymentRecoveredData {
  customerName: string | null;
  productName: string;
  subscriptionUrl: string;
}

export interface SubscriptionCanceledData {
  customerName: string | null;
  productName: string;
  /** When access ends (the end of the period paid for); null: it has ended already. */
  endsAt: Date | null;
  subscriptionUrl: string;
}

export interface SubscriptionEndedData {
  customerName: string | null;
  productName: string;
  endedAt: Date;
  /** Why it ended, said to the customer ("the payment could not be collected"); null: not said. */
  reason: string | null;
  portalUrl: string;
}

export interface TrialEndingData {
  customerName: string | null;
  productName: string;
  trialEnd: Date;
  /** What the first period costs (charged at the trial's end). */
  amount: number;
  currency: string;
  /** A card to charge is saved; false: the subscription ends with the trial unless one is added. */
  hasPaymentMethod: boolean;
  subscriptionUrl: string;
  paymentMethodsUrl: string;
}

export interface RefundIssuedData {
  customerName: string | null;
  productName: string | null;
  amount: number;
  taxAmount: number;
  currency: string;
  orderUrl: string;
}

export interface SignInCodeData {
  code: string;
  portalUrl: string;
  validMinutes: number;
}

export interface WebhookEndpointDisabledData {
  endpointId: string;
  url: string;
  why: string;
}

export interface DisputeCreatedData {
  orderId: string;
  invoiceNumber: string;
  amount: number;
  currency: string;
  reason: string;
}

export interface OrganizationInviteData {
  /** Who sent it (a member's email); null: sent with an organization access token. */
  inviterEmail: string | null;
  /** The single-use link of the accept-invitation page. */
  acceptUrl: string;
  expiresAt: Date;
}

/** Template name → its data. The name is stored on the outbox row (`emails.template`). */
export interface TemplateData {
  order_receipt: OrderReceiptData;
  subscription_renewal_receipt: OrderReceiptData;
  payment_failed: PaymentFailedData;
  payment_recovered: PaymentRecoveredData;
  subscription_canceled: SubscriptionCanceledData;
  subscription_ended: SubscriptionEndedData;
  trial_ending: TrialEndingData;
  refund_issued: RefundIssuedData;
  portal_sign_in_code: SignInCodeData;
  webhook_endpoint_disabled: WebhookEndpointDisabledData;
  order_dispute_created: DisputeCreatedData;
  organization_invite: OrganizationInviteData;
}

export type TemplateName = keyof TemplateData;

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

// ---- Formatting ----

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}

/** Header values never carry a line break (a name cannot add headers to the message). */
export function oneLine(value: string): string {
  return value.replace(/[\r\n\t]+/g, ' ').trim();
}

/**
 * An amount in minor units, formatted in its currency ("$12.00", "€1,234.50", "¥500"). The decimal
 * string is built from the integer, so no float ever touches the amount.
 */
/** One formatter per currency code (building one costs far more than formatting with it); null: unknown. */
const moneyFormats = new Map<string, { format: Intl.NumberFormat; digits: number } | null>();

function moneyFormat(code: string): { format: Intl.NumberFormat; digits: number } | null {
  let entry = moneyFormats.get(code);
  if (entry === undefined) {
    try {
      const format = new Intl.NumberFormat('en-US', { style: 'currency', currency: code });
      entry = { format, digits: format.resolvedOptions().maximumFractionDigits ?? 2 };
    } catch {
      entry = null;
    }
    // Bounded: currency codes are three letters, but a caller could pass anything.
    if (moneyFormats.size < 512) moneyFormats.set(code, entry);
  }
  return entry;
}

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

export function formatMoney(amount: number, currency: string): string {
  const code = currency.toUpperCase();
  const known = moneyFormat(code);
  if (!known) return `${amount} ${code} (minor units)`;
  const { format, digits } = known;
  const negative = amount < 0;
  const units = String(Math.abs(Math.trunc(amount))).padStart(digits + 1, '0');
  const decimal = digits === 0 ? units : `${units.slice(0, -digits)}.${units.slice(-digits)}`;
  return format.format(`${negative ? '-' : ''}${decimal}` as unknown as number);
}

/** "March 5, 2026" (UTC: the date the customer's period ends, as the portal shows it). */
export function formatDate(date: Date): string {
  return dateFormat.format(date);
}

function greeting(name: string | null): string {
  return name && name.trim() !== '' ? `Hello ${name.trim()},` : 'Hello,';
}

// ---- Building blocks (text and HTML side by side) ----

type Block =
  | { kind: 'p'; text: string }
  | { kind: 'button'; label: string; url: string }
  | { kind: 'code'; code: string }
  | { kind: 'table'; rows: { label: string; value: string; strong?: boolean }[] };

const p = (text: string): Block => ({ kind: 'p', text });
const button = (label: string, url: string): Block => ({ kind: 'button', label, url });

function textOf(block: Block): string {
  switch (block.kind) {
    case 'p':
      return block.text;
    case 'button':
      return `${block.label}: ${block.url}`;
    case 'code':
      return `    ${block.code}`;
    case 'table': {
      const width = Math.max(...block.rows.map((row) => row.label.length));
      return block.rows.map((row) => `${row.label.padEnd(width)}  ${row.value}`).join('\n');
    }
  }
}

function htmlOf(block: Block): string {
  switch (block.kind) {
    case 'p':
      return `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(block.text)}</p>`;
    case 'button':
      return (
        `<p style="margin:0 0 16px"><a href="${escapeHtml(block.url)}" style="display:inline-block;` +
        `background:#0f172a;color:#ffffff;padding:10px 18px;border-radius:6px;text-decoration:none;font-weight:600">` +
        `${escapeHtml(block.label)}</a></p>`
      );
    case 'code':
      return (
        `<p style="margin:0 0 16px;font-family:monospace;font-size:28px;letter-spacing:6px;font-weight:700">` +
        `${escapeHtml(block.code)}</p>`
      );
    case 'table':
      return (
        '<table role="presentation" style="border-collapse:collapse;width:100%;margin:0 0 16px">' +
        block.rows
          .map((row) => {
            const weight = row.strong ? 'font-weight:700;' : '';
            return (
              `<tr><td style="padding:6px 0;border-bottom:1px solid #e2e8f0;${weight}">${escapeHtml(row.label)}</td>` +
              `<td style="padding:6px 0;border-bottom:1px solid #e2e8f0;text-align:right;${weight}">` +
              `${escapeHtml(row.value)}</td></tr>`
            );
          })
          .join('') +
        '</table>'
      );
  }
}

function layout(brand: Brand, subject: string, blocks: Block[], footer: string): RenderedEmail {
  const text = [...blocks.map(textOf), '--', `${brand.name}`, footer].join('\n\n');
  const html =
    '<!doctype html><html><head><meta charset="utf-8">' +
    `<meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>` +
    '<body style="margin:0;padding:24px;background:#f8fafc;font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;color:#0f172a">' +
    '<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #e2e8f0;border-radius:8px;padding:32px">' +
    `<p style="margin:0 0 24px;font-size:18px;font-weight:700">${escapeHtml(brand.name)}</p>` +
    blocks.map(htmlOf).join('') +
    `<p style="margin:24px 0 0;font-size:12px;color:#64748b">${escapeHtml(footer)}</p>` +
    '</div></body></html>';
  return { subject: oneLine(subject), text, html };
}

const CUSTOMER_FOOTER = (brand: Brand) => `You receive this email because you are a customer of ${brand.name}.`;
const SELLER_FOOTER = 'You receive this email because you are a member of this organization.';

function orderRows(data: OrderReceiptData) {
  const rows: { label: string; value: string; strong?: boolean }[] = data.items.map((item) => ({
    label: item.label,
    value: formatMoney(item.amount, data.currency),
  }));
  if (data.discountAmount > 0)
    rows.push({ label: 'Discount', value: formatMoney(-data.discountAmount, data.currency) });
  if (data.taxAmount > 0) rows.push({ label: 'Tax', value: formatMoney(data.taxAmount, data.currency) });
  rows.push({ label: 'Total', value: formatMoney(data.totalAmount, data.currency), strong: true });
  return rows;
}

// ---- The templates ----

export const templates: { [K in TemplateName]: (brand: Brand, data: TemplateData[K]) => RenderedEmail } = {
  order_receipt(brand, data) {
    return layout(
      brand,
      `Your ${brand.name} receipt: ${data.productName}`,
      [
        p(greeting(data.customerName)),
        p(`Thank you for your purchase of ${data.productName}. Here is your receipt.`),
        { kind: 'table', rows: orderRows(data) },
        ...(data.nextRenewalAt ? [p(`Your subscription renews on ${formatDate(data.nextRenewalAt)}.`)] : []),
        button('View your order and invoice', data.orderUrl),
      ],
      CUSTOMER_FOOTER(brand),
    );
  },

  subscription_renewal_receipt(brand, data) {
    return layout(
      brand,
      `Your ${brand.name} subscription was renewed: ${data.productName}`,
      [
        p(greeting(data.customerName)),
        p(`Your subscription to ${data.productName} was renewed and paid. Here is your receipt.`),
        { kind: 'table', rows: orderRows(data) },
        ...(data.nextRenewalAt ? [p(`The next renewal is on ${formatDate(data.nextRenewalAt)}.`)] : []),
        button('View your order and invoice', data.orderUrl),
      ],
      CUSTOMER_FOOTER(brand),
    );
  },

  payment_failed(brand, data) {
    const retry = data.nextAttemptAt
      ? `We will try again on ${formatDate(data.nextAttemptAt)}. To avoid an interruption, update your card before then.`
      : 'Please update your card to keep your subscription.';
    return layout(
      brand,
      `Your payment to ${brand.name} failed`,
      [
        p(greeting(data.customerName)),
        p(
          `We could not collect ${formatMoney(data.amount, data.currency)} for your subscription to ${data.productName}` +
            (data.declineMessage ? ` (${data.declineMessage})` : '') +
            '.',
        ),
        p(retry),
        button('Update your payment method', data.updatePaymentUrl),
      ],
      CUSTOMER_FOOTER(brand),
    );
  },

  payment_recovered(brand, data) {
    return layout(
      brand,
      `Your payment to ${brand.name} went through`,
      [
        p(greeting(data.customerName)),
        p(`Thank you: the payment for ${data.productName} went through and your subscription is active again.`),
        button('View your subscription', data.subscriptionUrl),
      ],
      CUSTOMER_FOOTER(brand),
    );
  },

  trial_ending(brand, data) {
    const then = `${formatMoney(data.amount, data.currency)} for ${data.productName}`;
    return layout(
      brand,
      `Your ${brand.name} trial ends on ${formatDate(data.trialEnd)}`,
      [
        p(greeting(data.customerName)),
        data.hasPaymentMethod
          ? p(`Your free trial ends on ${formatDate(data.trialEnd)}. Your card will then be charged ${then}.`)
          : p(
              `Your free trial ends on ${formatDate(data.trialEnd)}. To keep your subscription (${then}), add a card before then; otherwise it ends with the trial.`,
            ),
        p('Not for you? Cancel from the customer portal before the trial ends and you will not be charged.'),
        data.hasPaymentMethod
          ? button('Manage your subscription', data.subscriptionUrl)
          : button('Add a card', data.paymentMethodsUrl),
      ],
      CUSTOMER_FOOTER(brand),
    );
  },

  subscription_canceled(brand, data) {
    const access = data.endsAt
      ? `You keep access until ${formatDate(data.endsAt)}; you will not be charged again.`
      : 'You will not be charged again.';
    return layout(
      brand,
      `Your ${brand.name} subscription was canceled: ${data.productName}`,
      [
        p(greeting(data.customerName)),
        p(`Your subscription to ${data.productName} was canceled. ${access}`),
        p('Changed your mind? You can resume it from the customer portal before it ends.'),
        button('Manage your subscription', data.subscriptionUrl),
      ],
      CUSTOMER_FOOTER(brand),
    );
  },

  subscription_ended(brand, data) {
    return layout(
      brand,
      `Your ${brand.name} subscription has ended: ${data.productName}`,
      [
        p(greeting(data.customerName)),
        p(
          `Your subscription to ${data.productName} ended on ${formatDate(data.endedAt)}` +
            (data.reason ? ` because ${data.reason}` : '') +
            '. Its benefits are no longer available.',
        ),
        button('Open the customer portal', data.portalUrl),
      ],
      CUSTOMER_FOOTER(brand),
    );
  },

  refund_issued(brand, data) {
    const what = data.productName ? ` for ${data.productName}` : '';
    return layout(
      brand,
      `${brand.name} refunded ${formatMoney(data.amount + data.taxAmount, data.currency)}`,
      [
        p(greeting(data.customerName)),
        p(
          `${brand.name} issued a refund of ${formatMoney(data.amount + data.taxAmount, data.currency)}${what}` +
            (data.taxAmount > 0 ? ` (including ${formatMoney(data.taxAmount, data.currency)} of tax)` : '') +
            '. It goes back to the payment method you used; banks usually take 5 to 10 business days to show it.',
        ),
        button('View your order', data.orderUrl),
      ],
      CUSTOMER_FOOTER(brand),
    );
  },

  portal_sign_in_code(brand, data) {
    return layout(
      brand,
      `Your sign-in code for ${brand.name}`,
      [
        p(`Your code to sign in to the customer portal of ${brand.name} is:`),
        { kind: 'code', code: data.code },
        p(`Enter it at ${data.portalUrl} within ${data.validMinutes} minutes. It works once.`),
        p('If you did not ask for it, you can ignore this email.'),
      ],
      CUSTOMER_FOOTER(brand),
    );
  },

  webhook_endpoint_disabled(brand, data) {
    return layout(
      brand,
      `Webhook endpoint disabled: ${data.url}`,
      [
        p(`Your webhook endpoint ${data.url} (${data.endpointId}) has been disabled because ${data.why}.`),
        p(
          'Events already queued for it are kept; new events are not sent to it while it is disabled. Once the ' +
            `receiver works again, re-enable it (PATCH /v1/webhooks/endpoints/${data.endpointId} with {"enabled": true}) ` +
            'and the queued events are delivered in order. The delivery log (GET /v1/webhooks/deliveries) shows ' +
            'each attempt and its response.',
        ),
      ],
      SELLER_FOOTER,
    );
  },

  order_dispute_created(brand, data) {
    return layout(
      brand,
      `A payment was disputed: order ${data.invoiceNumber}`,
      [
        p(
          `The customer's bank disputed the payment of order ${data.invoiceNumber} (${data.orderId}): ` +
            `${formatMoney(data.amount, data.currency)}, reason: ${data.reason.replaceAll('_', ' ')}.`,
        ),
        p(
          'Answer the dispute with your evidence in the Stripe dashboard before its deadline; until it is ' +
            'settled, the disputed amount is withheld from your balance.',
        ),
      ],
      SELLER_FOOTER,
    );
  },

  organization_invite(brand, data) {
    const who = data.inviterEmail ?? `A member of ${brand.name}`;
    return layout(
      brand,
      `You are invited to join ${brand.name}`,
      [
        p(`${who} invited you to join ${brand.name} and manage its products, customers and sales with them.`),
        button('Accept the invitation', data.acceptUrl),
        p(`The link works once and expires on ${formatDate(data.expiresAt)}.`),
      ],
      'You receive this email because a member of this organization invited this address. If you did not ' +
        'expect it, ignore it: nothing happens unless the link is used.',
    );
  },
};

export function renderTemplate<K extends TemplateName>(name: K, brand: Brand, data: TemplateData[K]): RenderedEmail {
  return templates[name](brand, data);
}
