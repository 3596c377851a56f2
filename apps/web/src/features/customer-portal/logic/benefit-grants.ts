import type {
  BenefitType,
  CustomerBenefitGrant,
  CustomerBenefitGrantDiscord,
  CustomerBenefitGrantGitHubRepository,
  CustomerPortalCustomer,
  LicenseKeyStatus,
} from '@tessera/sdk';
import { formatDate } from '../../../lib/format';

type Tone = 'neutral' | 'success' | 'warning' | 'danger' | 'info';

export interface GrantState {
  label: string;
  tone: Tone;
  /** What the state means for the customer, and what to do; absent when the label says it all. */
  message?: string;
}

/** The grant variant of one benefit type. */
export type GrantOf<T extends BenefitType> = Extract<CustomerBenefitGrant, { benefit: { type: T } }>;

export function isGrantOf<T extends BenefitType>(grant: CustomerBenefitGrant, type: T): grant is GrantOf<T> {
  return grant.benefit.type === type;
}

/** The sections of the benefits page, in the order a customer looks for them. */
export const BENEFIT_SECTIONS: { type: BenefitType; title: string }[] = [
  { type: 'license_keys', title: 'License keys' },
  { type: 'downloadables', title: 'Downloads' },
  { type: 'custom', title: 'Notes from the seller' },
  { type: 'meter_credit', title: 'Usage credits' },
  { type: 'discord', title: 'Discord' },
  { type: 'github_repository', title: 'GitHub repositories' },
];

/** Grants grouped by benefit type, in the order of `BENEFIT_SECTIONS`; empty groups left out. */
export function groupByType(grants: readonly CustomerBenefitGrant[]) {
  return BENEFIT_SECTIONS.map((section) => ({
    ...section,
    grants: grants.filter((grant) => grant.benefit.type === section.type),
  })).filter((section) => section.grants.length > 0);
}

/** Whether the benefit is the customer's now, being set up, or was taken back. */
export function grantState(grant: Pick<CustomerBenefitGrant, 'is_granted' | 'is_revoked' | 'revoked_at'>): GrantState {
  if (grant.is_revoked)
    return { label: 'Revoked', tone: 'neutral', message: `Removed on ${formatDate(grant.revoked_at)}.` };
  if (grant.is_granted) return { label: 'Active', tone: 'success' };
  return { label: 'Being set up', tone: 'warning' };
}

export const PLATFORM = {
  discord: { name: 'Discord', account: 'discord' },
  github_repository: { name: 'GitHub', account: 'github' },
} as const;

export type AccountPlatform = (typeof PLATFORM)[keyof typeof PLATFORM]['account'];

export interface ConnectedAccount {
  account_id: string;
  account_username: string | null;
}

/** The customer's connected accounts of a platform (`oauth_accounts` is keyed `platform:account_id`). */
export function accountsOf(
  customer: Pick<CustomerPortalCustomer, 'oauth_accounts'>,
  platform: AccountPlatform,
): ConnectedAccount[] {
  return Object.entries(customer.oauth_accounts)
    .filter(([key]) => key.startsWith(`${platform}:`))
    .map(([, account]) => account);
}

/**
 * A Discord role or a GitHub repository needs the customer's account on that platform: connected in the
 * portal, then chosen for the grant. Until access is given, the customer learns why and what to do.
 */
export function accountGrantState(
  grant: CustomerBenefitGrantDiscord | CustomerBenefitGrantGitHubRepository,
  customer: Pick<CustomerPortalCustomer, 'oauth_accounts'>,
  sellerName: string,
): GrantState {
  const platform = PLATFORM[grant.benefit.type];
  if (grant.is_revoked) return grantState(grant);
  if (grant.is_granted) {
    if (grant.benefit.type === 'discord')
      return { label: 'Active', tone: 'success', message: 'Your Discord account has the role in the server.' };
    const { repository_owner, repository_name } = grant.benefit.properties;
    return {
      label: 'Active',
      tone: 'success',
      message: `Your GitHub account was invited to ${repository_owner}/${repository_name}. Accept the invitation on GitHub if you have not yet.`,
    };
  }
  const chosen = grant.properties.account_id;
  if (!chosen) {
    const connected = accountsOf(customer, platform.account).length > 0;
    return {
      label: `Needs your ${platform.name} account`,
      tone: 'warning',
      message: connected
        ? `Choose the ${platform.name} account that should get access.`
        : `Access is given to a ${platform.name} account: connect yours below.`,
    };
  }
  const error = (grant as { error?: { message: string } | null }).error;
  return {
    label: 'Being set up',
    tone: 'warning',
    message: error
      ? `${platform.name} has not given access yet (${error.message}). It is retried automatically; if it does not arrive within the hour, contact ${sellerName}.`
      : `Access to your ${platform.name} account is being given. It is retried automatically; if it does not arrive within the hour, contact ${sellerName}.`,
  };
}

export const LICENSE_KEY_STATUS: Record<LicenseKeyStatus, { label: string; tone: Tone }> = {
  granted: { label: 'Active', tone: 'success' },
  revoked: { label: 'Revoked', tone: 'neutral' },
  disabled: { label: 'Disabled', tone: 'danger' },
};

/** "12 of 100" or "12 (no limit)". */
export function usageWords(used: number, limit: number | null): string {
  return limit === null ? `${used} (no limit)` : `${used} of ${limit}`;
}

/** "Never", "Mar 3, 2027", or "Expired on Mar 3, 2026". */
export function expiryWords(expiresAt: string | null, now: Date): string {
  if (!expiresAt) return 'Never';
  return new Date(expiresAt) <= now ? `Expired on ${formatDate(expiresAt)}` : formatDate(expiresAt);
}
