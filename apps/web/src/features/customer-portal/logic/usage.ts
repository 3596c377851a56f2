/** How a customer meter reads in the portal: consumption against the credits of the period. */
export interface UsageGauge {
  /** Share of the credits used, 0–100 (100 once they are all used); null without credits. */
  usedPercent: number | null;
  /** Units beyond the credits, billed at the meter's price; 0 when within them. */
  overage: number;
  /** One sentence that says it all, for everyone (the drawing is hidden from screen readers). */
  summary: string;
}

export function usageGauge(
  meter: { consumed_units: number; credited_units: number; balance: number },
  formatUnits: (units: number) => string,
): UsageGauge {
  const { consumed_units: consumed, credited_units: credited } = meter;
  const overage = Math.max(0, consumed - credited);
  if (credited <= 0) return { usedPercent: null, overage, summary: `${formatUnits(consumed)} units used this period.` };
  const usedPercent = Math.min(100, Math.round((consumed / credited) * 100));
  const summary =
    overage > 0
      ? `${formatUnits(consumed)} units used this period: all ${formatUnits(credited)} included units, and ${formatUnits(overage)} more.`
      : `${formatUnits(consumed)} of ${formatUnits(credited)} included units used this period (${usedPercent}%); ${formatUnits(meter.balance)} left.`;
  return { usedPercent, overage, summary };
}

/** What a meter's usage adds to the next renewal of a subscription billing it. */
export interface UsageCharge {
  /** Minor units of `currency`, as computed so far this period. */
  amount: number;
  currency: string;
  /** When it is billed: the end of the subscription's current period. */
  billedAt: string | null;
}

interface SubscriptionWithMeters {
  currency: string;
  current_period_end: string | null;
  meters: readonly { meter_id: string; amount: number }[];
}

/**
 * The usage charges of the period per meter, from the customer's live subscriptions (a meter billed by
 * two subscriptions in one currency adds up; the earliest renewal is when the first part is billed).
 */
export function usageChargesByMeter(subscriptions: readonly SubscriptionWithMeters[]): Map<string, UsageCharge> {
  const charges = new Map<string, UsageCharge>();
  for (const subscription of subscriptions) {
    for (const meter of subscription.meters) {
      const known = charges.get(meter.meter_id);
      if (known && known.currency !== subscription.currency) continue;
      const billedAt =
        known?.billedAt && subscription.current_period_end
          ? [known.billedAt, subscription.current_period_end].sort()[0]!
          : (known?.billedAt ?? subscription.current_period_end);
      charges.set(meter.meter_id, {
        amount: (known?.amount ?? 0) + meter.amount,
        currency: subscription.currency,
        billedAt,
      });
    }
  }
  return charges;
}
