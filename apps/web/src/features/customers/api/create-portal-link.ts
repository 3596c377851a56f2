import { useMutation } from '@tanstack/react-query';
import { customerSessionsCreate } from '@tessera/sdk';
import { client } from '../../../lib/api-client';

/**
 * A fresh customer portal link for the customer (`POST /v1/customer-sessions/`): a session of an hour,
 * its token in the link. Each call opens a new session; the link is shown once and never cached.
 */
export function useCreatePortalLink() {
  return useMutation({
    mutationFn: async (customerId: string) => {
      const session = await customerSessionsCreate(client, { body: { customer_id: customerId } });
      return { url: session.customer_portal_url, expiresAt: session.expires_at };
    },
  });
}
