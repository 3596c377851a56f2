import type { Audience } from '../../lib/audience';
import { describeStatus, type SubscriptionState } from '../../lib/subscription-status';
import { Badge } from '../ui/badge';

export function SubscriptionStatusBadge({
  subscription,
  audience,
}: {
  subscription: SubscriptionState;
  audience: Audience;
}) {
  const status = describeStatus(subscription, audience);
  return <Badge tone={status.tone}>{status.label}</Badge>;
}
