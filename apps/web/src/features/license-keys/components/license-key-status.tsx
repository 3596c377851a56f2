import type { LicenseKeyStatus } from '@tessera/sdk';
import { Badge } from '../../../components/ui/badge';

/** Every status the API knows; the Record makes a new status a type error here until it has words. */
export const LICENSE_KEY_STATUSES: Record<
  LicenseKeyStatus,
  { label: string; description: string; tone: 'success' | 'warning' | 'danger' }
> = {
  granted: { label: 'Granted', description: 'Validates and activates normally.', tone: 'success' },
  disabled: {
    label: 'Disabled',
    description: 'Validation fails until the key is granted again; the customer keeps it.',
    tone: 'warning',
  },
  revoked: {
    label: 'Revoked',
    description: 'The key is withdrawn: it is no longer found when validated.',
    tone: 'danger',
  },
};

export const LICENSE_KEY_STATUS_OPTIONS = (Object.keys(LICENSE_KEY_STATUSES) as LicenseKeyStatus[]).map((status) => ({
  value: status,
  label: LICENSE_KEY_STATUSES[status].label,
}));

export function LicenseKeyStatusBadge({ status }: { status: LicenseKeyStatus }) {
  const { label, tone } = LICENSE_KEY_STATUSES[status];
  return <Badge tone={tone}>{label}</Badge>;
}

/** "3 of 10", or "3 (no limit)" when the key is not limited. */
export function formatUsage(used: number, limit: number | null): string {
  return limit === null ? `${used} (no limit)` : `${used} of ${limit}`;
}
