import type { CustomerOrganization } from '@tessera/sdk';
import type { PortalClient } from '../api/portal-client';
import { createContext, useContext, type ReactNode } from 'react';

/** What every portal page needs: the organization (its slug keys the cache) and the client. */
export interface PortalSession {
  slug: string;
  /** The seller and the products it offers (plan changes pick among them). */
  storefront: CustomerOrganization;
  /** The SDK client carrying the customer session token. */
  client: PortalClient;
  /** Prefix of every query of this session, so another session (a new link) never sees its answers. */
  queryKey: readonly unknown[];
  signOut(): void;
}

const PortalSessionContext = createContext<PortalSession | null>(null);

export function PortalSessionProvider({ session, children }: { session: PortalSession; children: ReactNode }) {
  return <PortalSessionContext.Provider value={session}>{children}</PortalSessionContext.Provider>;
}

export function usePortalSession(): PortalSession {
  const session = useContext(PortalSessionContext);
  if (!session) throw new Error('usePortalSession is used outside the customer portal layout.');
  return session;
}

/** The cache of one organization's portal: dropped as a whole when the customer signs out. */
export function portalQueryKey(slug: string) {
  return ['customer-portal', slug] as const;
}

const sessionNumbers = new Map<string, number>();

/** A number standing for a token in query keys (the token itself is a secret and stays out of them). */
export function sessionNumberOf(token: string): number {
  let number = sessionNumbers.get(token);
  if (number === undefined) {
    number = sessionNumbers.size + 1;
    sessionNumbers.set(token, number);
  }
  return number;
}
