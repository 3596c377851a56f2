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
