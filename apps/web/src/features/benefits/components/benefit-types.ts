import type { Benefit, BenefitType } from '@tessera/sdk';

/** Words for each type; the Record makes a type added to the API a type error here until described. */
export const BENEFIT_TYPES: Record<BenefitType, { label: string; description: string }> = {
  custom: { label: 'Custom', description: 'A note shown to the customer after purchase.' },
  license_keys: { label: 'License keys', description: 'A unique key per customer, with optional limits.' },
  github_repository: {
    label: 'GitHub repository',
    description: 'An invitation to a private GitHub repository.',
  },
  discord: { label: 'Discord', description: 'A role on your Discord server.' },
  downloadables: { label: 'Downloadables', description: 'Files the customer can download.' },
  meter_credit: { label: 'Meter credit', description: 'Units credited to a usage meter every period.' },
};

export const BENEFIT_TYPE_OPTIONS = (Object.keys(BENEFIT_TYPES) as BenefitType[]).map((type) => ({
  value: type,
  label: BENEFIT_TYPES[type].label,
}));

export function benefitTypeLabel(type: string): string {
  return BENEFIT_TYPES[type as BenefitType]?.label ?? type;
}

const TIMEFRAME_WORDS = { day: ['day', 'days'], month: ['month', 'months'], year: ['year', 'years'] } as const;

function plural(count: number, [one, many]: readonly [string, string]): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** A benefit's settings in one line, e.g. "Prefix ACME · expires after 1 year · 3 activations". */
export function describeBenefitProperties(benefit: Benefit): string {
  switch (benefit.type) {
    case 'custom':
      return benefit.properties.note ? 'Note shown to customers' : 'No note';
    case 'license_keys': {
      const { prefix, expires, activations, limit_usage: usage } = benefit.properties;
      const parts = [
        prefix ? `Prefix ${prefix}` : 'No prefix',
        expires ? `expires after ${plural(expires.ttl, TIMEFRAME_WORDS[expires.timeframe])}` : 'never expires',
      ];
      if (activations) {
        parts.push(plural(activations.limit, ['activation', 'activations']));
        if (activations.enable_customer_admin) parts.push('customers manage activations');
      }
      if (usage) parts.push(`usage limit ${usage}`);
      return parts.join(' · ');
    }
    case 'github_repository':
      return `${benefit.properties.repository_owner}/${benefit.properties.repository_name} (${benefit.properties.permission})`;
    case 'discord':
      return `Server ${benefit.properties.guild_id}, role ${benefit.properties.role_id}`;
    case 'downloadables': {
      const { files, archived } = benefit.properties;
      const active = files.filter((id) => !archived[id]).length;
      return `${plural(files.length, ['file', 'files'])}${active < files.length ? `, ${active} offered` : ''}`;
    }
    case 'meter_credit':
      return `${plural(benefit.properties.units, ['unit', 'units'])} per period${benefit.properties.rollover ? ', unused units roll over' : ''}`;
    default:
      return '';
  }
}
