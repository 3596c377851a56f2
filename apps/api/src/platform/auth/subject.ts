import type { Scope } from './scopes.js';
import type { OrganizationRow } from '../../modules/organizations/organizations.repository.js';

/** Who is calling. Every route declares which kinds it admits. */
export type Subject =
  | { kind: 'anonymous' }
  /** A dashboard session (`sessionId`), or an OAuth2 access token of a user subject (`sessionId` null). */
  | { kind: 'user'; userId: string; sessionId: string | null; scopes: ReadonlySet<string>; viaCookie: boolean }
  /**
   * An organization access token, or an OAuth2 access token of an organization subject. `organization`:
   * its organization as read with the token, on routes that ask for it (route.ts readsTokenOrganization).
   */
  | {
      kind: 'organization';
      organizationId: string;
      tokenId: string;
      scopes: ReadonlySet<string>;
      organization?: OrganizationRow;
    }
  /** A customer portal session (`polar_cst_` bearer): sees only its own customer's resources. */
  | {
      kind: 'customer';
      customerId: string;
      organizationId: string;
      sessionId: string;
      scopes: ReadonlySet<string>;
    };

export type SubjectKind = Subject['kind'];
export type AuthenticatedSubject = Exclude<Subject, { kind: 'anonymous' }>;

/**
 * A route's auth requirement. `subjects` lists who may call; `scopes` lists the scopes of which any
 * one suffices (an empty list means no scope is needed). `optional` admits anonymous callers too.
 */
export interface AuthRequirement {
  subjects: Exclude<SubjectKind, 'anonymous'>[];
  scopes: Scope[];
  optional?: boolean;
}

export const PUBLIC: AuthRequirement = { subjects: [], scopes: [], optional: true };
