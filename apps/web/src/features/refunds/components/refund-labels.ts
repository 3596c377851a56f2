import type { RefundStatus } from '@tessera/sdk';
import type { BadgeTone } from '../../../components/ui/badge';

export const REFUND_STATUS: Record<RefundStatus, { label: string; tone: BadgeTone }> = {
  pending: { label: 'Pending', tone: 'warning' },
  succeeded: { label: 'Succeeded', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
  canceled: { label: 'Canceled', tone: 'neutral' },
};
